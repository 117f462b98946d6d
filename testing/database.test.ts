import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { Prisma } from "@/lib/generated/prisma/client";
import { getApp } from "@/lib/app";
import { db } from "@/lib/db";
import { SQLITE_TEMPLATE_ENV, openTestDatabase, type TestDatabase } from "./database";

const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const database of opened) await database.close().catch(() => {});
});

async function open(): Promise<TestDatabase> {
  const database = await openTestDatabase();
  opened.push(database);
  return database;
}

/** Every table the migrations made, by name, with its row count (read beside the app's client). */
function rowCounts(database: TestDatabase): Record<string, number> {
  const sqlite = new Database(path.join(database.dataDir, "wirespeed.db"), { readonly: true });
  try {
    const tables = sqlite
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'`,
      )
      .all() as Array<{ name: string }>;
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (sqlite.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n,
      ]),
    );
  } finally {
    sqlite.close();
  }
}

async function seedOneOfEach(database: TestDatabase): Promise<void> {
  const { db } = database;
  const host = await db.host.create({ data: { name: "h", address: "198.18.0.1" } });
  const [a, b] = await Promise.all(["eth1", "eth2"].map((name) => db.nic.create({ data: { hostId: host.id, name } })));
  const link = await db.link.create({ data: { name: "l", aNicId: a!.id, bNicId: b!.id, speedMbps: 1000 } });
  const experiment = await db.experiment.create({ data: { kind: "sweep", plan: {} } });
  const run = await db.run.create({
    data: { linkId: link.id, experimentId: experiment.id, options: { protocol: "tcp" } },
  });
  await db.sample.create({
    data: { runId: run.id, seq: 0, start: 0, end: 1, direction: "forward", bytes: 1, bitsPerSecond: 8 },
  });
  await db.latencySample.create({ data: { runId: run.id, seq: 0, t: -5, rttMs: 0.1, phase: "idle" } });
  await db.runDigest.create({ data: { runId: run.id, points: [], streamCount: 0, sampleCount: 1, streams: [] } });
  const user = await db.user.create({ data: { username: "u", usernameKey: "u", passwordHash: "x", role: "admin" } });
  await db.session.create({ data: { userId: user.id, tokenHash: "s", expiresAt: new Date(Date.now() + 60_000) } });
  await db.apiToken.create({ data: { userId: user.id, name: "t", prefix: "t", tokenHash: "t" } });
  await db.auditEvent.create({ data: { actorName: "test", action: "host.create", target: "host", targetId: host.id } });
  const schedule = await db.schedule.create({ data: { name: "s", linkId: link.id, everyMinutes: 60 } });
  await db.scheduleRun.create({
    data: { scheduleId: schedule.id, dueAt: new Date(), outcome: "started", runId: run.id },
  });
  const channel = await db.notificationChannel.create({
    data: { name: "c", type: "webhook", config: { url: "http://127.0.0.1:9/" } },
  });
  const rule = await db.alertRule.create({
    data: { name: "r", linkId: link.id, failed: true, channels: { create: [{ channelId: channel.id }] } },
  });
  const alert = await db.alert.create({
    data: { ruleId: rule.id, linkId: link.id, title: "t", body: "b", runIds: [run.id] },
  });
  await db.notification.create({
    data: {
      alertId: alert.id,
      channelId: channel.id,
      channelName: "c",
      event: "alert.firing",
      status: "sent",
      attempts: 1,
    },
  });
  await db.instance.create({ data: { id: "i" } });
  await db.setting.create({ data: { key: "k", value: "v" } });
  await db.linkHold.create({ data: { linkId: link.id, runId: run.id, instance: "i" } });
  await db.runLabel.create({ data: { runId: run.id, label: "dac" } });
  await db.share.create({ data: { tokenHash: "t", kind: "run", targetId: run.id, createdBy: "admin" } });
}

