import "server-only";
import { db } from "@/lib/db";
import { sealingKeyIds } from "@/lib/inventory/secrets";
import { SHARED_KEY_SETTING } from "@/lib/secrets/shared-key-setting";

// Every instance on one database must open the credentials the others seal: they all need the same
// key (WIRESPEED_SECRET, or the same key file). The database keeps the id of the key in use (a hash
// prefix, never the key: lib/secrets/envelope.ts keyId); an instance started with another key refuses
// to start, saying so, instead of failing at its first run. A rotation (`wirespeed rotate-secret`)
// moves the id on; an instance that holds both keys, the old and the new, moves it on too.

const SETTING = SHARED_KEY_SETTING;

export class SharedKeyMismatchError extends Error {}

/** Records the key id on first use; throws SharedKeyMismatchError when this instance's key is another. */
export async function checkSharedKey(): Promise<void> {
  const { current, all } = sealingKeyIds();
  const row = await db.setting.findUnique({ where: { key: SETTING } });
  if (!row) {
    // Another instance may have written first (two starting at once): its insert wins and this one
    // fails on the unique key (P2002; createMany's skipDuplicates does not exist on SQLite), so that
    // failure is not an error here: read what won.
    await db.setting.createMany({ data: [{ key: SETTING, value: current }] }).catch((error: unknown) => {
      if ((error as { code?: string } | null)?.code !== "P2002") throw error;
    });
    return checkAgainst((await db.setting.findUnique({ where: { key: SETTING } }))!.value, current, all);
  }
  return checkAgainst(row.value, current, all);
}

async function checkAgainst(stored: string, current: string, all: string[]): Promise<void> {
  if (stored === current) return;
  if (all.includes(stored)) {
    await db.setting.update({ where: { key: SETTING }, data: { value: current } });
    return;
  }
  throw new SharedKeyMismatchError(
    `this instance's secret key (id ${current}) is not the key the credentials in this database are sealed with ` +
      `(id ${stored}): start every instance on this database with the same WIRESPEED_SECRET (or a copy of the same key file)`,
  );
}

/** At start (instrumentation.ts): checkSharedKey, and on a mismatch the reason in the log and exit 1. */
export async function startSharedKeyCheck(): Promise<void> {
  try {
    await checkSharedKey();
  } catch (error) {
    if (!(error instanceof SharedKeyMismatchError)) throw error;
    console.error(`[wirespeed] cannot start: ${error.message}`);
    process.exit(1);
  }
}
