import fs from "node:fs";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaClient } from "../lib/generated/prisma/client";
import { type SecretKey, openText, sealText } from "../lib/secrets/envelope";
import { loadKeys, readKeyFile } from "../lib/secrets/keys";
import { createTestDatabase } from "../testing/database";
import { runWirespeed } from "./wirespeed";

// `wirespeed rotate-secret` as a user runs it: it reads the data folder from the
// environment, prints a count and never a secret.

let database: ReturnType<typeof createTestDatabase>;
let client: PrismaClient;
const SECRET_TEXT = '{"password":"hunter2 in the rotation test"}';

beforeAll(() => {
  database = createTestDatabase();
  client = new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: database.url }) });
}, 60_000);
afterAll(async () => {
  await client?.$disconnect();
  database?.remove();
});

async function run(args: string[], env: Record<string, string | undefined>) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: "", stderr: "" };
  stdout.on("data", (chunk: Buffer) => (chunks.stdout += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (chunks.stderr += chunk.toString()));
  try {
    const code = await runWirespeed(args, { stdin: Readable.from([""]), stdout, stderr });
    return { code, ...chunks };
  } finally {
    process.env = saved;
  }
}

describe("wirespeed rotate-secret", () => {
  it("re-encrypts every host secret under a new key file and prints how many, never a secret", async () => {
    const env = {
      DATABASE_URL: database.url,
      WIRESPEED_DATA_DIR: undefined,
      WIRESPEED_SECRET: undefined,
      WIRESPEED_SECRET_OLD: undefined,
    };
    const before: SecretKey = loadKeys(env).keyring.current;
    for (const name of ["a", "b"])
      await client.host.create({ data: { name, address: "198.18.0.1", secret: sealText(SECRET_TEXT, before) } });

    const { code, stdout, stderr } = await run(["rotate-secret"], env);

    expect(stderr).toBe("");
    expect(code).toBe(0);
    const keyFile = path.join(database.dataDir, "secret.key");
    const after = readKeyFile(keyFile);
    expect(stdout).toBe(
      `re-encrypted 2 secret(s) (host credentials and channel tokens) under the new key (key id ${after.id})\nThe new key is in ${keyFile}; back it up with the database.\n`,
    );
    expect(stdout).not.toContain(fs.readFileSync(keyFile, "utf8").trim());
    for (const row of await client.host.findMany({ select: { secret: true } })) {
      expect(openText(row.secret!, { current: after, all: [after] })).toBe(SECRET_TEXT);
      expect(() => openText(row.secret!, { current: before, all: [before] })).toThrowError(/sealed with another key/);
    }
  });

  it("exits 1 with the variable's name when WIRESPEED_SECRET is too short", async () => {
    const { code, stdout, stderr } = await run(["rotate-secret"], {
      DATABASE_URL: database.url,
      WIRESPEED_SECRET: "hunter2",
    });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /^wirespeed rotate-secret: WIRESPEED_SECRET is too short: it must be at least 32 characters/,
    );
    expect(stderr).not.toContain("hunter2");
  });

  it("exits 1 when there is no database where the environment says", async () => {
    const { code, stderr } = await run(["rotate-secret"], {
      DATABASE_URL: `file:${database.dataDir}/missing/wirespeed.db`,
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`there is no database at ${database.dataDir}/missing/wirespeed.db`);
  });

  it("takes no arguments", async () => {
    const { code, stderr } = await run(["rotate-secret", "--now"], { DATABASE_URL: database.url });
    expect(code).toBe(2);
    expect(stderr).toContain('rotate-secret takes no arguments (got "--now")');
    expect(stderr).toContain("wirespeed rotate-secret\n");
  });
});
