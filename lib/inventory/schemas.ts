import { z } from "zod";
import { LabelsSchema, NoteSchema } from "@/lib/notes/contract";
import { HOST_PLATFORMS } from "@/lib/platforms";

// Plain module (no "server-only", no node: imports): forms may import these schemas for
// client-side checks, and the route handlers and server actions check with the same ones.
//
// Every field has a limit, and every message says what is allowed without repeating the
// input: a rejected value may be a secret or a hostile string.

/** The error option of a zod schema: "is required: X" when missing, "must be X" otherwise. */
function allowed(description: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `is required: ${description}` : `must be ${description}`;
}

function wholeNumber(min: number, max: number, description = `a whole number from ${min} to ${max}`) {
  const error = allowed(description);
  return z.int({ error }).min(min, { error }).max(max, { error });
}

function text(pattern: RegExp, maxLength: number, description: string, minLength = 1) {
  const error = allowed(description);
  return z.string({ error }).min(minLength, { error }).max(maxLength, { error }).regex(pattern, { error });
}

// ---- shared fields ----------------------------------------------------------------

/** Largest id Prisma's 32-bit Int accepts; a larger id cannot exist. */
export const MAX_ID = 2_147_483_647;
export const IdSchema = wholeNumber(1, MAX_ID, `a whole number from 1 to ${MAX_ID} (an id)`);

const NAME_DESCRIPTION =
  "1-64 characters: letters, digits, spaces and . _ - ( ) + : @, starting with a letter or digit and not ending with a space";
// Letters and digits of any script (Windows names adapters in the user's language); no shell
// metacharacters, quotes, slashes or control characters, and never "." or "..".
const NAME_PATTERN = /^[\p{L}\p{N}](?:[\p{L}\p{M}\p{N} ._\-()+:@]*[\p{L}\p{M}\p{N}._\-()+:@])?$/u;
/** Names of hosts, NICs and links. */
export const NameSchema = text(NAME_PATTERN, 64, NAME_DESCRIPTION);

/** A host's or a link's notes: the note of lib/notes (one rule for every note). */
export const NotesSchema = NoteSchema;

export const SpeedMbpsSchema = wholeNumber(1, 1_000_000, "a whole number of Mbit/s from 1 to 1000000");

// ---- hosts ------------------------------------------------------------------------

/** A host's platform: one Wirespeed has an agent for (lib/platforms.ts), or "unknown" until it is detected. */
export const PlatformSchema = z.enum(HOST_PLATFORMS, { error: allowed(`one of ${HOST_PLATFORMS.join(", ")}`) });

export const AUTH_METHODS = ["key", "password", "local"] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

