import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../testing/database";
import { runBackup } from "./backup";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NOW = new Date("2026-11-30T05:30:12Z");

async function run(args: string[], env: Record<string, string>) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: "", stderr: "" };
  stdout.on("data", (chunk: Buffer) => (chunks.stdout += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (chunks.stderr += chunk.toString()));
  const code = await runBackup(args, { stdout, stderr }, env, NOW);
  return { code, ...chunks };
}

describe("npm run backup", () => {
  let database: ReturnType<typeof createTestDatabase>;
  let env: Record<string, string>;

  // Migrating a database takes seconds on a busy two-core machine.
  beforeAll(() => {
    database = createTestDatabase();
    env = { WIRESPEED_DATA_DIR: database.dataDir };
  }, 60_000);
  afterAll(() => database.remove());

  it("prints the path and size of the copy it made in backups/, and refuses to make it twice", async () => {
    const first = await run([], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const file = path.join(database.dataDir, "backups", "wirespeed-20261130T053012Z.db");
    const [printedPath, sizeLine] = first.stdout.split("\n");
    expect(printedPath).toBe(file);
    expect(sizeLine).toMatch(
      new RegExp(`^\\d+\\.\\d (KiB|MiB) \\(${fs.statSync(file).size} bytes\\), integrity_check ok$`),
    );
    const copy = new Database(file, { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    copy.close();

    const again = await run([], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `backup: ${file} already exists: a backup never overwrites a file. Give another destination.\n`,
    );
  });

  it("reminds that the copy needs the key, and copies the key file only with --with-key", async () => {
    const keyFile = path.join(database.dataDir, "secret.key");
    fs.writeFileSync(keyFile, "a2V5LWZpbGUtY29udGVudHMtZm9yLXRoZS10ZXN0LTAxMjM0NTY3\n", { mode: 0o600 });
    try {
      const plain = await run([path.join(database.dataDir, "plain.db")], env);
      expect(plain.code).toBe(0);
      expect(plain.stdout).toContain(
        `encrypted with the key file ${keyFile}: keep a copy of it apart from the backups (or run again with --with-key)`,
      );
      expect(fs.existsSync(path.join(database.dataDir, "plain.secret.key"))).toBe(false);

      const keyed = await run(["--with-key", path.join(database.dataDir, "keyed.db")], env);
      expect(keyed.code).toBe(0);
      const copied = path.join(database.dataDir, "keyed.secret.key");
      expect(keyed.stdout).toContain(`key file copied to ${copied} (mode 0600)`);
      expect(fs.readFileSync(copied, "utf8")).toBe(fs.readFileSync(keyFile, "utf8"));
      // the key itself is never printed
      expect(keyed.stdout).not.toContain("a2V5LWZpbGUt");
    } finally {
      fs.rmSync(keyFile);
    }
  });

  it("names WIRESPEED_SECRET without printing it", async () => {
    const secret = "correct-horse-battery-staple-0123456789";
    const result = await run(["--with-key", path.join(database.dataDir, "by-variable.db")], {
      ...env,
      WIRESPEED_SECRET: secret,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("no key file beside the database to copy");
    expect(result.stdout).toContain("encrypted with WIRESPEED_SECRET: keep that value");
    expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it("explains its usage and its errors", async () => {
    const unknown = await run(["--overwrite"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('backup: unexpected argument "--overwrite"');
    expect(unknown.stderr).toContain("usage: npm run backup -- [DESTINATION] [--with-key]");
    expect((await run(["a.db", "b.db"], env)).code).toBe(2);
    expect((await run(["--help"], env)).stdout).toContain("--with-key");

    const missing = await run([], { WIRESPEED_DATA_DIR: path.join(database.dataDir, "elsewhere") });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `There is no database at ${path.join(database.dataDir, "elsewhere", "wirespeed.db")}`,
    );
  });

  it("works as `npm run --silent backup -- DESTINATION` with DATABASE_URL", async () => {
    const destination = path.join(database.dataDir, "from-npm.db");
    const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "backup", "--", destination], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url, WIRESPEED_SECRET: "" },
      encoding: "utf8",
    });
    expect(stdout.split("\n")[0]).toBe(destination);
    expect(fs.existsSync(destination)).toBe(true);
  }, 60_000);
});

describe("npm run backup on Postgres", () => {
  it("says to use pg_dump, keeping the key with the dump, and changes nothing", async () => {
    const result = await run([], { DATABASE_URL: "postgres://ws:secret-password@db.lab:5433/wirespeed" });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(
      /^backup: DATABASE_URL names a Postgres server \(db\.lab:5433, database wirespeed\): back it up with pg_dump/,
    );
    expect(result.stderr).toContain("keep WIRESPEED_SECRET");
    expect(result.stderr).not.toContain("secret-password");
  });
});
