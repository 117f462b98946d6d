import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PrismaClient } from "@/lib/generated/prisma/client";
import {
  type Keyring,
  type SecretKey,
  SecretOpenError,
  envelopeKeyId,
  generateSecretKey,
  openText,
  sealText,
  secretKeyFromPassphrase,
} from "@/lib/secrets/envelope";
import { loadKeys, readKeyFile, resolveKeyFilePaths, writeKeyFileExclusive } from "@/lib/secrets/keys";
import { ResealAbortedError } from "@/lib/secrets/reseal";
import { rotateSecretKey } from "@/lib/secrets/rotate";
import { createTestDatabase } from "@/testing/database";

let database: ReturnType<typeof createTestDatabase>;
let client: PrismaClient;
beforeEach(() => {
  database = createTestDatabase();
  client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: database.url }) });
}, 60_000);
afterEach(async () => {
  await client.$disconnect();
  database.remove();
});

const CREDENTIALS = [
  {
    privateKey:
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA-one\n-----END OPENSSH PRIVATE KEY-----\n",
  },
  {
    privateKey:
      "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA-two\n-----END OPENSSH PRIVATE KEY-----\n",
    passphrase: "pass two",
  },
  { password: "p@ss w0rd three" },
];

function ringOf(...keys: SecretKey[]): Keyring {
  return { current: keys[0]!, all: keys };
}

/** Three hosts sealed under `key`, one with the plain JSON of an older version, and a local host without a secret. */
async function seedHosts(key: SecretKey): Promise<void> {
  for (const [index, credential] of CREDENTIALS.entries()) {
    await client.host.create({
      data: { name: `h${index}`, address: `198.18.0.${index + 1}`, secret: sealText(JSON.stringify(credential), key) },
    });
  }
  await client.host.create({
    data: {
      name: "legacy",
      address: "198.18.0.9",
      authMethod: "password",
      secret: new TextEncoder().encode('{"password":"legacy pw"}'),
    },
  });
  await client.host.create({ data: { name: "local", address: "localhost", authMethod: "local" } });
}

async function storedSecrets(): Promise<Array<{ name: string; secret: Uint8Array }>> {
  const rows = await client.host.findMany({
    where: { secret: { not: null } },
    select: { name: true, secret: true },
    orderBy: { id: "asc" },
  });
  return rows.map((row) => ({ name: row.name, secret: row.secret! }));
}