const HOSTNAME_PATTERN =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*(?=[A-Za-z0-9-]*[A-Za-z-])[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** IPv4, IPv6 or a DNS hostname (whose last label is not all digits, so 999.1.1.1 is no hostname). */
export function isHostAddress(value: string): boolean {
  return z.regexes.ipv4.test(value) || z.regexes.ipv6.test(value) || HOSTNAME_PATTERN.test(value);
}

const HOST_ADDRESS_DESCRIPTION =
  "an IPv4 address, an IPv6 address (no brackets, no %zone) or a hostname of letters, digits, dots and hyphens, up to 253 characters";
export const HostAddressSchema = z
  .string({ error: allowed(HOST_ADDRESS_DESCRIPTION) })
  .max(253, { error: allowed(HOST_ADDRESS_DESCRIPTION) })
  .refine(isHostAddress, { error: allowed(HOST_ADDRESS_DESCRIPTION) });

export const PortSchema = wholeNumber(1, 65535);

// Letters, digits and . _ - @ \ (DOMAIN\user and user@domain are Windows logins); no spaces or shell characters.
export const UsernameSchema = text(
  /^[\p{L}\p{N}_][\p{L}\p{M}\p{N}_.@\\-]*$/u,
  64,
  "1-64 characters: letters, digits and . _ - @ \\, starting with a letter, digit or _",
);

export const PRIVATE_KEY_TYPES = [
  "OPENSSH PRIVATE KEY",
  "RSA PRIVATE KEY",
  "EC PRIVATE KEY",
  "PRIVATE KEY",
  "ENCRYPTED PRIVATE KEY",
] as const;
export const MAX_PRIVATE_KEY_BYTES = 16 * 1024;
// PEM bodies are base64 lines, plus "Proc-Type: 4,ENCRYPTED" and "DEK-Info: AES-128-CBC,…" headers in encrypted RSA keys.
const PRIVATE_KEY_PATTERN = new RegExp(
  `^\\s*-----BEGIN (${PRIVATE_KEY_TYPES.join("|")})-----\\r?\\n[A-Za-z0-9+/=:,\\- \\t\\r\\n]+\\r?\\n-----END \\1-----\\s*$`,
);

/** True for OpenSSH and PEM private key text (not PuTTY .ppk, not a public key). */
export function isPrivateKeyText(value: string): boolean {
  return value.length <= MAX_PRIVATE_KEY_BYTES && PRIVATE_KEY_PATTERN.test(value);
}

const PRIVATE_KEY_DESCRIPTION =
  "the text of an OpenSSH or PEM private key (-----BEGIN OPENSSH PRIVATE KEY-----, or RSA, EC, PKCS#8 or ENCRYPTED PEM), " +
  "at most 16 KiB; convert PuTTY .ppk keys with `puttygen KEY.ppk -O private-openssh`";
export const PrivateKeySchema = z
  .string({ error: allowed(PRIVATE_KEY_DESCRIPTION) })
  .max(MAX_PRIVATE_KEY_BYTES, { error: allowed(PRIVATE_KEY_DESCRIPTION) })
  .refine(isPrivateKeyText, { error: allowed(PRIVATE_KEY_DESCRIPTION) });

// Secrets may hold any character: they go to the SSH library, never to a shell.
export const PassphraseSchema = z
  .string({ error: allowed("1-1024 characters (leave the field out for a key without a passphrase)") })
  .min(1, { error: allowed("1-1024 characters (leave the field out for a key without a passphrase)") })
  .max(1024, { error: allowed("1-1024 characters (leave the field out for a key without a passphrase)") });
export const PasswordSchema = z
  .string({ error: allowed("1-1024 characters") })
  .min(1, { error: allowed("1-1024 characters") })
  .max(1024, { error: allowed("1-1024 characters") });

const AUTH_DESCRIPTION =
  'an object: { "method": "key", "privateKey", "passphrase"? }, { "method": "password", "password" } or { "method": "local" }';
export const HostAuthSchema = z.discriminatedUnion(
  "method",
  [
    z.strictObject({ method: z.literal("key"), privateKey: PrivateKeySchema, passphrase: PassphraseSchema.optional() }),
    z.strictObject({ method: z.literal("password"), password: PasswordSchema }),
    z.strictObject({ method: z.literal("local") }),
  ],
  {
    error: (issue) =>
      issue.code === "invalid_union" ? `must be one of ${AUTH_METHODS.join(", ")}` : allowed(AUTH_DESCRIPTION)(issue),
  },
);
export type HostAuth = z.output<typeof HostAuthSchema>;

// Absolute path, Unix or Windows; the agents quote it for their shell, this keeps it plain besides.
// The file name must start with "iperf": the path is run with iperf3's arguments on the host (or on
// this machine for a "local" host), so it must not name just any program, such as a shell.
const IPERF3_PATH_PATTERN =
  /^(?:\/|[A-Za-z]:[\\/])(?:[\p{L}\p{M}\p{N} ._\-()+/\\]*[\\/])?[Ii][Pp][Ee][Rr][Ff][\p{L}\p{M}\p{N} ._\-()+]*$/u;

/**
 * Whether `path` names a file on another machine, on any platform: Windows takes `/` and `\` alike,
 * so two separators at the start (`//server/share`, `\\server\share`, `/\server`, `\\?\UNC\…`,
 * `\\.\…`, `//?/…`) are a UNC path, which Windows fetches from that server, sending the SSH
 * user's login to it; the automounters' `/net/<host>` (Linux, macOS) and macOS's `/Network/`
 * mount a server by themselves; `smb://` and other URLs name one outright. `.` and `..` are
 * followed first (`/usr/../net/…`), and the names compared without case (macOS's disks ignore it).
 */
export function isNetworkPath(path: string): boolean {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(path)) return true;
  if (/^[\\/]{2}/.test(path)) return true;
  const drive = /^[A-Za-z]:/.test(path);
  const segments: string[] = [];
  for (const segment of (drive ? path.slice(2) : path).split(/[\\/]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  if (drive) return false;
  const first = segments[0]?.toLowerCase();
  return first === "net" || first === "network";
}

const IPERF3_PATH_DESCRIPTION =
  "an absolute path to the iperf3 program on the host's own disks, whose file name starts with iperf, such as /usr/bin/iperf3 or C:\\iperf3\\iperf3.exe: " +
  "up to 512 letters, digits, spaces and / \\ . _ - ( ) +, and no network path (//server/share, \\\\server\\share, /net/…, /Network/…)";
export const Iperf3PathSchema = text(IPERF3_PATH_PATTERN, 512, IPERF3_PATH_DESCRIPTION).refine(
  (path) => !isNetworkPath(path),
  { error: allowed(IPERF3_PATH_DESCRIPTION) },
);

export const HostKeyFingerprintSchema = text(
  /^SHA256:[A-Za-z0-9+/]{43}$/,
  50,
  "SHA256: followed by 43 base64 characters, as `ssh-keygen -l` prints it",
);

export const OpenFirewallSchema = z.boolean({ error: allowed("true or false") });

/** The first and last port iperf3 servers may use on a host; the range must not be empty. */
export function checkPortRange(min: number, max: number): string | null {
  return min <= max ? null : `must be at least iperfPortMin (${min}): the range ${min}-${max} is empty`;
}

/**
 * How Wirespeed reaches a host: `ssh` (it logs in and runs iperf3 on both ends), `iperf3-server` (an iperf3
 * server it does not manage: a public server, an appliance; only the client runs, on the other end) or
 * `device` (no SSH: a phone, a TV, a Wi-Fi laptop; Wirespeed listens and the device connects).
 */
export const HOST_ACCESS = ["ssh", "iperf3-server", "device"] as const;
export type HostAccess = (typeof HOST_ACCESS)[number];
export const HostAccessSchema = z.enum(HOST_ACCESS, { error: allowed(`one of ${HOST_ACCESS.join(", ")}`) });

/** What a device is: it picks the icon and the words, nothing else. */
export const DEVICE_KINDS = ["phone", "tablet", "laptop", "tv", "console", "other"] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];
export const DeviceKindSchema = z.enum(DEVICE_KINDS, { error: allowed(`one of ${DEVICE_KINDS.join(", ")}`) });

/** Free-form labels of a host (`rack1`, `lab-vlan`): the grid and the hosts list filter by them. */
export const TAG_DESCRIPTION =
  "1-32 characters: lowercase letters, digits and - _ . :, starting with a letter or digit";
export const TagSchema = text(/^[a-z0-9][a-z0-9._:-]{0,31}$/, 32, TAG_DESCRIPTION);
export const TagsSchema = z
  .array(TagSchema, { error: allowed(`a list of at most 16 tags, each ${TAG_DESCRIPTION}`) })
  .max(16, { error: allowed(`a list of at most 16 tags, each ${TAG_DESCRIPTION}`) });

/** The site whose instances reach a host (WIRESPEED_SITE of an instance: lib/instances/identity.ts). */
export const SITE_DESCRIPTION =
  "1-63 letters, digits, dots, dashes or underscores, starting with a letter or digit (the WIRESPEED_SITE of the instances that reach the host), or null for any instance";
export const SiteSchema = text(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 63, SITE_DESCRIPTION);

/** How many jump hosts may stand between Wirespeed and a host. */
export const MAX_JUMP_HOPS = 3;

// The fields that only a host Wirespeed logs in to has, and why another host refuses them.
const SSH_ONLY_FIELDS = ["auth", "username", "port", "jumpHostId", "hostKeyFingerprint"] as const;
const NOT_LOGGED_IN: Record<Exclude<HostAccess, "ssh">, string> = {
  "iperf3-server": "must be left out: Wirespeed does not log in to an iperf3-server host (it has no credentials)",
  device: "must be left out: Wirespeed does not log in to a device (it has no SSH)",
};

type AccessFields = {
  access?: HostAccess;
  auth?: unknown;
  kind?: unknown;
  jumpHostId?: unknown;
  address?: unknown;
} & Partial<Record<(typeof SSH_ONLY_FIELDS)[number], unknown>>;

/** The rules between `access` and the other fields, for a new host or for the fields a PATCH sends. */
function checkAccessFields(host: AccessFields, access: HostAccess, context: z.RefinementCtx) {
  if (access === "ssh") {
    if (host.kind !== undefined && host.kind !== null)
      context.addIssue({
        code: "custom",
        path: ["kind"],
        message: 'must be left out: only a device (access "device") has a kind',
      });
    if (host.jumpHostId != null && (host.auth as { method?: string } | undefined)?.method === "local")
      context.addIssue({
        code: "custom",
        path: ["jumpHostId"],
        message: "must be left out for this machine (auth local): it is not reached over SSH",
      });
    return;
  }
  for (const field of SSH_ONLY_FIELDS) {
    const value = host[field];
    // null is "none", which is what such a host has anyway.
    if (value !== undefined && value !== null)
      context.addIssue({ code: "custom", path: [field], message: NOT_LOGGED_IN[access] });
  }
  if (access === "iperf3-server" && host.kind !== undefined && host.kind !== null)
    context.addIssue({
      code: "custom",
      path: ["kind"],
      message: 'must be left out: only a device (access "device") has a kind',
    });
}

export const HostCreateSchema = z
  .strictObject({
    name: NameSchema,
    access: HostAccessSchema.default("ssh"),
    // Required for ssh and iperf3-server hosts; a device may leave it out.
    address: HostAddressSchema.optional(),
    // ssh only (defaults 22 and root).
    port: PortSchema.optional(),
    username: UsernameSchema.optional(),
    auth: HostAuthSchema.optional(),
    jumpHostId: IdSchema.nullable().optional(),
    // device only (default other).
    kind: DeviceKindSchema.nullable().optional(),
    platform: PlatformSchema.default("unknown"),
    iperf3Path: Iperf3PathSchema.nullable().optional(),
    hostKeyFingerprint: HostKeyFingerprintSchema.nullable().optional(),
    iperfPortMin: PortSchema.default(5201),
    iperfPortMax: PortSchema.default(5299),
    // ESXi only: open the host's firewall for a test and restore it afterwards.
    openFirewall: OpenFirewallSchema.default(false),
    notes: NotesSchema.default(""),
    tags: TagsSchema.default([]),
    site: SiteSchema.nullable().optional(),
  })
  // What a new host of its access must have: checked even when other fields are refused, so that
  // every missing field is named at once.
  .superRefine(
    (host, context) => {
      const access = HOST_ACCESS.find((value) => value === host.access);
      if (access !== undefined && access !== "device" && host.address === undefined)
        context.addIssue({ code: "custom", path: ["address"], message: `is required: ${HOST_ADDRESS_DESCRIPTION}` });
      if (access === "ssh" && host.auth === undefined)
        context.addIssue({ code: "custom", path: ["auth"], message: `is required: ${AUTH_DESCRIPTION}` });
    },
    // Not for a body that is no object at all: that is the one error then.
    { when: (payload) => typeof payload.value === "object" && payload.value !== null },
  )
  .superRefine((host, context) => {
    checkAccessFields(host, host.access, context);
    // zod runs this even when a bound itself was refused: then that bound's own error says it all.
    if (!PortSchema.safeParse(host.iperfPortMin).success || !PortSchema.safeParse(host.iperfPortMax).success) return;
    const problem = checkPortRange(host.iperfPortMin, host.iperfPortMax);
    if (problem) context.addIssue({ code: "custom", path: ["iperfPortMax"], message: problem });
  });
export type HostCreateInput = z.input<typeof HostCreateSchema>;

/**
 * PATCH: any subset; `auth` replaces the method and secret together; null clears a nullable field.
 * `access` cannot change (the rules against the stored host are in lib/inventory/hosts.ts).
 */
export const HostUpdateSchema = z.strictObject({
  name: NameSchema.optional(),
  access: HostAccessSchema.optional(),
  address: HostAddressSchema.optional(),
  port: PortSchema.optional(),
  username: UsernameSchema.optional(),
  auth: HostAuthSchema.optional(),
  // null: reached directly.
  jumpHostId: IdSchema.nullable().optional(),
  kind: DeviceKindSchema.nullable().optional(),
  platform: PlatformSchema.optional(),
  iperf3Path: Iperf3PathSchema.nullable().optional(),
  // null unpins: the next contact records the key again and asks for confirmation.
  hostKeyFingerprint: HostKeyFingerprintSchema.nullable().optional(),
  // Checked against the stored bound when only one is given (lib/inventory/hosts.ts).
  iperfPortMin: PortSchema.optional(),
  iperfPortMax: PortSchema.optional(),
  openFirewall: OpenFirewallSchema.optional(),
  notes: NotesSchema.optional(),
  tags: TagsSchema.optional(),
  // null: any instance reaches the host.
  site: SiteSchema.nullable().optional(),
});
export type HostUpdateInput = z.input<typeof HostUpdateSchema>;

/** The PATCH's fields checked against the host's stored `access` (which the PATCH cannot change). */
export function checkHostUpdateAccess(
  update: z.output<typeof HostUpdateSchema>,
  stored: HostAccess,
): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (update.access !== undefined && update.access !== stored)
    problems.push({
      field: "access",
      message: `cannot change (the host is "${stored}"): delete the host and add it again with another access`,
    });
  const context = {
    addIssue: (issue: { path?: PropertyKey[]; message?: string }) =>
      problems.push({ field: String(issue.path?.[0] ?? ""), message: issue.message ?? "" }),
  } as unknown as z.RefinementCtx;
  checkAccessFields(update, stored, context);
  return problems;
}

