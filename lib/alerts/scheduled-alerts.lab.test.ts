// Schedules, alerts and notifications end to end on the lab: a schedule tests a shaped link
// every 15 s with real iperf3 over real SSH; the link's tc rate drops to half and comes back,
// as a cable or a renegotiated port would; a real HTTP receiver on loopback gets the webhook.
// The app restarts between two scheduled runs: a new engine, watcher and scheduler on the
// same database go on with the schedule, with no duplicate run and no second notification.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabLink, LabState } from "@/testing/lab-state";
import { labLink, requireLabState, setLinkRate } from "@/testing/lab-targets";
import { openTestDatabase } from "@/testing/database";
import { startHttpReceiver } from "@/testing/notification-receivers";
import { seedLabInventory } from "@/testing/lab-inventory";
import { RunEngine } from "@/lib/runs/engine";
import { agentRunRemote } from "@/lib/runs/remote-agents";
import { RunEventBus } from "@/lib/runs/bus";
import { ExperimentRunner } from "@/lib/experiments/runner";
import { ExperimentEventBus } from "@/lib/experiments/bus";
import { Scheduler } from "@/lib/schedules/scheduler";
import { createSchedule } from "@/lib/schedules/store";
import { createChannel } from "@/lib/notify/channels";
import { createAlertRule } from "@/lib/alerts/rules";
import { watchRuns } from "@/lib/alerts/watcher";
import { closeAll } from "@/lib/ssh";

const database = await openTestDatabase();
const { db } = database;

const LINK = "gd-indep-1";
const EVERY_SECONDS = 15;

let state: LabState;
let link: LabLink;
let linkId: number;
let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;

/** One app process: its engine, the alert watcher on it, and the scheduler. */
async function startApp() {
  const runBus = new RunEventBus();
  const engine = new RunEngine(agentRunRemote, runBus);
  const experiments = new ExperimentRunner(engine, new ExperimentEventBus(), runBus);
  const unwatch = watchRuns(engine);
  const scheduler = new Scheduler({ engine, experiments });
  await scheduler.start();
  return {
    async stop() {
      await scheduler.stop();
      unwatch();
    },
  };
}

async function finishedScheduledRuns() {
  return db.run.findMany({
    where: { linkId, status: { in: ["succeeded", "failed"] }, scheduleRuns: { some: {} } },
    orderBy: { id: "asc" },
  });
}

/** Waits until `count` scheduled runs have ended (and their alerts been judged). */
async function untilRunsEnded(count: number) {
  // Each run is due every 15 s: allow two periods per run, plus the first start.
  const deadline = Date.now() + (count + 1) * 2 * EVERY_SECONDS * 1000;
  for (;;) {
    const runs = await finishedScheduledRuns();
    if (runs.length >= count) {
      // The watcher judges a run right after it ends: give it a moment to write the alert and notify.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return runs;
    }
    if (Date.now() > deadline) throw new Error(`only ${runs.length} of ${count} scheduled runs ended in time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const events = () => receiver.requests.map((request) => (request.json as { event: string }).event);

beforeAll(async () => {
  state = requireLabState();
  link = labLink(state, LINK);
  linkId = (await seedLabInventory(state)).linkIds[LINK]!;
  receiver = await startHttpReceiver();
});

afterAll(async () => {
  setLinkRate(state, link, link.rateMbps!);
  await receiver?.close();
  await closeAll();
  await database.close();
});

describe("a scheduled test with an alert rule, on the lab", () => {
  it(
    "fires once when the link's rate halves, resolves once when it comes back, and survives a restart",
    { timeout: 420_000 },
    async () => {
      const channel = await createChannel({
        name: "lab receiver",
        type: "webhook",
        config: { url: receiver.url, secret: "lab-hmac-secret" },
      });
      await createAlertRule({
        name: "below 80% of line rate",
        linkId,
        belowLineRatePercent: 80,
        m: 2,
        n: 3,
        channelIds: [channel.id],
      });
      const schedule = await createSchedule({
        name: "every 15 s",
        linkId,
        options: { duration: 2 },
        direction: "a-to-b",
        clientSide: "a",
        cron: `*/${EVERY_SECONDS} * * * * *`,
        timezone: "UTC",
      });

      let app = await startApp();
      try {
        // 1 healthy run at the link's 1 Gbit/s.
        const [healthy] = await untilRunsEnded(1);
        expect(healthy!.receivedBitsPerSecond!).toBeGreaterThan(0.9e9);
        expect(events()).toEqual([]);

        // Half the rate: the 2nd low run makes 2 of the last 3 below 80%, and one alert fires.
        setLinkRate(state, link, link.rateMbps! / 2);
        const low = await untilRunsEnded(3);
        expect(low.slice(1).map((run) => run.receivedBitsPerSecond! < 0.6e9)).toEqual([true, true]);
        expect(events()).toEqual(["alert.firing"]);
        const alert = await db.alert.findFirstOrThrow({ where: { linkId } });
        expect(alert.status).toBe("firing");
        expect(alert.runIds).toEqual(low.slice(1).map((run) => run.id));

        // Restart between two scheduled runs: a new app on the same database.
        await app.stop();
        app = await startApp();

        // Still low: the alert stays open, with no second notification.
        await untilRunsEnded(4);
        expect(events()).toEqual(["alert.firing"]);

        // Back to full rate: after 3 good runs in a row, exactly one resolved notification.
        setLinkRate(state, link, link.rateMbps!);
        const all = await untilRunsEnded(7);
        expect(all.slice(4).every((run) => run.receivedBitsPerSecond! > 0.9e9)).toBe(true);
        expect(events()).toEqual(["alert.firing", "alert.resolved"]);
        expect((await db.alert.findUniqueOrThrow({ where: { id: alert.id } })).status).toBe("resolved");
      } finally {
        await app.stop();
      }

      // The webhook was signed with the channel's secret and names the link and the runs.
      const firing = receiver.requests[0]!;
      expect(firing.headers["x-wirespeed-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(firing.json).toMatchObject({ event: "alert.firing", link: { id: linkId }, alertId: expect.any(Number) });

      // Every start of the schedule is one run: none twice across the restart, on the 15 s grid.
      const starts = await db.scheduleRun.findMany({ where: { scheduleId: schedule.id }, orderBy: { id: "asc" } });
      const started = starts.filter((start) => start.outcome === "started");
      expect(started.length).toBeGreaterThanOrEqual(7);
      expect(new Set(started.map((start) => start.runId)).size).toBe(started.length);
      const due = started.map((start) => start.dueAt.getTime());
      expect(new Set(due).size).toBe(due.length);
      for (const at of due) expect(at % (EVERY_SECONDS * 1000)).toBe(0);
      expect(starts.filter((start) => start.catchUp)).toEqual([]);
    },
  );
});
