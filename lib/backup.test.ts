import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupDatabase, backupFileName, keyCopyPath } from "./backup";
import { connectAppDatabase, createTestDatabase } from "@/testing/database";

const BETTER_SQLITE3 = require.resolve("better-sqlite3");

// Another process keeps committing while the backup runs: each transaction adds a ledger row
// and bumps the counter, so a copy that mixed two moments would show them disagreeing.
const WRITER = `
const fs = require("node:fs");
const Database = require(process.env.BETTER_SQLITE3);
const db = new Database(process.env.DATABASE_FILE, { timeout: 30000 });
db.pragma("synchronous = OFF");
const insert = db.prepare("INSERT INTO ledger (n, payload) VALUES (?, randomblob(200))");
const bump = db.prepare("UPDATE counter SET total = total + 1");
const write = db.transaction((n) => { insert.run(n); bump.run(); });
let n = 0;
for (;;) {
  write(++n);
  if (n === 50) process.stdout.write("writing\\n");
  if (n % 20 === 0 && fs.existsSync(process.env.STOP_FILE)) break;
}
db.close();
process.stdout.write("wrote " + n + "\\n");
`;

function startWriter(databaseFile: string, stopFile: string) {
  const child = spawn(process.execPath, ["-e", WRITER], {
    env: { ...process.env, BETTER_SQLITE3, DATABASE_FILE: databaseFile, STOP_FILE: stopFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const events: string[] = [];
  const waiters: (() => void)[] = [];
  lines.on("line", (line) => {
    events.push(line);
    waiters.splice(0).forEach((wake) => wake());
  });
  const waitFor = (prefix: string) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const line = events.find((event) => event.startsWith(prefix));
        if (line) return resolve(line);
        if (child.exitCode !== null) return reject(new Error(`the writer exited (${child.exitCode}): ${stderr}`));
        waiters.push(check);
      };
      child.on("exit", check);
      check();
    });
  return { child, waitFor };
}

