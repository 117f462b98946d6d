// Re-sealing every stored host credential under one key, in one transaction: the start-up
// migration of plain-JSON secrets from older databases and the key rotation both use it.
//
// Plain module (no "server-only"): the wirespeed command line uses it with its own client.
import type { PrismaClient } from "../generated/prisma/client";
import { type Keyring, type SecretKey, SecretOpenError, envelopeKind, openText, sealText } from "./envelope";

export type UnreadableSecret = { hostId: number; hostName: string; reason: string };

export type ResealResult = { resealed: number; unreadable: UnreadableSecret[] };

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
  constructor(readonly unreadable: UnreadableSecret) {
    super(`host "${unreadable.hostName}" (id ${unreadable.hostId}): ${unreadable.reason} Nothing was changed.`);
    this.name = "ResealAbortedError";
  }
}

export async function resealHostSecrets(client: PrismaClient, options: ResealOptions): Promise<ResealResult> {
  return client.$transaction(
    async (tx) => {
      const rows = await tx.host.findMany({ where: { secret: { not: null } }, select: { id: true, name: true, secret: true }, orderBy: { id: "asc" } });
      const result: ResealResult = { resealed: 0, unreadable: [] };
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
      return result;
    },
    // A lab has tens of hosts, not thousands; the default 5 s is still too tight for a slow disk.
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/**
 * Rewrites the database file so that the pages the old secrets lived in (plain JSON, or
 * sealed under a retired key) are not left behind as free pages.
 */
export async function scrubFreedPages(client: PrismaClient): Promise<void> {
  await client.$executeRawUnsafe("VACUUM");
  // In WAL mode the rewritten pages go to the -wal file first: fold them in and empty it.
  await client.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
}
