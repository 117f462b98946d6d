// What the channel form asks for, without React: the fields of each type, the request body
// they make (POST /api/channels, or the PATCH of an edit, where a secret left empty keeps its
// stored value), a stored channel read back into fields, and the words of a delivery.
import {
  SECRET_FIELDS,
  secretsDroppedByMove,
  type ChannelJson,
  type ChannelType,
  type DeliveryResult,
} from "@/lib/notify/contract";
import type { FieldPlacement } from "@/components/forms/use-action-form";

export type ChannelFieldKind = "text" | "url" | "number" | "select" | "checkbox" | "email";

export type ChannelFieldSpec = {
  key: string;
  label: string;
  kind: ChannelFieldKind;
  /** left empty, the field is left out of a new channel (and cleared on an edit, unless secret) */
  isOptional: boolean;
  hint?: string;
  choices?: readonly { value: string; label: string }[];
  /** a new channel's value */
  initial?: string | boolean;
};

/** The config fields of each type, in the order the form shows them. */
export const CHANNEL_FIELDS: Record<ChannelType, readonly ChannelFieldSpec[]> = {
  webhook: [
    { key: "url", label: "URL", kind: "url", isOptional: false, hint: "Receives a JSON POST of each notification" },
    {
      key: "secret",
      label: "Signing secret (optional)",
      kind: "text",
      isOptional: true,
      hint: "With it, X-Wirespeed-Signature: sha256=<HMAC-SHA256 of the body>",
    },
  ],
  ntfy: [
    {
      key: "url",
      label: "Topic URL",
      kind: "url",
      isOptional: false,
      hint: "Such as https://ntfy.sh/my-lab or http://ntfy.lan/wirespeed",
    },
    {
      key: "token",
      label: "Access token (optional)",
      kind: "text",
      isOptional: true,
      hint: "For a protected topic: sent as a bearer token",
    },
  ],
  discord: [
    {
      key: "url",
      label: "Webhook URL",
      kind: "url",
      isOptional: false,
      hint: "Channel settings → Integrations → Webhooks; kept sealed, as whoever has it can post",
    },
  ],
  slack: [
    {
      key: "url",
      label: "Incoming webhook URL",
      kind: "url",
      isOptional: false,
      hint: "https://hooks.slack.com/services/…; kept sealed, as whoever has it can post",
    },
  ],
  gotify: [
    { key: "url", label: "Server URL", kind: "url", isOptional: false, hint: "Such as http://gotify.lan" },
    {
      key: "token",
      label: "Application token",
      kind: "text",
      isOptional: false,
      hint: "Apps → create an application → its token",
    },
  ],
  email: [
    { key: "host", label: "SMTP server", kind: "text", isOptional: false, hint: "Host name or address" },
    {
      key: "port",
      label: "Port",
      kind: "number",
      isOptional: false,
      initial: "587",
      hint: "587 for STARTTLS, 465 for TLS, 25 without",
    },
    {
      key: "security",
      label: "Security",
      kind: "select",
      isOptional: false,
      initial: "starttls",
      choices: [
        { value: "starttls", label: "STARTTLS" },
        { value: "tls", label: "TLS from the start" },
        { value: "none", label: "None (plain text)" },
      ],
    },
    { key: "username", label: "User name (optional)", kind: "text", isOptional: true },
    { key: "password", label: "Password (optional)", kind: "text", isOptional: true },
    { key: "from", label: "From", kind: "email", isOptional: false, hint: "One address, such as wirespeed@nas.lan" },
    { key: "to", label: "To", kind: "text", isOptional: false, hint: "One or more addresses, separated by commas" },
    {
      key: "insecureTls",
      label: "Accept a self-signed certificate",
      kind: "checkbox",
      isOptional: false,
      initial: false,
    },
  ],
};

export function isSecretField(type: ChannelType, key: string): boolean {
  return SECRET_FIELDS[type].includes(key);
}

export type ChannelFormFields = {
  name: string;
  type: ChannelType;
  /** each field of each type as typed, by `type.key`, so that switching type and back keeps what was typed */
  values: Record<string, string | boolean>;
  /** optional secrets to remove on save, by `type.key` */
  clear: Record<string, boolean>;
};

function valueKey(type: ChannelType, key: string): string {
  return `${type}.${key}`;
}

/** A new channel's fields. */
export function newChannelFields(type: ChannelType = "webhook"): ChannelFormFields {
  const values: Record<string, string | boolean> = {};
  for (const [fieldType, specs] of Object.entries(CHANNEL_FIELDS) as [ChannelType, readonly ChannelFieldSpec[]][]) {
    for (const spec of specs) values[valueKey(fieldType, spec.key)] = spec.initial ?? "";
  }
  return { name: "", type, values, clear: {} };
}