describe("backupDatabase", () => {
  let database: ReturnType<typeof createTestDatabase>;
  let databaseFile: string;

  beforeAll(() => {
    database = createTestDatabase();
    databaseFile = database.url.slice("file:".length);
    const db = new Database(databaseFile);
    db.exec(`
      CREATE TABLE ledger (id INTEGER PRIMARY KEY, n INTEGER NOT NULL, payload BLOB);
      CREATE TABLE counter (total INTEGER NOT NULL);
      INSERT INTO counter VALUES (0);
      -- 40 MB, so that the copy takes many steps and the writer gets between them
      CREATE TABLE filler (id INTEGER PRIMARY KEY, data BLOB);
      WITH RECURSIVE seq(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM seq WHERE x < 10000)
        INSERT INTO filler SELECT x, randomblob(4000) FROM seq;
    `);
    db.close();
  });
  afterAll(() => database.remove());

  it("makes a consistent copy while another process keeps writing", async () => {
    const stopFile = path.join(database.dataDir, "stop-writer");
    const writer = startWriter(databaseFile, stopFile);
    try {
      await writer.waitFor("writing");
      const result = await backupDatabase({
        databaseFile,
        destination: path.join(database.dataDir, "during-writes.db"),
      });
      fs.writeFileSync(stopFile, "");
      const written = Number((await writer.waitFor("wrote ")).split(" ")[1]);

      // the writer's commits did land between the copy's steps, and SQLite started over
      expect(result.restarts).toBeGreaterThan(0);
      expect(result.bytes).toBe(fs.statSync(result.file).size);
      expect(result.bytes).toBeGreaterThan(40_000_000);

      const copy = new Database(result.file, { readonly: true, fileMustExist: true });
      try {
        expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
        expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
        const rows = copy.prepare("SELECT count(*) AS rows, max(n) AS last FROM ledger").get() as {
          rows: number;
          last: number;
        };
        const total = (copy.prepare("SELECT total FROM counter").get() as { total: number }).total;
        // one moment: every committed transaction whole, none in part
        expect(rows.rows).toBe(total);
        expect(rows.last).toBe(total);
        expect(total).toBeGreaterThanOrEqual(50);
        expect(total).toBeLessThan(written);
        expect((copy.prepare("SELECT count(*) AS n FROM filler").get() as { n: number }).n).toBe(10_000);
        const migrations = (file: Database.Database) =>
          (file.prepare("SELECT count(*) AS n FROM _prisma_migrations").get() as { n: number }).n;
        const live = new Database(databaseFile, { readonly: true });
        expect(migrations(copy)).toBe(migrations(live));
        live.close();
      } finally {
        copy.close();
      }
      expect((fs.statSync(result.file).mode & 0o777).toString(8)).toBe("600");
      // no temporary file left beside it
      expect(fs.readdirSync(database.dataDir).filter((name) => name.includes("partial"))).toEqual([]);
    } finally {
      fs.writeFileSync(stopFile, "");
      if (writer.child.exitCode === null) await new Promise((resolve) => writer.child.on("exit", resolve));
      fs.rmSync(stopFile, { force: true });
    }
  }, 120_000);

  it("never overwrites a file, and leaves nothing behind when it refuses", async () => {
    const destination = path.join(database.dataDir, "taken.db");
    fs.writeFileSync(destination, "an older backup");
    const before = fs.readdirSync(database.dataDir).sort();
    await expect(backupDatabase({ databaseFile, destination })).rejects.toThrow(
      `${destination} already exists: a backup never overwrites a file`,
    );
    expect(fs.readFileSync(destination, "utf8")).toBe("an older backup");
    expect(fs.readdirSync(database.dataDir).sort()).toEqual(before);
  });

  it("refuses when a key file's copy would overwrite one, before copying anything", async () => {
    const folder = fs.mkdtempSync(path.join(database.dataDir, "keys-"));
    const keyFile = path.join(database.dataDir, "secret.key");
    fs.writeFileSync(keyFile, "a key\n", { mode: 0o600 });
    try {
      const destination = path.join(folder, "with-key.db");
      fs.writeFileSync(keyCopyPath(destination, "secret.key"), "another key\n");
      await expect(backupDatabase({ databaseFile, destination, withKey: true })).rejects.toThrow(
        "with-key.secret.key already exists",
      );
      expect(fs.existsSync(destination)).toBe(false);
    } finally {
      fs.rmSync(keyFile);
    }
  });

  it("names the copy by the UTC time, in backups/ beside the database, or in a folder given", async () => {
    const now = new Date("2026-11-30T05:30:12.345Z");
    expect(backupFileName(now)).toBe("wirespeed-20261130T053012Z.db");
    const byDefault = await backupDatabase({ databaseFile, now });
    expect(byDefault.file).toBe(path.join(database.dataDir, "backups", "wirespeed-20261130T053012Z.db"));
    expect((fs.statSync(path.dirname(byDefault.file)).mode & 0o777).toString(8)).toBe("700");
    // the same second again: refused, not overwritten
    await expect(backupDatabase({ databaseFile, now })).rejects.toThrow("already exists");

    const folder = fs.mkdtempSync(path.join(database.dataDir, "into-"));
    const intoFolder = await backupDatabase({ databaseFile, destination: folder, now });
    expect(intoFolder.file).toBe(path.join(folder, "wirespeed-20261130T053012Z.db"));
    // a trailing slash means a folder, even one that is not there: never a file named like the folder
    await expect(backupDatabase({ databaseFile, destination: `${folder}/missing/` })).rejects.toThrow(
      `The folder ${folder}/missing does not exist`,
    );
    expect(fs.existsSync(path.join(folder, "missing"))).toBe(false);
    await expect(
      backupDatabase({ databaseFile, destination: path.join(folder, "no", "such", "x.db") }),
    ).rejects.toThrow(`The folder ${path.join(folder, "no", "such")} does not exist`);
  });

  it("copies the key file only when asked, as private as the original", async () => {
    const keyFile = path.join(database.dataDir, "secret.key");
    fs.writeFileSync(keyFile, "c2VjcmV0LWtleS1ieXRlcy1mb3ItdGhlLXRlc3QtMDEyMzQ1\n", { mode: 0o600 });
    try {
      const folder = fs.mkdtempSync(path.join(database.dataDir, "key-"));
      const without = await backupDatabase({ databaseFile, destination: path.join(folder, "plain.db") });
      expect(without.keyFilesFound).toEqual([keyFile]);
      expect(without.keyFilesCopied).toEqual([]);
      expect(fs.readdirSync(folder)).toEqual(["plain.db"]);

      const withKey = await backupDatabase({ databaseFile, destination: path.join(folder, "keyed.db"), withKey: true });
      expect(withKey.keyFilesCopied).toEqual([path.join(folder, "keyed.secret.key")]);
      expect(fs.readFileSync(withKey.keyFilesCopied[0]!, "utf8")).toBe(fs.readFileSync(keyFile, "utf8"));
      expect((fs.statSync(withKey.keyFilesCopied[0]!).mode & 0o777).toString(8)).toBe("600");
    } finally {
      fs.rmSync(keyFile);
    }
  });

  it("says where it looked when there is no database", async () => {
    const missing = path.join(database.dataDir, "nothing-here.db");
    await expect(backupDatabase({ databaseFile: missing })).rejects.toThrow(`There is no database at ${missing}`);
  });
});