async function expectAllUnder(key: SecretKey, retired: SecretKey[]): Promise<void> {
  const rows = await storedSecrets();
  expect(rows).toHaveLength(4);
  const plain = rows.map((row) => JSON.parse(openText(row.secret, ringOf(key))));
  expect(plain).toEqual([...CREDENTIALS, { password: "legacy pw" }]);
  for (const row of rows) {
    expect(envelopeKeyId(row.secret)).toBe(key.id);
    for (const old of retired) {
      let failure: unknown;
      try {
        openText(row.secret, ringOf(old));
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(SecretOpenError);
      expect((failure as SecretOpenError).kind).toBe("key-mismatch");
    }
  }
}

describe("rotateSecretKey with the key file", () => {
  it("re-encrypts every host secret under a new key file, which replaces the old one", async () => {
    const env = { DATABASE_URL: database.url };
    const paths = resolveKeyFilePaths(env);
    const before = loadKeys(env).keyring.current;
    await seedHosts(before);

    const result = await rotateSecretKey(client, env);

    expect(result.resealed).toBe(4);
    const after = readKeyFile(paths.current);
    expect(after.id).not.toBe(before.id);
    expect(result.keyId).toBe(after.id);
    expect(fs.statSync(paths.current).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(paths.next)).toBe(false);
    expect(fs.existsSync(paths.old)).toBe(false);
    expect(fs.readdirSync(path.dirname(paths.current)).filter((name) => name.startsWith("secret.key"))).toEqual([
      "secret.key",
    ]);
    await expectAllUnder(after, [before]);
    // Nothing sealed under the old key or in clear survives in the file (VACUUM dropped the free pages).
    const file = fs.readFileSync(database.url.slice("file:".length));
    expect(file.includes(Buffer.from(before.id, "hex"))).toBe(false);
    expect(file.includes("legacy pw")).toBe(false);
  });

  it("finishes a rotation interrupted after its transaction committed, with the key it had written", async () => {
    const env = { DATABASE_URL: database.url };
    const paths = resolveKeyFilePaths(env);
    const before = loadKeys(env).keyring.current;
    const next = generateSecretKey();
    // The state a crash between the commit and the rename leaves: secrets under the new key, still in secret.key.new.
    writeKeyFileExclusive(paths.next, next);
    fs.linkSync(paths.current, paths.old);
    await seedHosts(next);
    // The app started in that state still opens every secret.
    const app = loadKeys(env);
    expect(app.source).toMatchObject({ kind: "file", hasInterruptedRotation: true });
    for (const row of await storedSecrets()) expect(() => openText(row.secret, app.keyring)).not.toThrow();

    const result = await rotateSecretKey(client, env);

    expect(result.resealed).toBe(4);
    expect(readKeyFile(paths.current).id).toBe(next.id);
    expect(fs.existsSync(paths.next)).toBe(false);
    expect(fs.existsSync(paths.old)).toBe(false);
    await expectAllUnder(next, [before]);
  });

  it("changes nothing when a secret opens with none of the keys, and names that host", async () => {
    const env = { DATABASE_URL: database.url };
    const paths = resolveKeyFilePaths(env);
    const before = loadKeys(env).keyring.current;
    await seedHosts(before);
    await client.host.create({
      data: { name: "lost", address: "198.18.0.99", secret: sealText('{"password":"x"}', generateSecretKey()) },
    });
    const snapshot = await storedSecrets();

    await expect(rotateSecretKey(client, env)).rejects.toThrowError(ResealAbortedError);
    await expect(rotateSecretKey(client, env)).rejects.toThrowError(
      /^host "lost" \(id \d+\): The stored host secret cannot be read: it was sealed with another key.*Nothing was changed\.$/,
    );

    expect(await storedSecrets()).toEqual(snapshot);
    expect(readKeyFile(paths.current).id).toBe(before.id);
    expect(fs.existsSync(paths.next)).toBe(false);
    expect(fs.existsSync(paths.old)).toBe(false);
  });
});

describe("rotateSecretKey and notification channels", () => {
  const TOKEN = { token: "tk_channel-token-under-rotation" };

  it("re-seals a channel's secrets with the hosts', in the same count", async () => {
    const env = { DATABASE_URL: database.url };
    const before = loadKeys(env).keyring.current;
    await seedHosts(before);
    const channel = await client.notificationChannel.create({
      data: {
        name: "ntfy",
        type: "ntfy",
        config: { url: "http://127.0.0.1:1/t" },
        secret: sealText(JSON.stringify(TOKEN), before),
      },
    });

    const result = await rotateSecretKey(client, env);

    expect(result.resealed).toBe(5);
    const after = readKeyFile(resolveKeyFilePaths(env).current);
    const { secret } = await client.notificationChannel.findUniqueOrThrow({ where: { id: channel.id } });
    expect(envelopeKeyId(secret!)).toBe(after.id);
    expect(JSON.parse(openText(secret!, ringOf(after)))).toEqual(TOKEN);
    expect(() => openText(secret!, ringOf(before))).toThrowError(SecretOpenError);
  });

  it("changes nothing when a channel's secrets open with none of the keys, and names that channel", async () => {
    const env = { DATABASE_URL: database.url };
    const before = loadKeys(env).keyring.current;
    await seedHosts(before);
    await client.notificationChannel.create({
      data: {
        name: "lost gotify",
        type: "gotify",
        config: { url: "http://127.0.0.1:1" },
        secret: sealText(JSON.stringify(TOKEN), generateSecretKey()),
      },
    });
    const snapshot = await storedSecrets();

    await expect(rotateSecretKey(client, env)).rejects.toThrowError(
      /^notification channel "lost gotify" \(id \d+\): its stored secrets were sealed with another key.*Nothing was changed\.$/,
    );

    expect(await storedSecrets()).toEqual(snapshot);
    expect(readKeyFile(resolveKeyFilePaths(env).current).id).toBe(before.id);
  });
});

describe("rotateSecretKey with WIRESPEED_SECRET", () => {
  const oldValue = "the old value of WIRESPEED_SECRET, long enough";
  const newValue = "the new value of WIRESPEED_SECRET, long enough";

  it("re-encrypts from WIRESPEED_SECRET_OLD to WIRESPEED_SECRET and writes no key file", async () => {
    const old = secretKeyFromPassphrase(oldValue);
    await seedHosts(old);
    const result = await rotateSecretKey(client, {
      DATABASE_URL: database.url,
      WIRESPEED_SECRET: newValue,
      WIRESPEED_SECRET_OLD: oldValue,
    });
    expect(result.resealed).toBe(4);
    const target = secretKeyFromPassphrase(newValue);
    expect(result.keyId).toBe(target.id);
    await expectAllUnder(target, [old]);
    expect(fs.existsSync(resolveKeyFilePaths({ DATABASE_URL: database.url }).current)).toBe(false);
  });

  it("moves secrets sealed by the key file to WIRESPEED_SECRET", async () => {
    const fileKey = loadKeys({ DATABASE_URL: database.url }).keyring.current;
    await seedHosts(fileKey);
    const result = await rotateSecretKey(client, { DATABASE_URL: database.url, WIRESPEED_SECRET: newValue });
    expect(result.resealed).toBe(4);
    expect(result.notes.join("\n")).toMatch(/key file is no longer used/);
    await expectAllUnder(secretKeyFromPassphrase(newValue), [fileKey]);
  });

  it("refuses without an old value, or with the same one, naming the variables", async () => {
    await expect(
      rotateSecretKey(client, { DATABASE_URL: database.url, WIRESPEED_SECRET: newValue }),
    ).rejects.toThrowError(/set WIRESPEED_SECRET_OLD to the value the secrets are sealed with now/);
    await expect(
      rotateSecretKey(client, {
        DATABASE_URL: database.url,
        WIRESPEED_SECRET: newValue,
        WIRESPEED_SECRET_OLD: newValue,
      }),
    ).rejects.toThrowError(/WIRESPEED_SECRET_OLD and WIRESPEED_SECRET are the same/);
  });
});