// ---- NICs -------------------------------------------------------------------------

/** A bare IPv4/IPv6 address or one in CIDR notation. */
export function isNicAddress(value: string): boolean {
  const { ipv4, ipv6, cidrv4, cidrv6 } = z.regexes;
  return ipv4.test(value) || ipv6.test(value) || cidrv4.test(value) || cidrv6.test(value);
}

const NIC_ADDRESS_DESCRIPTION =
  "an IPv4 or IPv6 address, bare (198.18.0.1) or in CIDR notation (198.18.0.1/24, fd00::1/64)";
export const NicAddressSchema = z
  .string({ error: allowed(NIC_ADDRESS_DESCRIPTION) })
  .max(49, { error: allowed(NIC_ADDRESS_DESCRIPTION) })
  .refine(isNicAddress, { error: allowed(NIC_ADDRESS_DESCRIPTION) });
export const NicAddressesSchema = z
  .array(NicAddressSchema, { error: allowed(`a list of at most 16 addresses, each ${NIC_ADDRESS_DESCRIPTION}`) })
  .max(16, { error: allowed(`a list of at most 16 addresses, each ${NIC_ADDRESS_DESCRIPTION}`) });

export const MtuSchema = wholeNumber(68, 65535, "a whole number of bytes from 68 to 65535");
export const NicModelSchema = text(
  /^[^\p{Cc}]*$/u,
  128,
  "1-128 characters without control characters (such as newlines)",
);
export const NicDriverSchema = text(/^[A-Za-z0-9_.-]+$/, 64, "1-64 characters: letters, digits and _ . -");
export const MacSchema = text(
  /^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(?:\1[0-9A-Fa-f]{2}){4}$/,
  17,
  "a MAC address of six hex pairs joined by : or - (aa:bb:cc:dd:ee:ff)",
);
export const PcieLinkSpeedSchema = text(
  /^[A-Za-z0-9 ./]+$/,
  32,
  "1-32 characters: letters, digits, spaces and . / (such as 8.0 GT/s PCIe)",
);
export const PcieLinkWidthSchema = wholeNumber(1, 32, "a whole number of lanes from 1 to 32");

