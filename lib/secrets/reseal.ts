// Re-sealing every stored host credential (and notification channel secret) under one key, in
// one transaction: the start-up migration of plain-JSON secrets from older databases and the key
// rotation both use it.
//
// Plain module (no "server-only"): the wirespeed command line uses it with its own client.
import { isPostgresClient } from "../postgres/kind";
import type { PrismaClient } from "../generated/prisma/client";
import {
  type Keyring,
  type SecretKey,
  type SecretOpenFailure,
  SecretOpenError,
  envelopeKind,
  openText,
  sealText,
} from "./envelope";

export type UnreadableSecret = { hostId: number; hostName: string; reason: string };
export type UnreadableChannelSecret = { channelId: number; channelName: string; reason: string };

/** `resealed` counts hosts and channels together. */
export type ResealResult = {
  resealed: number;
  unreadable: UnreadableSecret[];
  unreadableChannels: UnreadableChannelSecret[];
};

// The envelope's own messages speak of a host's credentials.
const CHANNEL_REASONS: Record<SecretOpenFailure, string> = {
  "key-mismatch":
    "its stored secrets were sealed with another key: start with the key they were sealed with, or set them again.",
  tampered: "its stored secrets failed their integrity check: set them again.",
  malformed: "its stored secrets are damaged: set them again.",
};

export type ResealOptions = {
  /** Keys the stored secrets may be sealed with (plain JSON from older databases is read as well). */
  keyring: Keyring;
  /** The key every secret is sealed with afterwards. */
  target: SecretKey;
  /** Only the plain-JSON secrets of older databases (start-up); default: every secret (rotation). */
  isLegacyOnly?: boolean;
  /**
   * `abort` (rotation): a secret no key opens rolls the whole transaction back, nothing changes.
   * `skip` (start-up): it is left as it is and reported.
   */
  onUnreadable: "abort" | "skip";
};

/** A secret no known key opens, during a re-seal that must change all or nothing. */
export class ResealAbortedError extends Error {
  constructor(readonly unreadable: UnreadableSecret | UnreadableChannelSecret) {
    const owner =
      "hostId" in unreadable
        ? `host "${unreadable.hostName}" (id ${unreadable.hostId})`
        : `notification channel "${unreadable.channelName}" (id ${unreadable.channelId})`;
    super(`${owner}: ${unreadable.reason} Nothing was changed.`);
    this.name = "ResealAbortedError";
  }
}

export async function resealHostSecrets(client: PrismaClient, options: ResealOptions): Promise<ResealResult> {
  return client.$transaction(
    async (tx) => {
      const rows = await tx.host.findMany({
        where: { secret: { not: null } },
        select: { id: true, name: true, secret: true },
        orderBy: { id: "asc" },
      });
      const result: ResealResult = { resealed: 0, unreadable: [], unreadableChannels: [] };
      for (const row of rows) {
        const bytes = row.secret!;
        if (options.isLegacyOnly && envelopeKind(bytes) !== "legacy-json") continue;
        let plaintext: string;
        try {
          plaintext = openText(bytes, options.keyring);
        } catch (error) {
          if (!(error instanceof SecretOpenError)) throw error;
          const unreadable = { hostId: row.id, hostName: row.name, reason: error.message };
          if (options.onUnreadable === "abort") throw new ResealAbortedError(unreadable);
          result.unreadable.push(unreadable);
          continue;
        }
        await tx.host.update({ where: { id: row.id }, data: { secret: sealText(plaintext, options.target) } });
        result.resealed += 1;
      }
      // Channel secrets were sealed from the start: only a rotation has anything to do here.
      if (options.isLegacyOnly) return result;
      const channels = await tx.notificationChannel.findMany({
        where: { secret: { not: null } },
        select: { id: true, name: true, secret: true },
        orderBy: { id: "asc" },
      });
      for (const row of channels) {
        let plaintext: string;
        try {
          plaintext = openText(row.secret!, options.keyring);
        } catch (error) {
          if (!(error instanceof SecretOpenError)) throw error;
          const unreadable = { channelId: row.id, channelName: row.name, reason: CHANNEL_REASONS[error.kind] };
          if (options.onUnreadable === "abort") throw new ResealAbortedError(unreadable);
          result.unreadableChannels.push(unreadable);
          continue;
        }
        await tx.notificationChannel.update({
          where: { id: row.id },
          data: { secret: sealText(plaintext, options.target) },
        });
        result.resealed += 1;
      }
      return result;
    },
    // A lab has tens of hosts, not thousands; the default 5 s is still too tight for a slow disk.
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/**
 * Rewrites the database file so that the pages the old secrets lived in (plain JSON, or
 * sealed under a retired key) are not left behind as free pages. On Postgres the tables that hold
 * secrets are rewritten instead (VACUUM FULL copies only their live rows to new files): a plain
 * VACUUM would leave the old row versions' bytes in pages that are only marked free.
 */
export async function scrubFreedPages(client: PrismaClient): Promise<void> {
  if (isPostgresClient(client)) {
    await client.$executeRawUnsafe(`VACUUM FULL "Host", "NotificationChannel"`);
    return;
  }
  await client.$executeRawUnsafe("VACUUM");
  // In WAL mode the rewritten pages go to the -wal file first: fold them in and empty it.
  await client.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
}
