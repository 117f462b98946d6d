import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envelopeKeyId, secretKeyFromPassphrase } from "@/lib/secrets/envelope";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { getApp } from "@/lib/running-app";
import { sealText, generateSecretKey } from "@/lib/secrets/envelope";

// The app's view: sealSecret/openSecret with the key from the environment, and the
// start-up step that encrypts the plain-JSON secrets of older databases.

type SecretsModule = typeof import("@/lib/inventory/secrets");
type Db = typeof import("@/lib/db").db;

const SECRET_VALUE = "wirespeed unit tests: a secret of 32+ characters";
let database: TestDatabase;
let secrets: SecretsModule;
let db: Db;

beforeAll(async () => {
  process.env.WIRESPEED_SECRET = SECRET_VALUE;
  delete process.env.WIRESPEED_SECRET_OLD;
  database = await openTestDatabase();
  ({ db } = database);
  secrets = await import("@/lib/inventory/secrets");
}, 60_000);
afterAll(async () => {
  await database?.close();
  delete process.env.WIRESPEED_SECRET;
});

describe("sealSecret / openSecret", () => {
  it("round-trips any characters, sealed under WIRESPEED_SECRET's key", () => {
    const value = {
      privateKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
      passphrase: "$(x) `y` ; 'z' \"w\" \n 名前 \u0000",
    };
    const sealed = secrets.sealSecret(value);
    expect(sealed).toBeInstanceOf(Uint8Array);
    expect(envelopeKeyId(sealed)).toBe(secretKeyFromPassphrase(SECRET_VALUE).id);
    expect(Buffer.from(sealed).includes("AAAA")).toBe(false);
    expect(secrets.openSecret(sealed)).toEqual(value);
  });

  it("reads the plain JSON an older version stored", () => {
    expect(secrets.openSecret(new TextEncoder().encode('{"password":"old"}'))).toEqual({ password: "old" });
  });

  it.each([
    ["not UTF-8", new Uint8Array([0xff, 0xfe, 0x00])],
    ["not JSON", new TextEncoder().encode("{hunter2")],
    ["not an object", new TextEncoder().encode("hunter2")],
  ])("refuses bytes that are %s without quoting them", (_what, bytes) => {
    expect(() => secrets.openSecret(bytes)).toThrowError(/^The stored host secret cannot be read/);
    try {
      secrets.openSecret(bytes);
    } catch (error) {
      expect(String(error)).not.toContain("hunter2");
    }
  });

  it("refuses a sealed secret whose content is not a credential object", async () => {
    const key = secretKeyFromPassphrase(SECRET_VALUE);
    expect(() => secrets.openSecret(sealText('"hunter2"', key))).toThrowError(
      /^The stored host secret cannot be read: it is not a credential object/,
    );
    expect(() => secrets.openSecret(sealText("[1]", key))).toThrowError(/not a credential object/);
  });
});

/**
 * The files of the database (itself, its -wal and -shm) that hold `text` anywhere in their bytes. On
 * Postgres, the files of the hosts' table and of its TOAST table in the cluster's data folder,
 * after a checkpoint has written them out of the shared buffers. (Postgres's write-ahead log is
 * the cluster's, recycled by checkpoints, and not read here.)
 */
async function databaseFilesHold(text: string): Promise<string[]> {
  if (getApp().database === "postgres") {
    await db.$executeRawUnsafe("CHECKPOINT");
    const [setting] = await db.$queryRawUnsafe<Array<{ dir: string }>>(
      `SELECT current_setting('data_directory') AS "dir"`,
    );
    const relations = await db.$queryRawUnsafe<Array<{ file: string | null }>>(
      `SELECT pg_relation_filepath("oid") AS "file" FROM pg_class
       WHERE "oid" IN ('"Host"'::regclass, (SELECT "reltoastrelid" FROM pg_class WHERE "oid" = '"Host"'::regclass))`,
    );
    const files = relations.flatMap(({ file }) => {
      if (file === null) return [];
      // A table past 1 GB goes on in file.1, file.2, …
      const folder = path.join(setting!.dir, path.dirname(file));
      const base = path.basename(file);
      return fs
        .readdirSync(folder)
        .filter((name) => name === base || new RegExp(`^${base}\\.\\d+$`).test(name))
        .map((name) => path.join(path.dirname(file), name));
    });
    expect(files.length, "the hosts' table's files").toBeGreaterThan(0);
    return files.filter((name) => fs.readFileSync(path.join(setting!.dir, name)).includes(text)).sort();
  }
  const names = fs.readdirSync(database.dataDir).filter((name) => name.startsWith("wirespeed.db"));
  return names.filter((name) => fs.readFileSync(`${database.dataDir}/${name}`).includes(text)).sort();
}

describe("prepareHostSecrets", () => {
  it("encrypts the secrets an older version stored in clear, once, and leaves no trace of them in the file", async () => {
    const plain = '{"password":"hunter2 stored in clear by an older version"}';
    const legacy = await db.host.create({
      data: { name: "legacy", address: "198.18.0.7", authMethod: "password", secret: new TextEncoder().encode(plain) },
    });
    const sealed = await db.host.create({
      data: { name: "sealed", address: "198.18.0.8", secret: secrets.sealSecret({ password: "already sealed" }) },
    });
    const sealedBefore = (await db.host.findUniqueOrThrow({ where: { id: sealed.id }, select: { secret: true } }))
      .secret!;
    expect(await databaseFilesHold("hunter2")).not.toEqual([]);

    const first = await secrets.prepareHostSecrets();

    expect(first.migrated).toBe(1);
    expect(first.messages).toContain("encrypted 1 host secret(s) stored in clear by an older version");
    const row = await db.host.findUniqueOrThrow({ where: { id: legacy.id }, select: { secret: true } });
    expect(envelopeKeyId(row.secret!)).toBe(secretKeyFromPassphrase(SECRET_VALUE).id);
    expect(secrets.openSecret(row.secret!)).toEqual({ password: "hunter2 stored in clear by an older version" });
    // the already sealed secret is left as it was
    expect((await db.host.findUniqueOrThrow({ where: { id: sealed.id }, select: { secret: true } })).secret).toEqual(
      sealedBefore,
    );
    expect(await databaseFilesHold("hunter2")).toEqual([]);

    const second = await secrets.prepareHostSecrets();
    expect(second).toEqual({ migrated: 0, messages: [] });
  });

  it("reports secrets sealed under a key this server does not have, without failing", async () => {
    await db.host.create({
      data: { name: "foreign", address: "198.18.0.9", secret: sealText('{"password":"x"}', generateSecretKey()) },
    });
    const result = await secrets.prepareHostSecrets();
    expect(result.migrated).toBe(0);
    expect(result.messages).toEqual([
      expect.stringMatching(
        /^1 host secret\(s\) were sealed with another key than this server's \(key id [0-9a-f]{16}\)/,
      ),
    ]);
  });
});