// Each test has a database of its own (a copy of the run's migrated file, testing/sqlite-template-setup.ts).
describe("openTestDatabase", { timeout: 60_000 }, () => {
  it("is a copy of the run's migrated file: every migration applied, in WAL mode, 0600, apart from other copies", async () => {
    expect(process.env[SQLITE_TEMPLATE_ENV]).toBeTruthy();
    const [first, second] = [await open(), await open()];
    const file = path.join(first.dataDir, "wirespeed.db");
    const sqlite = new Database(file, { readonly: true });
    try {
      const applied = sqlite
        .prepare(`SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL`)
        .all() as Array<{ name: string }>;
      const migrations = fs.readdirSync(path.join(__dirname, "../prisma/migrations"), { withFileTypes: true });
      expect(applied.map(({ name }) => name).sort()).toEqual(
        migrations
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name)
          .sort(),
      );
      expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    } finally {
      sqlite.close();
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    await first.db.host.create({ data: { name: "only-here", address: "198.18.0.9" } });
    expect(await second.db.host.count()).toBe(0);
  });

  it("opens the app's client on a migrated, empty database of its own", async () => {
    const database = await open();
    // The running app is on it, and the app's `db` of lib/ reaches its client.
    expect(getApp().db).toBe(database.db);
    await database.db.host.create({ data: { name: "probe", address: "198.18.0.9" } });
    expect(await db.host.count()).toBe(1);
    await database.reset();
    expect(process.env.DATABASE_URL).toBe(database.url);
    expect(database.url).toBe(`file:${path.join(database.dataDir, "wirespeed.db")}`);
    const counts = rowCounts(database);
    // a table for every model of the schema, as the app's migrations make them
    expect(Object.keys(counts).sort()).toEqual(Object.values(Prisma.ModelName).sort());
    expect(Object.values(counts)).toEqual(Object.keys(counts).map(() => 0));
  });

  it("reset empties every table, keeps the schema, and numbers rows from 1 again", async () => {
    const database = await open();
    await seedOneOfEach(database);
    expect(rowCounts(database)).toEqual({
      ApiToken: 1,
      AuditEvent: 1,
      Experiment: 1,
      ExperimentLink: 0,
      ExperimentStep: 0,
      Host: 1,
      Link: 1,
      Nic: 2,
      Run: 1,
      Sample: 1,
      Session: 1,
      User: 1,
      Schedule: 1,
      ScheduleRun: 1,
      NotificationChannel: 1,
      AlertRule: 1,
      AlertRuleChannel: 1,
      Alert: 1,
      Notification: 1,
      LatencySample: 1,
      RunDigest: 1,
      Instance: 1,
      Setting: 1,
      LinkHold: 1,
      RunLabel: 1,
      Share: 1,
    });
    await database.reset();
    expect(rowCounts(database)).toEqual(Object.fromEntries(Object.values(Prisma.ModelName).map((name) => [name, 0])));
    const host = await database.db.host.create({ data: { name: "again", address: "198.18.0.2" } });
    expect(host.id).toBe(1);
    // the migrations are still recorded: the schema is the one the app expects
    const sqlite = new Database(path.join(database.dataDir, "wirespeed.db"), { readonly: true });
    const migrations = fs
      .readdirSync(path.resolve(__dirname, "../prisma/migrations"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory());
    expect(
      (
        sqlite.prepare(`SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL`).get() as {
          n: number;
        }
      ).n,
    ).toBe(migrations.length);
    sqlite.close();
  });

  it("gives each call a database of its own", async () => {
    const first = await open();
    await first.db.host.create({ data: { name: "only in the first", address: "198.18.0.3" } });
    const second = await open();
    expect(second.dataDir).not.toBe(first.dataDir);
    expect(await second.db.host.count()).toBe(0);
    expect(rowCounts(first).Host).toBe(1);
  });

  it("close disconnects and removes the folder", async () => {
    const database = await open();
    await database.db.host.count();
    expect(fs.existsSync(database.dataDir)).toBe(true);
    await database.close();
    expect(fs.existsSync(database.dataDir)).toBe(false);
  });
});
