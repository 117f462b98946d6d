import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { getTimeline, listOverviewLinks, TIMELINE_SAMPLES_PER_RUN } from "@/lib/overview/reads";

// The link cards' monitoring marks on a real SQLite file: the firing alert of a link (its
// "Alert" badge) and the newest start of the schedules that test it, whichever schedule made it.

const database: TestDatabase = await openTestDatabase();
const { db } = database;
// After the test database: these modules open the database when loaded.

const OPTIONS = {
  protocol: "tcp",
  parallel: 1,
  reverse: false,
  bidir: false,
  interval: 1,
  zerocopy: false,
  duration: 3,
};
const linkIds: number[] = [];

async function schedule(name: string, linkId: number) {
  return db.schedule.create({ data: { name, linkId, everyMinutes: 5 } });
}

beforeAll(async () => {
  for (const name of ["nas-10g", "nas-1g"]) {
    const nics = [];
    for (const side of ["a", "b"]) {
      const host = await db.host.create({
        data: { name: `${name}-${side}`, address: "127.0.0.1", authMethod: "local", platform: "linux" },
      });
      nics.push(await db.nic.create({ data: { hostId: host.id, name: "eth1", addresses: [] } }));
    }
    linkIds.push(
      (await db.link.create({ data: { name, aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps: 10_000 } })).id,
    );
  }
  const [watched] = linkIds;
  const run = await db.run.create({
    data: {
      linkId: watched!,
      status: "succeeded",
      options: OPTIONS,
      receivedBitsPerSecond: 9.4e9,
      signature: "tcp a-to-b P1",
    },
  });
  const rule = await db.alertRule.create({
    data: { name: "slower", linkId: watched!, belowLineRatePercent: 100, m: 1, n: 1 },
  });
  // One alert resolved, two firing: the card counts the firing ones and names the oldest.
  await db.alert.create({
    data: {
      ruleId: rule.id,
      linkId: watched!,
      status: "resolved",
      title: "nas-10g: over",
      body: "",
      openedAt: new Date("2026-11-01T10:00:00Z"),
      resolvedAt: new Date("2026-11-01T11:00:00Z"),
    },
  });
  await db.alert.create({
    data: {
      ruleId: rule.id,
      linkId: watched!,
      status: "firing",
      title: "nas-10g: below its line rate",
      body: "",
      runIds: [run.id],
      openedAt: new Date("2026-11-02T10:00:00Z"),
    },
  });
  await db.alert.create({
    data: {
      ruleId: rule.id,
      linkId: watched!,
      status: "firing",
      title: "nas-10g: failed",
      body: "",
      openedAt: new Date("2026-11-02T11:00:00Z"),
    },
  });

  // Two schedules on the link: the newest start of either is the card's, whichever schedule it was.
  const hourly = await schedule("hourly", watched!);
  const quarter = await schedule("quarter", watched!);
  await db.scheduleRun.create({
    data: {
      scheduleId: hourly.id,
      dueAt: new Date("2026-11-02T12:00:00Z"),
      at: new Date("2026-11-02T12:00:01Z"),
      outcome: "started",
      runId: run.id,
    },
  });
  await db.scheduleRun.create({
    data: {
      scheduleId: quarter.id,
      dueAt: new Date("2026-11-02T12:15:00Z"),
      at: new Date("2026-11-02T12:15:00Z"),
      outcome: "skipped",
      reason: `link busy: run ${run.id} is running`,
    },
  });
  await db.scheduleRun.create({
    data: {
      scheduleId: hourly.id,
      dueAt: new Date("2026-11-02T11:00:00Z"),
      at: new Date("2026-11-02T11:00:01Z"),
      outcome: "started",
      runId: run.id,
    },
  });
});

afterAll(() => database.close());