describe("backupDatabase of a database in WAL mode", () => {
  it("copies what is still only in the -wal file into one self-contained file, which restores", async () => {
    const database = createTestDatabase();
    const restored = createTestDatabase();
    const databaseFile = database.url.slice("file:".length);
    const live = new Database(databaseFile);
    try {
      expect(live.pragma("journal_mode", { simple: true })).toBe("wal");
      // no checkpoint while this connection is open: the rows live in the -wal file alone
      live.pragma("wal_autocheckpoint = 0");
      live.exec("CREATE TABLE marker (n INTEGER NOT NULL, text TEXT NOT NULL)");
      const insert = live.prepare("INSERT INTO marker VALUES (?, ?)");
      live.transaction(() => {
        for (let n = 1; n <= 1000; n += 1) insert.run(n, `only in the wal ${n}`);
      })();
      expect(fs.readFileSync(`${databaseFile}-wal`).includes("only in the wal 1000")).toBe(true);
      expect(fs.readFileSync(databaseFile).includes("only in the wal")).toBe(false);

      const result = await backupDatabase({ databaseFile, destination: path.join(database.dataDir, "from-wal.db") });
      // one file: nothing beside it that it needs
      expect(fs.readdirSync(database.dataDir).filter((name) => name.startsWith("from-wal"))).toEqual(["from-wal.db"]);
      expect(fs.readFileSync(result.file).includes("only in the wal 1000")).toBe(true);
      const copy = new Database(result.file, { readonly: true, fileMustExist: true });
      try {
        expect(copy.pragma("journal_mode", { simple: true })).toBe("delete");
        expect(
          copy.prepare("SELECT count(*) AS n, max(n) AS last FROM marker").get() as { n: number; last: number },
        ).toEqual({ n: 1000, last: 1000 });
      } finally {
        copy.close();
      }

      // restored as the README says: the app stopped, its -wal and -shm removed, the copy put in place with cp
      const restoredFile = restored.url.slice("file:".length);
      for (const leftover of [restoredFile, `${restoredFile}-wal`, `${restoredFile}-shm`])
        fs.rmSync(leftover, { force: true });
      fs.copyFileSync(result.file, restoredFile);
      fs.chmodSync(restoredFile, 0o644);
      const db = await connectAppDatabase(restored.url);
      try {
        const rows = await db.$queryRawUnsafe<Array<{ n: bigint | number }>>("SELECT count(*) AS n FROM marker");
        expect(Number(rows[0]!.n)).toBe(1000);
        expect(await db.$queryRawUnsafe("PRAGMA journal_mode")).toEqual([{ journal_mode: "wal" }]);
        expect((fs.statSync(restoredFile).mode & 0o777).toString(8)).toBe("600");
      } finally {
        await db.$disconnect();
      }
    } finally {
      live.close();
      database.remove();
      restored.remove();
    }
  }, 60_000);
});