/** What a NIC is, where it matters: a device's Wi-Fi and Ethernet sides, a laptop's. */
export const NIC_MEDIA = ["ethernet", "wifi"] as const;
export type NicMedium = (typeof NIC_MEDIA)[number];
/** A medium in words, as the pages show it. */
export function nicMediumLabel(medium: string): string {
  return medium === "wifi" ? "Wi-Fi" : medium === "ethernet" ? "Ethernet" : medium;
}
export const NicMediumSchema = z.enum(NIC_MEDIA, { error: allowed(`one of ${NIC_MEDIA.join(", ")}, or null`) });

const nicFields = {
  name: NameSchema,
  // One address, or the whole list (the first is the one runs bind to unless told otherwise).
  address: NicAddressSchema.nullable().optional(),
  addresses: NicAddressesSchema.optional(),
  speedMbps: SpeedMbpsSchema.nullable().optional(),
  mtu: MtuSchema.nullable().optional(),
  model: NicModelSchema.nullable().optional(),
  driver: NicDriverSchema.nullable().optional(),
  mac: MacSchema.nullable().optional(),
  pcieLinkSpeed: PcieLinkSpeedSchema.nullable().optional(),
  pcieLinkWidth: PcieLinkWidthSchema.nullable().optional(),
  medium: NicMediumSchema.nullable().optional(),
};

