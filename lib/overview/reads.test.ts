import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import {
  getTimeline,
  listOverviewLinks,
  TIMELINE_MAX_POINTS,
  TIMELINE_SAMPLES_PER_RUN,
  timelineRunLimit,
} from "@/lib/overview/reads";

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

  it("keeps every interval of a 10 s test in the last hour beside thirty long runs, and a zoom reads only its span's runs", async () => {
    const now = new Date("2026-11-20T12:00:00.000Z");
    const minute = 60_000;
    const add = async (startedAt: number, count: number, rate: (seq: number) => number) => {
      const run = await db.run.create({
        data: {
          linkId: linkIds[0]!,
          status: "succeeded",
          options: OPTIONS,
          createdAt: new Date(startedAt - 1000),
          startedAt: new Date(startedAt),
          endedAt: new Date(startedAt + count * 100),
        },
      });
      await db.sample.createMany({
        data: Array.from({ length: count }, (_, seq) => ({
          runId: run.id,
          seq,
          start: seq / 10,
          end: (seq + 1) / 10,
          bytes: 1e6,
          bitsPerSecond: rate(seq),
        })),
      });
      return run.id;
    };
    // Thirty one-minute runs of 0.1 s intervals, one after the other from 55 minutes ago; each has
    // twice the intervals the timeline reads of one run.
    const long: number[] = [];
    for (let index = 0; index < 30; index++)
      long.push(await add(now.getTime() - (55 - index) * minute, 2 * TIMELINE_SAMPLES_PER_RUN, () => 9e8));
    // Then a 10 s test, 0.1 s intervals: a blip, a spike and a slope down, each interval its own rate.
    const testStart = now.getTime() - 10 * minute;
    const test = await add(testStart, 100, (seq) => (seq === 10 ? 5e9 : seq < 50 ? 1e8 + seq : 2e9 - seq * 1e7));

    const hour = await getTimeline("1h", now);
    expect(hour.to - hour.from).toBe(3600_000);
    expect(hour.runs.map((run) => run.runId)).toEqual([...long, test]);
    // Every interval of the test, each at its own moment, with its zero before and after.
    const drawn = hour.runs.at(-1)!.points;
    expect(drawn).toHaveLength(102);
    expect(drawn[11]).toEqual([testStart + 1100, 5e9]);
    // The long runs share what is left of the points: thinned, and the total within the cap.
    const longPoints = hour.runs[0]!.points.length - 2;
    expect(longPoints).toBeLessThan(TIMELINE_SAMPLES_PER_RUN);
    expect(hour.runs.reduce((sum, run) => sum + run.points.length, 0)).toBeLessThanOrEqual(TIMELINE_MAX_POINTS);

    // Zoomed into the test: only it is read. Zoomed over the end of one long run and the start of the
    // next: those two, each with every interval read of it, no longer thinned to share.
    const zoomed = await getTimeline("1h", now, { from: testStart - 2000, to: testStart + 12_000 });
    expect(zoomed).toMatchObject({ from: testStart - 2000, to: testStart + 12_000 });
    expect(zoomed.runs.map((run) => run.runId)).toEqual([test]);
    const across = now.getTime() - 45 * minute;
    const pair = await getTimeline("1h", now, { from: across - 5000, to: across + 5000 });
    expect(pair.runs.map((run) => run.runId)).toEqual([long[9], long[10]]);
    for (const run of pair.runs) expect(run.points).toHaveLength(TIMELINE_SAMPLES_PER_RUN + 2);
  });
});

describe("timelineRunLimit", () => {
  it("lets the short runs keep every interval and the long ones share the rest, at least 8 each", () => {
    expect(timelineRunLimit([10, 300, 300], 4000)).toBe(300);
    // 4000 points less a zero before and after each of 41 runs, less the short run's 100: 95 each.
    expect(timelineRunLimit([100, ...Array<number>(40).fill(300)], 4000)).toBe(95);
    expect(timelineRunLimit(Array<number>(200).fill(300), 4000)).toBe(18);
    expect(timelineRunLimit(Array<number>(1000).fill(300), 4000)).toBe(8);
    // One long run beside forty 10-interval tests: nothing is thinned, all 782 points fit.
    expect(timelineRunLimit([300, ...Array<number>(40).fill(10)], 4000)).toBe(300);
    expect(timelineRunLimit([0, 5], 4000)).toBe(8);
  });
});
