import "server-only";
import { recordAudit } from "@/lib/auth/audit";
import { db } from "@/lib/db";
import type { Role } from "@/lib/auth/roles";
import { AppError, fieldErrorsFromZod, invalidInput, parseInput } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { isRecordMissing, isUniqueViolation } from "@/lib/db-errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { openSecret, sealSecret } from "@/lib/inventory/secrets";
import { SecretOpenError } from "@/lib/secrets/envelope";
import {
  CHANNEL_CONFIG_SCHEMAS,
  ChannelInputSchema,
  DESTINATION_FIELDS,
  ChannelPatchSchema,
  type ChannelJson,
  type ChannelSettings,
  type ChannelType,
  SECRET_FIELDS,
  channelAsSeenBy,
  isChannelType,
  publicConfigOf,
  secretsDroppedByMove,
} from "@/lib/notify/contract";

// The notification channels in the database. The settings that are not secret live in
// `config` (JSON); the type's secret fields (SECRET_FIELDS: tokens, the HMAC secret, the SMTP
// password, a Discord or Slack webhook URL) are sealed together in `secret` with the envelope
// of host credentials, and leave this module only towards a sender (`loadChannelForDelivery`).

// Never `secret`: the sealed bytes stay in SQLite unless a sender needs them.
const channelSelect = { id: true, name: true, type: true, config: true, createdAt: true, updatedAt: true } as const;
type ChannelRow = Prisma.NotificationChannelGetPayload<{ select: typeof channelSelect }>;

function channelNotFound(id: number): AppError {
  return new AppError("not-found", `Notification channel ${id} does not exist.`);
}

function nameTaken(name: string): AppError {
  return new AppError("conflict", `name: a notification channel named "${name}" already exists`, {
    fields: [{ field: "name", message: "is already used by another notification channel" }],
  });
}

function objectOf(value: Prisma.JsonValue): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The config split into what is stored in clear and what is sealed. */
function splitSecrets(
  type: ChannelType,
  config: Record<string, unknown>,
): { plain: Record<string, unknown>; secrets: Record<string, unknown> } {
  const secretNames = new Set(SECRET_FIELDS[type]);
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    (secretNames.has(key) ? secrets : plain)[key] = value;
  }
  return { plain, secrets };
}

function sealed(secrets: Record<string, unknown>): Uint8Array<ArrayBuffer> | null {
  return Object.keys(secrets).length === 0 ? null : sealSecret(secrets);
}

