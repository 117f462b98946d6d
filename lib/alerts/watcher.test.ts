import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { startHttpReceiver, type HttpReceiver } from "@/testing/notification-receivers";
import { signatureOf } from "@/lib/runs/signature";
import { evaluateRun, watchRuns } from "./watcher";
import { createAlertRule, updateAlertRule } from "./rules";
import { listAlerts, openAlertsByLink } from "./alerts";
import { createChannel } from "@/lib/notify/channels";
import { RunEngine } from "@/lib/runs/engine";
import { FakeRunRemote } from "@/testing/fake-run-remote";
import { parseRunRequest } from "@/lib/runs/request";

// The watcher on a real SQLite file: runs written as the engine leaves them, judged as each
// ends, and a webhook channel delivering to a real HTTP server on 127.0.0.1.

const database: TestDatabase = await openTestDatabase();
const { db } = database;

const GBIT = 1e9;
const TCP = signatureOf({}, "a");
// Failed deliveries are retried at once: the tests wait for nothing.
const FAST = { backoffMs: [0, 0, 0], timeoutMs: 2_000 };

let receiver: HttpReceiver;
let clock = Date.UTC(2026, 0, 1);
let hostCount = 0;

/** A link between two local hosts; `addressed` gives its NICs addresses, as a run on the engine needs. */
async function seedLink(name: string, speedMbps = 10_000, addressed = false): Promise<number> {
  const nics = [];
  for (const side of ["a", "b"]) {
    hostCount += 1;
    const host = await db.host.create({
      data: { name: `host-${hostCount}-${side}`, address: "127.0.0.1", authMethod: "local", platform: "linux" },
    });
    const addresses = addressed ? [`198.18.${hostCount}.${side === "a" ? 1 : 2}/24`] : [];
    nics.push(await db.nic.create({ data: { hostId: host.id, name: "eth1", addresses } }));
  }
  return (await db.link.create({ data: { name, aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps } })).id;
}

type RunSpec = { rate?: number; status?: string; signature?: string; experimentId?: number; errorMessage?: string };

/** A run that has just ended, a minute after the one before, judged as the engine's listener would. */
async function endRun(
  linkId: number,
  { rate = 9_400_000_000, status = "succeeded", signature = TCP, experimentId, errorMessage }: RunSpec = {},
): Promise<number> {
  const id = await addRun(linkId, { rate, status, signature, experimentId, errorMessage });
  await evaluateRun(id, FAST);
  return id;
}

async function addRun(
  linkId: number,
  { rate = 9_400_000_000, status = "succeeded", signature = TCP, experimentId, errorMessage }: RunSpec = {},
): Promise<number> {
  clock += 60_000;
  const run = await db.run.create({
    data: {
      linkId,
      status,
      options: {},
      signature,
      experimentId,
      receivedBitsPerSecond: status === "succeeded" ? rate : null,
      errorMessage: errorMessage ?? null,
      createdAt: new Date(clock),
      endedAt: new Date(clock + 10_000),
    },
  });
  return run.id;
}

const events = () => receiver.requests.map((request) => (request.json as { event: string }).event);

async function webhook(name = "hook"): Promise<number> {
  return (await createChannel({ name, type: "webhook", config: { url: `${receiver.url}/${name}` } })).id;
}

beforeAll(async () => {
  receiver = await startHttpReceiver();
});

beforeEach(async () => {
  await database.reset();
  receiver.requests.length = 0;
  delete process.env.WIRESPEED_PUBLIC_URL;
});

afterAll(async () => {
  await receiver.close();
  await database.close();
});

