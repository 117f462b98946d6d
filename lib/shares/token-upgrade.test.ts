import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { connectAppDatabase } from "@/testing/database";
import { hashToken } from "@/lib/auth/secrets";

// A SQLite database from before share tokens were hashed, upgraded as a server upgrades it: every
// migration up to the one that renames the column, a share made then, the remaining migrations, and
// the server's start. The share's link opens as it did, and its token is no longer stored.

const MIGRATIONS = path.resolve(__dirname, "../../prisma/migrations");
const HASHING = "20270110000000_share_token_hash";
const TOKEN = "H9g1W6uSCvYdEwGFSul2U6hntDJCOFPvdF0f6o-pFOg";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-share-upgrade-"));
const file = path.join(dataDir, "wirespeed.db");
let disconnect: (() => Promise<void>) | undefined;

afterAll(async () => {
  await disconnect?.();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("share tokens stored before they were hashed", () => {
  it("open their share after the upgrade, and are then kept by their hash only", async () => {
    const names = fs
      .readdirSync(MIGRATIONS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(names).toContain(HASHING);
    const sqlite = new Database(file);
    const apply = (name: string) => sqlite.exec(fs.readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8"));
    for (const name of names.filter((name) => name < HASHING)) apply(name);
    sqlite
      .prepare(
        `INSERT INTO "Share" ("token", "kind", "targetId", "hideAddresses", "createdBy") VALUES (?, 'link', 1, 1, 'admin')`,
      )
      .run(TOKEN);
    for (const name of names.filter((name) => name >= HASHING)) apply(name);
    sqlite.close();

    const db = await connectAppDatabase(`file:${file}`);
    disconnect = () => db.$disconnect();
    const { findOpenShare, hashStoredShareTokens } = await import("./store");
    expect(await hashStoredShareTokens()).toBe(1);
    const share = await findOpenShare(TOKEN);
    expect(share).toMatchObject({ kind: "link", targetId: 1, hideAddresses: true, createdBy: "admin" });
    const rows = await db.share.findMany();
    expect(rows.map((row) => row.tokenHash)).toEqual([hashToken(TOKEN)]);
    expect(JSON.stringify(rows)).not.toContain(TOKEN);
    // The next start finds nothing left to hash.
    expect(await hashStoredShareTokens()).toBe(0);
    expect(await findOpenShare(TOKEN)).not.toBeNull();
  });
});