function notBothAddressForms(value: { address?: unknown; addresses?: unknown }, context: z.RefinementCtx) {
  if (value.address !== undefined && value.addresses !== undefined) {
    context.addIssue({
      code: "custom",
      path: ["addresses"],
      message: "must not be given together with address: send one or the other",
    });
  }
}

export const NicCreateSchema = z.strictObject({ hostId: IdSchema, ...nicFields }).superRefine(notBothAddressForms);
export type NicCreateInput = z.input<typeof NicCreateSchema>;

/** PATCH: any subset; a NIC cannot move to another host (delete it and create it there). */
export const NicUpdateSchema = z
  .strictObject({ ...nicFields, name: NameSchema.optional() })
  .superRefine(notBothAddressForms);
export type NicUpdateInput = z.input<typeof NicUpdateSchema>;

// ---- links ------------------------------------------------------------------------

/** How many of the latest successful runs of a test make its baseline (lib/alerts/baseline.ts). */
const BaselineRunsSchema = wholeNumber(1, 100, "a whole number of runs from 1 to 100");
/** Whether runs imported from iperf3 output (lib/imports) count toward the baselines. */
const ImportsInBaselineSchema = z.boolean({
  error: "must be true or false: whether imported runs count toward the baselines",
});

/** Whether Home Assistant's "Run again" button of the link may start its last test (lib/mqtt). */
const HomeAssistantRunButtonSchema = z.boolean({
  error: "must be true or false: whether Home Assistant's Run again button may start the link's last test",
});

