// The database's durability settings as the app gets them: WAL and a busy timeout on its
// connection, a private data folder and files from the first `migrate deploy` on.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IperfInterval } from "@/lib/iperf";
import { loadKeys } from "@/lib/secrets/keys";
import { connectAppDatabase, createTestDatabase } from "@/testing/database";
import { SampleWriter } from "@/lib/runs/samples";

const ROOT = path.resolve(__dirname, "..");

type Db = Awaited<ReturnType<typeof connectAppDatabase>>;

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

async function pragma(db: Db, name: string): Promise<string> {
  const rows = await db.$queryRawUnsafe<Array<Record<string, unknown>>>(`PRAGMA ${name}`);
  return String(Object.values(rows[0]!)[0]);
}

function interval(start: number): IperfInterval {
  return {
    start,
    end: start + 0.1,
    bytes: 11_700_000,
    bitsPerSecond: 936e6,
    retransmits: 0,
    omitted: false,
    streams: [{ id: 5, bytes: 11_700_000, bitsPerSecond: 936e6 }],
  };
}

async function makeRun(db: Db): Promise<number> {
  const host = await db.host.create({ data: { name: "h", address: "198.18.0.1" } });
  const a = await db.nic.create({ data: { hostId: host.id, name: "eth1" } });
  const b = await db.nic.create({ data: { hostId: host.id, name: "eth2" } });
  const link = await db.link.create({ data: { name: "l", aNicId: a.id, bNicId: b.id, speedMbps: 1000 } });
  return (await db.run.create({ data: { linkId: link.id, options: { protocol: "tcp" }, status: "running" } })).id;
}

describe("the app's connection", () => {
  let database: ReturnType<typeof createTestDatabase>;
  let file: string;
  let db: Db;

  beforeAll(async () => {
    database = createTestDatabase();
    file = database.url.slice("file:".length);
    // a database left in the rollback journal (as every install before WAL): the app's connection switches it
    const sqlite = new Database(file);
    sqlite.pragma("journal_mode = DELETE");
    sqlite.close();
    db = await connectAppDatabase(database.url);
  }, 60_000);
  afterAll(async () => {
    await db?.$disconnect();
    database?.remove();
  });

  it("is in WAL mode, synchronous NORMAL, with a 5 s busy timeout", async () => {
    expect(await pragma(db, "journal_mode")).toBe("wal");
    expect(await pragma(db, "synchronous")).toBe("1");
    expect(await pragma(db, "busy_timeout")).toBe("5000");
    // WAL stays in the file for every later connection; the other two are set on each
    const other = new Database(file, { readonly: true });
    try {
      expect(other.pragma("journal_mode", { simple: true })).toBe("wal");
    } finally {
      other.close();
    }
  });

  it("commits a run's samples while a reader holds its read transaction open, as a backup does while it copies", async () => {
    const runId = await makeRun(db);
    // opened as lib/backup.ts opens its source
    const reader = new Database(file, { fileMustExist: true, timeout: 10_000 });
    const countIn = (connection: Database.Database) =>
      (connection.prepare("SELECT count(*) AS n FROM Sample WHERE runId = ?").get(runId) as { n: number }).n;
    try {
      reader.exec("BEGIN");
      expect(countIn(reader)).toBe(0);

      const writer = new SampleWriter(runId);
      for (let seq = 0; seq < 10; seq += 1) writer.add(interval(seq / 10));
      // one batch, written by close(); with a rollback journal the reader's lock stops its commit: SQLITE_BUSY after the busy timeout
      await expect(writer.close()).resolves.toBeUndefined();

      // committed for everyone else while the reader still holds its transaction...
      const observer = new Database(file, { readonly: true });
      try {
        expect(countIn(observer)).toBe(10);
      } finally {
        observer.close();
      }
      // ...which still sees the moment it began: a backup copies one point in time
      expect(countIn(reader)).toBe(0);
      expect(reader.inTransaction).toBe(true);
    } finally {
      if (reader.inTransaction) reader.exec("COMMIT");
      reader.close();
    }
  });
});

describe("a new install", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-install-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("gets a data folder 0700, and a database, -wal, -shm and key file 0600, under the usual umask", async () => {
    const dataDir = path.join(scratch, "srv", "data");
    // `npm start` and the image run exactly this before the app starts
    execFileSync(path.join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", WIRESPEED_DATA_DIR: dataDir },
      stdio: "pipe",
    });
    const file = path.join(dataDir, "wirespeed.db");
    expect(modeOf(dataDir)).toBe("700");
    expect(modeOf(path.dirname(dataDir))).toBe("700");
    expect(modeOf(file)).toBe("600");

    const db = await connectAppDatabase(`file:${file}`);
    try {
      // a write that stays in the WAL while the connection is open
      await db.host.create({ data: { name: "h", address: "198.18.0.1" } });
      expect([modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual(["600", "600"]);
    } finally {
      await db.$disconnect();
    }

    const umask = process.umask(0);
    try {
      loadKeys({ WIRESPEED_DATA_DIR: dataDir });
    } finally {
      process.umask(umask);
    }
    expect(modeOf(path.join(dataDir, "secret.key"))).toBe("600");
    expect(modeOf(dataDir)).toBe("700");
  }, 60_000);

  it("narrows a database restored with cp (0644) when the app opens it", async () => {
    const dataDir = fs.mkdtempSync(path.join(scratch, "restored-"));
    const source = createTestDatabase();
    try {
      const file = path.join(dataDir, "wirespeed.db");
      fs.copyFileSync(source.url.slice("file:".length), file);
      fs.chmodSync(file, 0o644);
      const db = await connectAppDatabase(`file:${file}`);
      try {
        expect(await db.host.count()).toBe(0);
        expect(modeOf(file)).toBe("600");
      } finally {
        await db.$disconnect();
      }
    } finally {
      source.remove();
    }
  }, 60_000);
});
