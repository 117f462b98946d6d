import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connectAppDatabase } from "@/testing/database";
import { TEST_POSTGRES_ENV, withDatabase } from "@/testing/postgres/template";
import { hashToken } from "@/lib/auth/secrets";
import { migratePostgres, POSTGRES_MIGRATIONS } from "@/lib/postgres/migrate";

// The Postgres twin of token-upgrade.test.ts: a database from before share tokens were hashed,
// migrated by the project's own runner in two goes (up to the migration that renames the column,
// a share made then, the rest), then the server's start. The share's link opens as it did, and its
// token is no longer stored. Only in the `postgres` project.

const HASHING = "20270110000000_share_token_hash";
const TOKEN = "ekfsKMUYbsST1qGp4I66rSiH3EUYC6c3W8ARNWIF_qA";
const adminUrl = process.env[TEST_POSTGRES_ENV]!;
const name = `share_upgrade_${process.pid}`;
const older = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-share-migrations-"));
let disconnect: (() => Promise<void>) | undefined;

afterAll(async () => {
  await disconnect?.();
  fs.rmSync(older, { recursive: true, force: true });
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.end();
});

describe("share tokens stored before they were hashed, on Postgres", () => {
  it("open their share after the upgrade, and are then kept by their hash only", async () => {
    const { default: pg } = await import("pg");
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}"`);
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const url = withDatabase(adminUrl, name);
    const names = fs.readdirSync(POSTGRES_MIGRATIONS).filter((entry) => entry.startsWith("20"));
    expect(names).toContain(HASHING);
    for (const entry of names.filter((entry) => entry < HASHING)) {
      fs.cpSync(path.join(POSTGRES_MIGRATIONS, entry), path.join(older, entry), { recursive: true });
    }
    await migratePostgres(url, older);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      `INSERT INTO "Share" ("token", "kind", "targetId", "hideAddresses", "createdBy") VALUES ($1, 'link', 1, true, 'admin')`,
      [TOKEN],
    );
    await client.end();
    expect(await migratePostgres(url)).toEqual([HASHING, ...names.filter((entry) => entry > HASHING)]);

    const db = await connectAppDatabase(url);
    disconnect = () => db.$disconnect();
    const { findOpenShare, hashStoredShareTokens } = await import("./store");
    expect(await hashStoredShareTokens()).toBe(1);
    expect(await findOpenShare(TOKEN)).toMatchObject({ kind: "link", targetId: 1, hideAddresses: true });
    const rows = await db.share.findMany();
    expect(rows.map((row) => row.tokenHash)).toEqual([hashToken(TOKEN)]);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    expect(await hashStoredShareTokens()).toBe(0);
  });
});