export const LinkCreateSchema = z.strictObject({
  name: NameSchema,
  aNicId: IdSchema,
  bNicId: IdSchema,
  // Left out or null: the slower NIC's speed.
  speedMbps: SpeedMbpsSchema.nullable().optional(),
  notes: NotesSchema.default(""),
  baselineRuns: BaselineRunsSchema.default(10),
  importsInBaseline: ImportsInBaselineSchema.default(false),
  homeAssistantRunButton: HomeAssistantRunButtonSchema.default(false),
});
export type LinkCreateInput = z.input<typeof LinkCreateSchema>;

/** PATCH: any subset; `speedMbps: null` sets it back to the slower NIC's speed. */
export const LinkUpdateSchema = z
  .strictObject({
    name: NameSchema.optional(),
    aNicId: IdSchema.optional(),
    bNicId: IdSchema.optional(),
    speedMbps: SpeedMbpsSchema.nullable().optional(),
    notes: NotesSchema.optional(),
    /** The same as `notes`, under the name runs and experiments use (PATCH /api/links/:id { note, labels }). */
    note: NotesSchema.optional(),
    labels: LabelsSchema.optional(),
    baselineRuns: BaselineRunsSchema.optional(),
    importsInBaseline: ImportsInBaselineSchema.optional(),
    homeAssistantRunButton: HomeAssistantRunButtonSchema.optional(),
  })
  .refine((body) => body.note === undefined || body.notes === undefined, {
    path: ["note"],
    error: "must not come with notes: they are one field under two names (send one)",
  });
export type LinkUpdateInput = z.input<typeof LinkUpdateSchema>;
