import { z } from "zod";
import { can, type Role } from "@/lib/auth/roles";
import { HostAddressSchema, NameSchema, PortSchema, isHostAddress } from "@/lib/inventory/schemas";
import { ipv4Bytes, ipv6Groups } from "@/lib/format/ip";

// The notification contract: what the channel store, the senders, the alert evaluator, the
// REST API and the pages agree a channel and a notification are. Pure: no I/O, safe in the
// browser (the channel form checks with these same schemas).
//
// Every message says what is allowed without repeating the input: a rejected value may be a
// token or a password.

export const CHANNEL_TYPES = ["webhook", "ntfy", "discord", "slack", "gotify", "email"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = {
  webhook: "Webhook",
  ntfy: "ntfy",
  discord: "Discord",
  slack: "Slack",
  gotify: "Gotify",
  email: "Email (SMTP)",
};

export function isChannelType(value: unknown): value is ChannelType {
  return typeof value === "string" && (CHANNEL_TYPES as readonly string[]).includes(value);
}

/**
 * The config fields of each type that are sealed (lib/inventory/secrets.ts) and never sent
 * back. A Discord or Slack webhook URL is its own credential (whoever has it can post), so
 * it is sealed like a token.
 */
export const SECRET_FIELDS: Record<ChannelType, string[]> = {
  webhook: ["secret"],
  ntfy: ["token"],
  discord: ["url"],
  slack: ["url"],
  gotify: ["token"],
  email: ["password"],
};

/**
 * The config fields that say where a type sends. When one of them changes, the stored secrets
 * are dropped unless the same change sends them again: a token kept across a new URL would be
 * handed to whatever listens there at the next delivery.
 */
export const DESTINATION_FIELDS: Record<ChannelType, string[]> = {
  webhook: ["url"],
  ntfy: ["url"],
  discord: ["url"],
  slack: ["url"],
  gotify: ["url"],
  email: ["host", "port", "security", "insecureTls"],
};

/**
 * The stored secret fields a change from `before` to `after` drops: every one that `sent` (the
 * change's own config) does not set again, when a destination field differs. Configs as the
 * type's schema outputs them (defaults filled in).
 */
export function secretsDroppedByMove(
  type: ChannelType,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  sent: Record<string, unknown>,
): string[] {
  const isMoved = DESTINATION_FIELDS[type].some((name) => before[name] !== after[name]);
  if (!isMoved) return [];
  return SECRET_FIELDS[type].filter((name) => before[name] !== undefined && (sent[name] ?? null) === null);
}

export const EMAIL_SECURITY = ["starttls", "tls", "none"] as const;
export type EmailSecurity = (typeof EMAIL_SECURITY)[number];

// ---------------------------------------------------------------- fields

/** The error option of a zod schema: "is required: X" when missing, "must be X" otherwise. */
function allowed(description: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `is required: ${description}` : `must be ${description}`;
}

export const MAX_URL_LENGTH = 2048;
const URL_DESCRIPTION = "an http:// or https:// URL";

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

function hasUserInfo(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== "" || url.password !== "";
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- link-local destinations

/**
 * An IP address that a channel may not send to: IPv4 link-local 169.254.0.0/16 (where clouds
 * answer metadata requests, credentials included), IPv6 link-local fe80::/10, AWS's IPv6 metadata
 * address fd00:ec2::254, Alibaba Cloud's metadata address 100.100.100.200 (inside the shared
 * 100.64.0.0/10, whose other addresses stay allowed), and those IPv4 addresses written as
 * IPv4-mapped IPv6 (::ffff:169.254.x.y).
 * Loopback and private ranges are not in it: a homelab's receivers live there.
 */
export function isLinkLocalAddress(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  const v4 = ipv4Bytes(bare);
  if (v4) return isRefusedIpv4(v4);
  const groups = ipv6Groups(bare);
  if (!groups) return false;
  if ((groups[0]! & 0xffc0) === 0xfe80) return true;
  if (groups.join(":") === [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(":")) return true;
  const isMapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  return isMapped && isRefusedIpv4([groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff]);
}

/** 169.254.0.0/16 (link-local, most clouds' metadata) and 100.100.100.200 (Alibaba Cloud's metadata). */
function isRefusedIpv4(bytes: readonly number[]): boolean {
  if (bytes[0] === 169 && bytes[1] === 254) return true;
  return bytes.join(".") === "100.100.100.200";
}

/**
 * A host (name, IPv4 in any form a URL accepts such as 0xa9fea9fe, or IPv6 with or without
 * brackets) that is a link-local or metadata address as written. A name is checked again
 * once resolved, when a notification is sent.
 */
export function isLinkLocalHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  try {
    const hostname = new URL(`http://${bare.includes(":") ? `[${bare}]` : bare}/`).hostname;
    return isLinkLocalAddress(hostname);
  } catch {
    return isLinkLocalAddress(bare);
  }
}

function hasLinkLocalHost(value: string): boolean {
  try {
    return isLinkLocalHost(new URL(value).hostname);
  } catch {
    return false;
  }
}

export const LINK_LOCAL_REFUSAL =
  "must not be a link-local or cloud metadata address (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200): loopback and private addresses are allowed";

// Loopback and private addresses are allowed on purpose: a homelab's ntfy, Gotify or webhook
// receiver lives there; link-local ones are not (a cloud's metadata service answers there). A
// user name or password in the URL is refused: the token fields are sealed.
export const ChannelUrlSchema = z
  .string({ error: allowed(URL_DESCRIPTION) })
  .max(MAX_URL_LENGTH, { error: allowed(`${URL_DESCRIPTION} of at most ${MAX_URL_LENGTH} characters`) })
  .refine(isHttpUrl, { error: allowed(URL_DESCRIPTION) })
  .refine((value) => !hasUserInfo(value), {
    error: "must not hold a user name or password: put a token in its own field",
  })
  .refine((value) => !hasLinkLocalHost(value), { error: LINK_LOCAL_REFUSAL });

const TOKEN_DESCRIPTION = "1-1024 visible ASCII characters, without spaces";
// Sent in an HTTP header: nothing a header could be split or folded on.
const TokenSchema = z
  .string({ error: allowed(TOKEN_DESCRIPTION) })
  .min(1, { error: allowed(TOKEN_DESCRIPTION) })
  .max(1024, { error: allowed(TOKEN_DESCRIPTION) })
  .regex(/^[\x21-\x7e]+$/, { error: allowed(TOKEN_DESCRIPTION) });

const SECRET_DESCRIPTION = "1-1024 characters, without control characters";
const SecretTextSchema = z
  .string({ error: allowed(SECRET_DESCRIPTION) })
  .min(1, { error: allowed(SECRET_DESCRIPTION) })
  .max(1024, { error: allowed(SECRET_DESCRIPTION) })
  .regex(/^[^\p{Cc}]+$/u, { error: allowed(SECRET_DESCRIPTION) });

const USERNAME_DESCRIPTION = "1-256 characters, without control characters";
const SmtpUsernameSchema = z
  .string({ error: allowed(USERNAME_DESCRIPTION) })
  .min(1, { error: allowed(USERNAME_DESCRIPTION) })
  .max(256, { error: allowed(USERNAME_DESCRIPTION) })
  .regex(/^[^\p{Cc}]+$/u, { error: allowed(USERNAME_DESCRIPTION) });

// A plain address (no display name): it goes into a mail header, so nothing that could end one.
// Built from its parts: the local part is dot-separated atoms, the domain dot-separated labels (at most 63 characters,
// no hyphen at either end).
const EMAIL_ATOM = /[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+/.source;
const EMAIL_LABEL = /[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?/.source;
const EMAIL_PATTERN = new RegExp(`^${EMAIL_ATOM}(?:\\.${EMAIL_ATOM})*@${EMAIL_LABEL}(?:\\.${EMAIL_LABEL})*$`);

export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value);
}

/** "a@x, b@y" → ["a@x", "b@y"]. */
export function splitAddresses(value: string): string[] {
  return value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");
}

export const MAX_RECIPIENTS = 20;
const FROM_DESCRIPTION = "one email address such as wirespeed@nas.lan (no display name)";
const TO_DESCRIPTION = `1-${MAX_RECIPIENTS} email addresses separated by commas`;

const FromSchema = z
  .string({ error: allowed(FROM_DESCRIPTION) })
  .refine(isEmailAddress, { error: allowed(FROM_DESCRIPTION) });
const ToSchema = z
  .string({ error: allowed(TO_DESCRIPTION) })
  .max(2000, { error: allowed(TO_DESCRIPTION) })
  .refine(
    (value) => {
      const addresses = splitAddresses(value);
      return addresses.length >= 1 && addresses.length <= MAX_RECIPIENTS && addresses.every(isEmailAddress);
    },
    { error: allowed(TO_DESCRIPTION) },
  );

// ---------------------------------------------------------------- config per type

export const WebhookConfigSchema = z.strictObject({ url: ChannelUrlSchema, secret: SecretTextSchema.optional() });
export const NtfyConfigSchema = z.strictObject({ url: ChannelUrlSchema, token: TokenSchema.optional() });
export const DiscordConfigSchema = z.strictObject({ url: ChannelUrlSchema });
export const SlackConfigSchema = z.strictObject({ url: ChannelUrlSchema });
export const GotifyConfigSchema = z.strictObject({ url: ChannelUrlSchema, token: TokenSchema });
export const EmailConfigSchema = z.strictObject({
  // Once it is an address at all (else that is what its message says).
  host: HostAddressSchema.refine((value) => !isHostAddress(value) || !isLinkLocalHost(value), {
    error: LINK_LOCAL_REFUSAL,
  }),
  port: PortSchema,
  security: z.enum(EMAIL_SECURITY, { error: allowed(`one of ${EMAIL_SECURITY.join(", ")}`) }),
  username: SmtpUsernameSchema.optional(),
  password: SecretTextSchema.optional(),
  from: FromSchema,
  to: ToSchema,
  /** Accept a self-signed certificate (common on a homelab's mail relay). */
  insecureTls: z.boolean({ error: allowed("true or false") }).default(false),
});

export const CHANNEL_CONFIG_SCHEMAS = {
  webhook: WebhookConfigSchema,
  ntfy: NtfyConfigSchema,
  discord: DiscordConfigSchema,
  slack: SlackConfigSchema,
  gotify: GotifyConfigSchema,
  email: EmailConfigSchema,
} as const satisfies Record<ChannelType, z.ZodType>;

export type WebhookConfig = z.output<typeof WebhookConfigSchema>;
export type NtfyConfig = z.output<typeof NtfyConfigSchema>;
export type DiscordConfig = z.output<typeof DiscordConfigSchema>;
export type SlackConfig = z.output<typeof SlackConfigSchema>;
export type GotifyConfig = z.output<typeof GotifyConfigSchema>;
export type EmailConfig = z.output<typeof EmailConfigSchema>;

/** A type's full config, secrets included (server side only once stored). */
export type ChannelConfigOf = { [T in ChannelType]: z.output<(typeof CHANNEL_CONFIG_SCHEMAS)[T]> };
/** A channel's type and full config, narrowed together. */
export type ChannelSettings = { [T in ChannelType]: { type: T; config: ChannelConfigOf[T] } }[ChannelType];

// ---------------------------------------------------------------- the request

function inputOf<T extends ChannelType>(type: T) {
  return z.strictObject({ name: NameSchema, type: z.literal(type), config: CHANNEL_CONFIG_SCHEMAS[type] });
}

/** `POST /api/channels`: `{ name, type, config }`, config per type. */
export const ChannelInputSchema = z.discriminatedUnion(
  "type",
  [inputOf("webhook"), inputOf("ntfy"), inputOf("discord"), inputOf("slack"), inputOf("gotify"), inputOf("email")],
  {
    error: (issue) =>
      issue.code === "invalid_union" ? allowed(`one of ${CHANNEL_TYPES.join(", ")}`)(issue) : undefined,
  },
);
export type ChannelInput = z.output<typeof ChannelInputSchema>;

/**
 * `PATCH /api/channels/:id`: any subset of name and config. In config, a field left out
 * keeps its stored value and `null` clears it (a secret is never sent back, so "left out"
 * is how a form keeps it). The merged config is checked against the type's schema.
 * `type` may be sent only with the channel's own type.
 */
export const ChannelPatchSchema = z.strictObject({
  name: NameSchema.optional(),
  type: z.enum(CHANNEL_TYPES, { error: allowed(`one of ${CHANNEL_TYPES.join(", ")}`) }).optional(),
  config: z.record(z.string(), z.unknown(), { error: allowed("an object of the type's settings") }).optional(),
});
export type ChannelPatch = z.output<typeof ChannelPatchSchema>;

// ---------------------------------------------------------------- answers

/** A channel as the API and pages see it: config without its secret fields, which are listed in `secretsSet` when stored. */
export type ChannelJson = {
  id: number;
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  secretsSet: string[];
  createdAt: string;
  updatedAt: string;
};

// ---------------------------------------------------------------- what each role sees

/**
 * Whether `role` sees channel URLs whole. A webhook, ntfy or Gotify URL is often a secret of
 * its own (a Home Assistant /api/webhook/<id>, an ntfy topic, a ?token=), so a viewer (and the
 * public overview) sees its origin only; operators and admins, who may change the channel, see it all.
 */
export function seesChannelUrls(role: Role): boolean {
  return can(role, "monitor");
}

/** scheme://host[:port] of a URL; null when it is no URL. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.origin === "null" ? null : parsed.origin;
  } catch {
    return null;
  }
}

/** The text with each http(s) URL in it cut to its origin (a delivery error names the URL it failed on). */
export function urlsToOrigins(text: string): string {
  return text.replace(/https?:\/\/[^\s]+/gi, (match) => {
    // A URL that ends a clause keeps its punctuation: "could not reach http://h/x: refused".
    const tail = /[:;,.)]+$/.exec(match)?.[0] ?? "";
    const url = match.slice(0, match.length - tail.length);
    return `${originOf(url) ?? "(a URL)"}${tail}`;
  });
}

/** A channel as `role` may see it: a viewer gets the origin of its URL only. */
export function channelAsSeenBy(channel: ChannelJson, role: Role): ChannelJson {
  if (seesChannelUrls(role) || typeof channel.config.url !== "string") return channel;
  return { ...channel, config: { ...channel.config, url: originOf(channel.config.url) ?? "(a URL)" } };
}

/** A delivery's error as `role` may see it: for a viewer, every URL in it cut to its origin. */
export function deliveryErrorAsSeenBy(error: string | null, role: Role): string | null {
  return error === null || seesChannelUrls(role) ? error : urlsToOrigins(error);
}

/** The config without the type's secret fields. */
export function publicConfigOf(type: ChannelType, config: Record<string, unknown>): Record<string, unknown> {
  const secret = new Set(SECRET_FIELDS[type]);
  return Object.fromEntries(Object.entries(config).filter(([key, value]) => !secret.has(key) && value !== undefined));
}

export const NOTIFICATION_EVENTS = ["alert.firing", "alert.resolved", "test"] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** What every sender sends, each in its own shape; the webhook sends these fields as JSON. */
export type NotificationMessage = {
  event: NotificationEvent;
  title: string;
  /** Plain text. */
  body: string;
  /** The run page (or the alert's), from WIRESPEED_PUBLIC_URL; null when that is not set. */
  url: string | null;
  alertId: number | null;
  link: { id: number; name: string } | null;
  rule: { id: number; name: string } | null;
  runIds: number[];
  receivedBitsPerSecond: number | null;
  baselineBitsPerSecond: number | null;
  lineRatePercent: number | null;
  /** ISO 8601. */
  at: string;
};

export const DELIVERY_STATUSES = ["sent", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One channel's delivery of one message, as recorded in a `Notification` row. */
export type DeliveryResult = {
  channelId: number;
  channelName: string;
  status: DeliveryStatus;
  attempts: number;
  /** The last attempt's error, without any secret; null when sent. */
  error: string | null;
};