/** The stored secret fields; a secret no key opens reads as none (the channel then asks for them again). */
function openedSecrets(bytes: Uint8Array | null): Record<string, unknown> {
  if (!bytes) return {};
  try {
    return openSecret(bytes) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function secretsOf(ids: number[]): Promise<Map<number, Record<string, unknown>>> {
  if (ids.length === 0) return new Map();
  const rows = await db.notificationChannel.findMany({
    where: { id: { in: ids }, secret: { not: null } },
    select: { id: true, secret: true },
  });
  return new Map(rows.map((row) => [row.id, openedSecrets(row.secret)]));
}

function toChannelJson(row: ChannelRow, secrets: Record<string, unknown>): ChannelJson {
  // A type this version does not know (a newer database) is shown as it is stored, with nothing hidden but its secret bytes.
  const type = row.type as ChannelType;
  const config = isChannelType(row.type) ? publicConfigOf(type, objectOf(row.config)) : objectOf(row.config);
  const secretsSet = isChannelType(row.type) ? SECRET_FIELDS[type].filter((name) => secrets[name] !== undefined) : [];
  return {
    id: row.id,
    name: row.name,
    type,
    config,
    secretsSet,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Who reads a channel: its URL is shown whole to operators and admins only (`channelAsSeenBy`). */
export type ChannelReader = { role: Role };

// A caller that does not say who reads gets the least: what a viewer sees.
const ANY_READER: ChannelReader = { role: "viewer" };

/** Every channel, by name, without its secrets, as `reader` may see it. */
export async function listChannels(reader: ChannelReader = ANY_READER): Promise<ChannelJson[]> {
  const rows = await db.notificationChannel.findMany({
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: channelSelect,
  });
  const secrets = await secretsOf(rows.map((row) => row.id));
  return rows.map((row) => channelAsSeenBy(toChannelJson(row, secrets.get(row.id) ?? {}), reader.role));
}

/** One channel without its secrets, as `reader` may see it; null when there is none with that id. */
export async function getChannel(id: number, reader: ChannelReader = ANY_READER): Promise<ChannelJson | null> {
  const channelId = parseInput(IdSchema, id, "id");
  const row = await db.notificationChannel.findUnique({ where: { id: channelId }, select: channelSelect });
  if (!row) return null;
  const secrets = await secretsOf([row.id]);
  return channelAsSeenBy(toChannelJson(row, secrets.get(row.id) ?? {}), reader.role);
}

// The answer of a change: only those who may change a channel make one, and they see it whole.
async function requireChannel(id: number): Promise<ChannelJson> {
  const channel = await getChannel(id, { role: "operator" });
  if (!channel) throw channelNotFound(id);
  return channel;
}

/** Validates `{ name, type, config }` and records the channel; its secret fields are sealed before they are stored. */
export async function createChannel(body: unknown): Promise<ChannelJson> {
  const input = parseInput(ChannelInputSchema, body);
  const taken = await db.notificationChannel.findUnique({ where: { name: input.name }, select: { id: true } });
  if (taken) throw nameTaken(input.name);
  const { plain, secrets } = splitSecrets(input.type, input.config);
  let id: number;
  try {
    ({ id } = await db.notificationChannel.create({
      data: { name: input.name, type: input.type, config: plain as Prisma.InputJsonObject, secret: sealed(secrets) },
      select: { id: true },
    }));
  } catch (error) {
    // Another request took the name between the check and the insert.
    if (isUniqueViolation(error)) throw nameTaken(input.name);
    throw error;
  }
  await recordAudit("channel.create", "channel", id, `${input.name} (${input.type})`);
  return requireChannel(id);
}

/**
 * Changes a channel's name and config. In `config`, a field left out keeps its stored value
 * (secrets included: they are never sent back, so a form leaves them out) and `null` clears
 * it; the merged config must pass the type's schema. The type cannot change. When a field that
 * says where the channel sends changes (DESTINATION_FIELDS), the stored secrets are dropped
 * unless the change sends them again, whoever asks: a token must not follow the channel to a
 * new address. A required one (Gotify's token) is then a 400 naming it.
 */
export async function updateChannel(id: number, body: unknown): Promise<ChannelJson> {
  const channelId = parseInput(IdSchema, id, "id");
  const patch = parseInput(ChannelPatchSchema, body);
  const existing = await db.notificationChannel.findUnique({
    where: { id: channelId },
    select: { ...channelSelect, secret: true },
  });
  if (!existing) throw channelNotFound(channelId);
  if (!isChannelType(existing.type)) {
    throw new AppError(
      "invalid",
      `Notification channel ${channelId} has the type "${existing.type}", which this version cannot change: delete it and create it again.`,
    );
  }
  const type: ChannelType = existing.type;
  if (patch.type !== undefined && patch.type !== type) {
    throw invalidInput([
      { field: "type", message: `cannot change (this channel is ${type}): create a new channel of the other type` },
    ]);
  }
  if (patch.name !== undefined && patch.name !== existing.name) {
    const taken = await db.notificationChannel.findUnique({ where: { name: patch.name }, select: { id: true } });
    if (taken && taken.id !== channelId) throw nameTaken(patch.name);
  }
  const changed: string[] = patch.name !== undefined && patch.name !== existing.name ? ["name"] : [];
  let data: Prisma.NotificationChannelUpdateInput = { name: patch.name };
  if (patch.config !== undefined) {
    const schema = CHANNEL_CONFIG_SCHEMAS[type];
    const stored: Record<string, unknown> = { ...objectOf(existing.config), ...openedSecrets(existing.secret) };
    const merged: Record<string, unknown> = { ...stored };
    for (const [key, value] of Object.entries(patch.config)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
      // Names only: the audit log never holds a value, secret or not.
      changed.push(`config.${key}`);
    }
    // Compared as the schema outputs them, so that a default sent or left out is no change.
    const before = schema.safeParse(stored);
    const after = schema.safeParse(merged);
    const dropped = secretsDroppedByMove(
      type,
      before.success ? (before.data as Record<string, unknown>) : stored,
      after.success ? (after.data as Record<string, unknown>) : merged,
      patch.config,
    );
    for (const name of dropped) {
      delete merged[name];
      changed.push(`config.${name} dropped`);
    }
    const parsed = schema.safeParse(merged);
    if (!parsed.success) {
      const fields = fieldErrorsFromZod(parsed.error, "config");
      const droppedFields = new Set(dropped.map((name) => `config.${name}`));
      // A destination that is itself refused is what to fix first; its secrets are not the matter yet.
      const isDestinationRefused = fields.some((entry) =>
        DESTINATION_FIELDS[type].some((name) => entry.field === `config.${name}` && !droppedFields.has(entry.field)),
      );
      throw invalidInput(
        fields.flatMap((entry) => {
          if (!droppedFields.has(entry.field)) return [entry];
          if (isDestinationRefused) return [];
          return [
            {
              field: entry.field,
              message:
                "is required again: the channel's destination changed, and a stored secret is never sent to a new destination",
            },
          ];
        }),
      );
    }
    const config = parsed.data as Record<string, unknown>;
    const { plain, secrets } = splitSecrets(type, config);
    data = { ...data, config: plain as Prisma.InputJsonObject, secret: sealed(secrets) };
  }
  try {
    await db.notificationChannel.update({ where: { id: channelId }, data, select: { id: true } });
  } catch (error) {
    if (isUniqueViolation(error) && patch.name !== undefined) throw nameTaken(patch.name);
    if (isRecordMissing(error)) throw channelNotFound(channelId);
    throw error;
  }
  if (changed.length > 0)
    await recordAudit("channel.update", "channel", channelId, `${existing.name}: ${changed.join(", ")}`);
  return requireChannel(channelId);
}

/** Deletes a channel; the rules lose it, past notifications keep its name. */
export async function deleteChannel(id: number): Promise<void> {
  const channelId = parseInput(IdSchema, id, "id");
  let deleted: { name: string; type: string };
  try {
    deleted = await db.notificationChannel.delete({ where: { id: channelId }, select: { name: true, type: true } });
  } catch (error) {
    if (isRecordMissing(error)) throw channelNotFound(channelId);
    throw error;
  }
  await recordAudit("channel.delete", "channel", channelId, `${deleted.name} (${deleted.type})`);
}

/** Why a stored channel cannot be sent to; the message holds no secret. */
export class ChannelUnusableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChannelUnusableError";
  }
}

export type ChannelForDelivery = { id: number; name: string } & ChannelSettings;

/**
 * A channel with its secrets opened, for a sender only; null when it does not exist. Throws
 * ChannelUnusableError when its secrets cannot be opened or its settings no longer pass the
 * type's schema.
 */
export async function loadChannelForDelivery(id: number): Promise<ChannelForDelivery | null> {
  const row = await db.notificationChannel.findUnique({
    where: { id },
    select: { id: true, name: true, type: true, config: true, secret: true },
  });
  if (!row) return null;
  if (!isChannelType(row.type))
    throw new ChannelUnusableError(`this version of Wirespeed cannot send to a "${row.type}" channel`);
  let secrets: Record<string, unknown> = {};
  if (row.secret) {
    try {
      secrets = openSecret(row.secret) as Record<string, unknown>;
    } catch (error) {
      const why =
        error instanceof SecretOpenError && error.kind === "key-mismatch"
          ? "they were sealed with another key than this server's"
          : "they are damaged";
      throw new ChannelUnusableError(`the channel's stored secrets cannot be opened (${why}): set them again`);
    }
  }
  const parsed = CHANNEL_CONFIG_SCHEMAS[row.type].safeParse({ ...objectOf(row.config), ...secrets });
  if (!parsed.success)
    throw new ChannelUnusableError("the channel's stored settings are not valid any more: edit the channel");
  return { id: row.id, name: row.name, type: row.type, config: parsed.data } as ChannelForDelivery;
}