describe("a link card's monitoring marks", () => {
  it("marks a link with firing alerts, with the oldest one's title and how many", async () => {
    const cards = await listOverviewLinks();
    const [watched, quiet] = linkIds.map((id) => cards.find((card) => card.id === id)!);
    expect(watched!.alert).toEqual({ id: expect.any(Number), title: "nas-10g: below its line rate", count: 2 });
    expect(quiet!.alert).toBeNull();
  });

  it("shows the newest start of the link's schedules, a skip with its reason", async () => {
    const cards = await listOverviewLinks();
    const watched = cards.find((card) => card.id === linkIds[0])!;
    expect(watched.lastScheduled).toEqual({
      at: "2026-11-02T12:15:00.000Z",
      outcome: "skipped",
      reason: expect.stringMatching(/^link busy: run \d+ is running$/),
      runId: null,
      experimentId: null,
      status: null,
      receivedBitsPerSecond: null,
    });
    expect(cards.find((card) => card.id === linkIds[1])!.lastScheduled).toBeNull();
  });

  it("shows a started run's result once the skip is older than it", async () => {
    const [hourly] = await db.schedule.findMany({ where: { name: "hourly" } });
    const run = await db.run.findFirstOrThrow({ where: { linkId: linkIds[0] } });
    await db.scheduleRun.create({
      data: {
        scheduleId: hourly!.id,
        dueAt: new Date("2026-11-02T13:00:00Z"),
        at: new Date("2026-11-02T13:00:01Z"),
        outcome: "started",
        runId: run.id,
      },
    });
    const watched = (await listOverviewLinks()).find((card) => card.id === linkIds[0])!;
    expect(watched.lastScheduled).toMatchObject({
      outcome: "started",
      runId: run.id,
      status: "succeeded",
      receivedBitsPerSecond: 9.4e9,
    });
  });
});

describe("a device's card", () => {
  it("names the device, and counts a run listening for it as the link's active run", async () => {
    const laptop = await db.host.create({
      data: { name: "overview-laptop", address: "127.0.0.1", authMethod: "local" },
    });
    const tv = await db.host.create({
      data: { name: "overview-tv", address: "", authMethod: "none", access: "device", kind: "tv" },
    });
    const [laptopNic, tvNic] = await Promise.all(
      [laptop, tv].map((host) => db.nic.create({ data: { hostId: host.id, name: "eth0", addresses: [] } })),
    );
    // The device at the a end: found whichever end it is.
    const link = await db.link.create({
      data: { name: "overview-tv-link", aNicId: tvNic!.id, bNicId: laptopNic!.id, speedMbps: 1000 },
    });
    const listening = await db.run.create({ data: { linkId: link.id, status: "listening", options: OPTIONS } });
    const cards = await listOverviewLinks();
    const card = cards.find((entry) => entry.id === link.id)!;
    expect(card.device).toEqual({ hostId: tv.id, name: "overview-tv", kind: "tv" });
    expect(card.active?.id).toBe(listening.id);
    expect(cards.find((entry) => entry.id === linkIds[0])!.device).toBeNull();
    await db.link.delete({ where: { id: link.id } });
  });
});

describe("the timeline", () => {
  it("draws the runs that ended in the range or, still going, started in it, each from its start to the millisecond", async () => {
    const now = new Date("2026-11-10T12:00:00.000Z");
    const hour = 3600_000;
    const at = (ago: number) => new Date(now.getTime() - ago);
    const runs: Record<string, number> = {};
    for (const [name, status, startedAgo, endedAgo] of [
      ["ended before", "succeeded", 30 * hour, 25 * hour],
      ["across the start", "succeeded", 24 * hour + 60_000, 23 * hour],
      ["inside", "failed", 2 * hour + 123, hour],
      ["running", "running", 60_000, null],
      ["queued", "queued", null, null],
    ] as const) {
      const run = await db.run.create({
        data: {
          linkId: linkIds[1]!,
          status,
          options: OPTIONS,
          createdAt: at((startedAgo ?? 0) + 1000),
          startedAt: startedAgo === null ? null : at(startedAgo),
          endedAt: endedAgo === null ? null : at(endedAgo),
        },
      });
      runs[name] = run.id;
      // The run inside the range has more intervals than the timeline reads of one run: every k-th is read.
      const count = name === "inside" ? TIMELINE_SAMPLES_PER_RUN * 3 : 2;
      await db.sample.createMany({
        data: Array.from({ length: count }, (_, seq) => ({
          runId: run.id,
          seq,
          start: seq,
          end: seq + 1,
          bytes: 1e8,
          bitsPerSecond: 8e8,
        })),
      });
    }
    const timeline = await getTimeline("24h", now);
    expect(timeline.runs.map((run) => run.runId)).toEqual([runs["across the start"], runs.inside, runs.running]);
    const inside = timeline.runs.find((run) => run.runId === runs.inside)!;
    // A zero at the first interval's start, then each interval's end: on the wall clock from startedAt, milliseconds kept.
    expect(inside.points[0]).toEqual([at(2 * hour + 123).getTime(), 0]);
    expect(inside.points[1]).toEqual([at(2 * hour + 123).getTime() + 1000, 8e8]);
    expect(inside.points.length - 2).toBe(TIMELINE_SAMPLES_PER_RUN);
  });
});