/** A stored channel's fields for its edit form: what is not secret as stored, secrets empty (set ones say so). */
export function channelFieldsOf(channel: ChannelJson): ChannelFormFields {
  const fields = newChannelFields(channel.type);
  for (const spec of CHANNEL_FIELDS[channel.type] ?? []) {
    if (isSecretField(channel.type, spec.key)) continue;
    const value = channel.config[spec.key];
    fields.values[valueKey(channel.type, spec.key)] =
      spec.kind === "checkbox" ? value === true : value === undefined || value === null ? "" : String(value);
  }
  return { ...fields, name: channel.name };
}

/** A field's value as the form holds it. */
export function fieldValue(fields: ChannelFormFields, key: string): string | boolean {
  return fields.values[valueKey(fields.type, key)] ?? "";
}

export function withValue(fields: ChannelFormFields, key: string, value: string | boolean): ChannelFormFields {
  return { ...fields, values: { ...fields.values, [valueKey(fields.type, key)]: value } };
}

export function isCleared(fields: ChannelFormFields, key: string): boolean {
  return fields.clear[valueKey(fields.type, key)] === true;
}

export function withCleared(fields: ChannelFormFields, key: string, isClear: boolean): ChannelFormFields {
  return { ...fields, clear: { ...fields.clear, [valueKey(fields.type, key)]: isClear } };
}

function typedValue(spec: ChannelFieldSpec, value: string | boolean): unknown {
  if (spec.kind === "checkbox") return value === true;
  const text = typeof value === "string" ? value.trim() : "";
  if (spec.kind === "number" && /^\d+$/.test(text)) return Number(text);
  return text;
}

/**
 * The request body: `{ name, type, config }`. A new channel leaves empty optional fields out.
 * An edit (`isEdit`) leaves an empty secret out, which keeps the stored one, unless it is
 * marked to clear (null); an empty optional field that is not secret is cleared (null).
 */
export function channelRequestBody(
  fields: ChannelFormFields,
  isEdit: boolean,
): { name: string; type: ChannelType; config: Record<string, unknown> } {
  const config: Record<string, unknown> = {};
  for (const spec of CHANNEL_FIELDS[fields.type]) {
    const raw = fieldValue(fields, spec.key);
    const value = typedValue(spec, raw);
    const isEmpty = value === "";
    const isSecret = isSecretField(fields.type, spec.key);
    if (isEdit && isSecret) {
      if (spec.isOptional && isCleared(fields, spec.key)) config[spec.key] = null;
      else if (!isEmpty) config[spec.key] = value;
      continue;
    }
    if (isEmpty && spec.isOptional) {
      if (isEdit) config[spec.key] = null;
      continue;
    }
    config[spec.key] = value;
  }
  return { name: fields.name.trim(), type: fields.type, config };
}

/**
 * The stored secrets that saving this edit drops, by key: where the channel sends changed and
 * they are left empty (the store drops them then, lib/notify/channels.ts), so the form asks for them again.
 */
export function secretsDroppedOnSave(channel: ChannelJson, fields: ChannelFormFields): string[] {
  const sent = channelRequestBody(fields, true).config;
  const before: Record<string, unknown> = { ...channel.config };
  for (const name of channel.secretsSet) before[name] = true;
  return secretsDroppedByMove(channel.type, before, { ...before, ...sent }, sent);
}

/** Where a field error shows: `config.url` beside the URL field (`url`), the rest by their own names. */
export const channelFieldOf: FieldPlacement = ({ field, message }) => ({
  field: field.startsWith("config.") ? field.slice("config.".length) : field,
  message,
});

/** "sent", or "failed after 1 attempt: HTTP 500 Internal Server Error". */
export function describeDelivery(result: {
  status: DeliveryResult["status"] | string;
  attempts: number;
  error: string | null;
}): string {
  if (result.status === "sent") return "sent";
  const attempts = `${result.attempts} attempt${result.attempts === 1 ? "" : "s"}`;
  return result.error ? `failed after ${attempts}: ${result.error}` : `failed after ${attempts}`;
}

/** Where a channel sends, for the list: its URL (not secret ones) or its mail server and recipients. */
export function describeDestination(channel: ChannelJson): string {
  const config = channel.config;
  if (channel.type === "email")
    return `${String(config.to ?? "")} via ${String(config.host ?? "")}:${String(config.port ?? "")}`;
  if (typeof config.url === "string") return config.url;
  return channel.secretsSet.includes("url") ? "URL set (kept sealed)" : "no URL";
}