describe("the alert watcher", () => {
  it("sends one alert.firing after 2 of 3 runs below the baseline, none while open, and one alert.resolved after 3 clean runs", async () => {
    process.env.WIRESPEED_PUBLIC_URL = "https://wirespeed.lab.example/";
    const linkId = await seedLink("nas-10g");
    const channelId = await webhook();
    const rule = await createAlertRule({
      name: "below 80% of baseline",
      linkId,
      belowBaselinePercent: 80,
      channelIds: [channelId],
    });

    for (let index = 0; index < 3; index += 1) await endRun(linkId);
    const firstSlow = await endRun(linkId, { rate: 4_100_000_000 });
    await endRun(linkId);
    expect(events()).toEqual([]);
    const secondSlow = await endRun(linkId, { rate: 4_100_000_000 });
    expect(events()).toEqual(["alert.firing"]);

    const firing = receiver.requests[0]!.json as Record<string, unknown>;
    const [alert] = (await listAlerts({ status: "firing" })).alerts;
    expect(firing).toMatchObject({
      event: "alert.firing",
      alertId: alert!.id,
      link: { id: linkId, name: "nas-10g" },
      rule: { id: rule.id, name: "below 80% of baseline" },
      runIds: [firstSlow, secondSlow],
      receivedBitsPerSecond: 4_100_000_000,
      baselineBitsPerSecond: 9_400_000_000,
      lineRatePercent: 41,
      title: "nas-10g: below its baseline",
      body: "nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)",
      url: `https://wirespeed.lab.example/runs/${secondSlow}`,
    });
    expect(alert).toMatchObject({
      status: "firing",
      runIds: [firstSlow, secondSlow],
      title: "nas-10g: below its baseline",
    });
    expect(alert!.notifications).toEqual([
      expect.objectContaining({ channelName: "hook", event: "alert.firing", status: "sent", attempts: 1, error: null }),
    ]);

    // Still slow, then two good runs: the alert stays open and nothing more is sent.
    await endRun(linkId, { rate: 4 * GBIT });
    await endRun(linkId);
    await endRun(linkId);
    expect(events()).toEqual(["alert.firing"]);
    const third = await endRun(linkId);
    expect(events()).toEqual(["alert.firing", "alert.resolved"]);
    expect(receiver.requests[1]!.json).toMatchObject({
      event: "alert.resolved",
      alertId: alert!.id,
      title: "nas-10g: recovered",
      body: "nas-10g: back to 9.4 Gbit/s, 100% of its baseline, for 3 runs in a row",
      url: `https://wirespeed.lab.example/runs/${third}`,
    });
    const [resolved] = (await listAlerts({ status: "resolved" })).alerts;
    expect(resolved).toMatchObject({ id: alert!.id, resolvedRunIds: [third - 2, third - 1, third] });
    expect(resolved!.resolvedAt).not.toBeNull();
    expect(resolved!.notifications.map((notification) => notification.event)).toEqual([
      "alert.firing",
      "alert.resolved",
    ]);

    // More good runs send nothing; a new episode opens a second alert.
    await endRun(linkId);
    expect(events()).toHaveLength(2);
    await endRun(linkId, { rate: 3 * GBIT });
    await endRun(linkId, { rate: 3 * GBIT });
    expect(events()).toEqual(["alert.firing", "alert.resolved", "alert.firing"]);
    expect(await db.alert.count()).toBe(2);
  });

  it("opens one alert when the runs that make m end together", async () => {
    const linkId = await seedLink("nas-10g");
    await createAlertRule({ name: "line rate", linkId, belowLineRatePercent: 50, channelIds: [await webhook()] });
    const ids = [
      await addRun(linkId, { rate: 1 * GBIT }),
      await addRun(linkId, { rate: 1 * GBIT }),
      await addRun(linkId, { rate: 1 * GBIT }),
    ];
    await Promise.all(ids.map((id) => evaluateRun(id, FAST)));
    expect(await db.alert.count()).toBe(1);
    expect(events()).toEqual(["alert.firing"]);
  });

  it("applies a link's own rule and the default rule only to links without one", async () => {
    const own = await seedLink("own-rule");
    const other = await seedLink("default-only");
    const channelId = await webhook();
    const ownRule = await createAlertRule({
      name: "failures",
      linkId: own,
      failed: true,
      belowBaselinePercent: null,
      channelIds: [channelId],
    });
    const defaultRule = await createAlertRule({
      name: "half the line rate",
      linkId: null,
      belowLineRatePercent: 50,
      channelIds: [channelId],
    });

    // Slow runs on the link with its own rule: the default does not judge them.
    for (let index = 0; index < 3; index += 1) await endRun(own, { rate: 1 * GBIT });
    expect(events()).toEqual([]);
    await endRun(own, { status: "failed", errorMessage: "ssh: host unreachable." });
    await endRun(own, { status: "failed", errorMessage: "iperf3 was not found on host-1-a." });
    expect(receiver.requests.map((request) => request.json)).toEqual([
      expect.objectContaining({
        event: "alert.firing",
        rule: { id: ownRule.id, name: "failures" },
        body: "own-rule: 2 of the last 3 runs failed: iperf3 was not found on host-1-a",
      }),
    ]);

    // The same slow runs on a link without a rule of its own: the default fires.
    for (let index = 0; index < 2; index += 1) await endRun(other, { rate: 1 * GBIT });
    expect(receiver.requests.map((request) => (request.json as { rule: { id: number } }).rule.id)).toEqual([
      ownRule.id,
      defaultRule.id,
    ]);
    const open = await openAlertsByLink();
    expect([...open.keys()].sort()).toEqual([own, other].sort());
    expect(open.get(other)![0]).toMatchObject({
      title: "default-only: below its line rate",
      body: "default-only: 1 Gbit/s, 10% of its 10 Gbit/s line rate (2 of 2 runs)",
    });
  });

  it("judges nothing on cancelled, interrupted and experiment runs, nor on failed runs for a rule that does not watch failures", async () => {
    const linkId = await seedLink("nas-10g");
    await createAlertRule({
      name: "line rate",
      linkId,
      belowLineRatePercent: 50,
      m: 1,
      n: 1,
      channelIds: [await webhook()],
    });
    const experiment = await db.experiment.create({ data: { kind: "sweep", status: "succeeded", plan: {} } });
    await endRun(linkId, { rate: 1 * GBIT, experimentId: experiment.id });
    await endRun(linkId, { status: "cancelled" });
    await endRun(linkId, { status: "interrupted" });
    await endRun(linkId, { status: "failed", errorMessage: "refused" });
    expect(events()).toEqual([]);
    expect(await db.alert.count()).toBe(0);
    await endRun(linkId, { rate: 1 * GBIT });
    expect(events()).toEqual(["alert.firing"]);
  });

  it("does not apply the baseline condition before 3 runs make a baseline", async () => {
    const linkId = await seedLink("nas-10g");
    await createAlertRule({
      name: "baseline",
      linkId,
      belowBaselinePercent: 80,
      m: 1,
      n: 1,
      channelIds: [await webhook()],
    });
    await endRun(linkId);
    await endRun(linkId);
    await endRun(linkId, { rate: 1 * GBIT });
    expect(events()).toEqual([]);
    await endRun(linkId, { rate: 1 * GBIT });
    expect(events()).toEqual(["alert.firing"]);
  });

  it("records a delivery that keeps failing on the alert, with its attempts", async () => {
    const linkId = await seedLink("nas-10g");
    await createAlertRule({
      name: "line rate",
      linkId,
      belowLineRatePercent: 50,
      m: 1,
      n: 1,
      channelIds: [await webhook("down")],
    });
    receiver.respondWith(503);
    try {
      await endRun(linkId, { rate: 1 * GBIT });
    } finally {
      receiver.respondWith(200, 0);
    }
    const [alert] = (await listAlerts()).alerts;
    expect(alert!.notifications).toEqual([
      expect.objectContaining({ channelName: "down", event: "alert.firing", status: "failed", attempts: 4 }),
    ]);
    expect(alert!.notifications[0]!.error).toMatch(/503/);
  });

  it("ends an open alert of a rule that was disabled since, once the runs recover", async () => {
    const linkId = await seedLink("nas-10g");
    const rule = await createAlertRule({
      name: "line rate",
      linkId,
      belowLineRatePercent: 50,
      m: 1,
      n: 2,
      channelIds: [await webhook()],
    });
    await endRun(linkId, { rate: 1 * GBIT });
    await updateAlertRule(rule.id, { enabled: false });
    await endRun(linkId, { rate: 1 * GBIT });
    await endRun(linkId);
    expect(events()).toEqual(["alert.firing"]);
    await endRun(linkId);
    expect(events()).toEqual(["alert.firing", "alert.resolved"]);
    // Disabled, it opens no new alert.
    await endRun(linkId, { rate: 1 * GBIT });
    expect(events()).toHaveLength(2);
  });

  it("links a notification to the run's path when WIRESPEED_PUBLIC_URL is not set", async () => {
    const linkId = await seedLink("nas-10g");
    await createAlertRule({
      name: "line rate",
      linkId,
      belowLineRatePercent: 50,
      m: 1,
      n: 1,
      channelIds: [await webhook()],
    });
    const runId = await endRun(linkId, { rate: 1 * GBIT });
    expect(receiver.requests[0]!.json).toMatchObject({ url: `/runs/${runId}` });
  });

  it("judges the runs an engine ends", async () => {
    const linkId = await seedLink("nas-100g", 100_000, true);
    await createAlertRule({
      name: "half the line rate",
      linkId,
      belowLineRatePercent: 50,
      m: 1,
      n: 1,
      channelIds: [await webhook()],
    });
    const engine = new RunEngine(new FakeRunRemote(), undefined, {
      serverStartMs: 300,
      serverExitGraceMs: 200,
      runMarginMs: 2_000,
    });
    const stop = watchRuns(engine, FAST);
    try {
      // The recorded run reaches 14.2 Gbit/s: 14% of 100 Gbit/s.
      const run = await engine.startRun({ linkId, ...parseRunRequest({ duration: 3 }) });
      await engine.waitForRun(run.id);
      await receiver.waitFor(1);
      // The delivery is recorded once the receiver has answered: wait for it before the database closes.
      for (
        const deadline = Date.now() + 5_000;
        (await db.notification.count()) === 0;
        await new Promise((resolve) => setTimeout(resolve, 10))
      ) {
        if (Date.now() > deadline) throw new Error("the delivery was not recorded");
      }
    } finally {
      stop();
    }
    expect(receiver.requests[0]!.json).toMatchObject({
      event: "alert.firing",
      body: "nas-100g: 14.2 Gbit/s, 14% of its 100 Gbit/s line rate (1 of 1 runs)",
    });
  });
});
