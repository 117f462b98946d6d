import mqtt from "mqtt";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { FakeRunRemote } from "@/testing/fake-run-remote";
import { seedLocalLinks } from "@/testing/local-links";
import { hasMosquitto, startMosquitto, type Mosquitto } from "@/testing/mosquitto";
import { createApp, installApp, type App } from "@/lib/app";
import { deleteLink, updateLink } from "@/lib/inventory/links";
import { parseRunRequest } from "@/lib/runs/request";
import { lineRatePercent } from "@/lib/runs/serialize";
import { resolveMqttSettings } from "./settings";

// Home Assistant over a real broker: Debian's mosquitto on 127.0.0.1 and this run's own port, with a
// password file; Wirespeed's app (lib/app.ts) publishes through its own publisher, its runs played by
// the scripted remote, and a subscriber logged in as Home Assistant would be reads what arrives.

const PUBLISHER_PASSWORD = "wirespeed-broker-secret-93f1";
const HOME_ASSISTANT_PASSWORD = "ha-broker-secret-5a02";
// Missing mosquitto fails under CI (npm test installs it); on a workstation without it the file is skipped.
const canRun = hasMosquitto() || process.env.CI === "true";

type Received = { topic: string; payload: string; retain: boolean };

/** A client subscribed to everything Wirespeed and Home Assistant's discovery publish, keeping each message. */
async function subscribe(url: string) {
  const client = await mqtt.connectAsync(url, {
    username: "homeassistant",
    password: HOME_ASSISTANT_PASSWORD,
    reconnectPeriod: 0,
  });
  const messages: Received[] = [];
  client.on("message", (topic, payload, packet) =>
    messages.push({ topic, payload: payload.toString(), retain: packet.retain }),
  );
  await client.subscribeAsync(["homeassistant/#", "wirespeed/#"], { qos: 1 });
  const last = (topic: string) => messages.findLast((message) => message.topic === topic);
  return {
    client,
    messages,
    last,
    json: (topic: string) => JSON.parse(last(topic)?.payload || "null"),
    close: () => client.endAsync(true),
  };
}

/** Waits until `check` holds (the broker and the app work in their own time), else fails saying what was awaited. */
async function waitFor(what: string, check: () => unknown | Promise<unknown>, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check());) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const OBJECTS = [
  "sensor/wirespeed_link_ID_rate",
  "sensor/wirespeed_link_ID_line_rate",
  "sensor/wirespeed_link_ID_loaded_latency",
  "sensor/wirespeed_link_ID_last_run",
  "binary_sensor/wirespeed_link_ID_alert",
  "button/wirespeed_link_ID_run_again",
];
const configTopics = (linkId: number) =>
  OBJECTS.map((object) => `homeassistant/${object.replace("ID", String(linkId))}/config`);

describe.skipIf(!canRun)("Home Assistant over MQTT", () => {
  let database: TestDatabase;
  let app: App;
  let broker: Mosquitto;
  let ha: Awaited<ReturnType<typeof subscribe>>;
  let watched = 0;
  let removed = 0;
  const log: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    // The app as the server builds it, with runs played by the scripted remote.
    app = createApp({
      db: database.db,
      remote: new FakeRunRemote(),
      limits: { serverStartMs: 300, serverExitGraceMs: 200, runMarginMs: 2_000 },
    });
    installApp(app);
    const ids = await seedLocalLinks(database.db, 2, { speedMbps: 100_000 });
    [watched, removed] = [ids[0]!, ids[1]!];
    // The recorded run reaches 14.2 Gbit/s: 14% of 100 Gbit/s, below this rule's 50%.
    await database.db.alertRule.create({
      data: { name: "half the line rate", linkId: watched, belowLineRatePercent: 50, m: 1, n: 1 },
    });
    broker = await startMosquitto({
      users: { wirespeed: PUBLISHER_PASSWORD, homeassistant: HOME_ASSISTANT_PASSWORD },
    });
    ha = await subscribe(broker.url);
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void log.push(args.join(" ")));
    app.watchAlerts();
    // The password in the URL: the log must show it cut out.
    const settings = resolveMqttSettings({
      WIRESPEED_MQTT_URL: `mqtt://wirespeed:${PUBLISHER_PASSWORD}@127.0.0.1:${broker.port}`,
    });
    app.homeAssistant.start(settings!);
  }, 30_000);

  afterAll(async () => {
    await app?.homeAssistant.stop();
    await ha?.close();
    await broker?.close();
    vi.restoreAllMocks();
    await database?.close();
  });

  it("publishes every link as a device with its sensors, binary sensor and button, and itself as online", async () => {
    await waitFor("the discovery of both links", () =>
      [...configTopics(watched), ...configTopics(removed)].every((topic) => ha.last(topic)),
    );
    await waitFor("online", () => ha.last("wirespeed/status")?.payload === "online");
    const topics = new Set(ha.messages.map((message) => message.topic));
    expect([...topics].filter((topic) => topic.includes(`wirespeed_link_${watched}_`)).sort()).toEqual(
      configTopics(watched).sort(),
    );
    const device = {
      identifiers: [`wirespeed_link_${watched}`],
      name: "link0",
      manufacturer: "Wirespeed",
      model: "link",
    };
    const availability = {
      availability_topic: "wirespeed/status",
      payload_available: "online",
      payload_not_available: "offline",
    };
    const state_topic = `wirespeed/link/${watched}/state`;
    const [rate, lineRate, latency, lastRun, alert, button] = configTopics(watched).map((topic) => ha.json(topic));
    expect(rate).toMatchObject({
      unique_id: `wirespeed_link_${watched}_rate`,
      object_id: `wirespeed_link_${watched}_rate`,
      name: "Received rate",
      state_topic,
      value_template: "{{ value_json.rate }}",
      unit_of_measurement: "Mbit/s",
      device_class: "data_rate",
      state_class: "measurement",
      device,
      ...availability,
    });
    expect(lineRate).toMatchObject({ unit_of_measurement: "%", state_class: "measurement", state_topic, device });
    expect(latency).toMatchObject({ unit_of_measurement: "ms", state_class: "measurement", state_topic, device });
    expect(lastRun).toMatchObject({ device_class: "timestamp", value_template: "{{ value_json.lastRunAt }}", device });
    expect(lastRun).not.toHaveProperty("state_class");
    expect(alert).toMatchObject({
      unique_id: `wirespeed_link_${watched}_alert`,
      name: "Alert firing",
      device_class: "problem",
      value_template: "{{ value_json.alert }}",
      payload_on: "ON",
      payload_off: "OFF",
      ...availability,
    });
    expect(button).toMatchObject({ name: "Run again", command_topic: `wirespeed/link/${watched}/run`, device });
    expect(ha.json(state_topic)).toStrictEqual({
      rate: null,
      lineRatePercent: null,
      loadedLatency: null,
      lastRunAt: null,
      alert: "OFF",
    });
    // Retained: Home Assistant started after Wirespeed reads them all the same.
    const late = await subscribe(broker.url);
    try {
      await waitFor("the retained configs", () => configTopics(watched).every((topic) => late.last(topic)?.retain));
      await waitFor("the retained state", () => late.last(state_topic)?.retain);
    } finally {
      await late.close();
    }
  });

  it("publishes the rate, the share of line rate and the time when a run ends, and ON when an alert fires", async () => {
    const started = await app.runs.startRun({ linkId: watched, ...parseRunRequest({ duration: 3 }) });
    await app.runs.waitForRun(started.id);
    const run = await database.db.run.findUniqueOrThrow({ where: { id: started.id } });
    expect(run.status).toBe("succeeded");
    const topic = `wirespeed/link/${watched}/state`;
    await waitFor("the state after the run", () => ha.json(topic)?.lastRunAt);
    const rate = run.receivedBitsPerSecond!;
    expect(ha.json(topic)).toMatchObject({
      rate: Math.round(rate / 1e5) / 10,
      lineRatePercent: lineRatePercent(rate, 100_000),
      loadedLatency: null,
      lastRunAt: run.endedAt!.toISOString(),
    });
    expect(ha.json(topic).rate).toBeGreaterThan(14_000);
    expect(ha.json(topic).rate).toBeLessThan(14_500);
    await waitFor("the alert sensor ON", () => ha.json(topic)?.alert === "ON");
    expect(await database.db.alert.count({ where: { linkId: watched, status: "firing" } })).toBe(1);
  });

  it("starts the link's last test when Home Assistant presses Run again, once an operator turned its button on", async () => {
    const press = () => ha.client.publishAsync(`wirespeed/link/${watched}/run`, "PRESS", { qos: 1 });
    const runs = () => database.db.run.count({ where: { linkId: watched } });
    expect(await runs()).toBe(1);
    await press();
    await waitFor("the press ignored", () =>
      log.some((line) => line.includes("ignored, its Home Assistant button is off")),
    );
    expect(await runs()).toBe(1);

    expect((await updateLink(watched, { homeAssistantRunButton: true })).homeAssistantRunButton).toBe(true);
    await press();
    await waitFor("a second run", async () => (await runs()) === 2);
    const [again, first] = await database.db.run.findMany({ where: { linkId: watched }, orderBy: { id: "desc" } });
    await app.runs.waitForRun(again!.id);
    expect(again!.options).toEqual(first!.options);
    expect(again!.clientSide).toBe(first!.clientSide);
    const audit = await database.db.auditEvent.findFirst({ where: { action: "run.start", targetId: again!.id } });
    expect(audit).toMatchObject({ actorName: "home-assistant", actorId: null });
    const ended = (await database.db.run.findUniqueOrThrow({ where: { id: again!.id } })).endedAt!.toISOString();
    await waitFor("the second run's state", () => ha.json(`wirespeed/link/${watched}/state`)?.lastRunAt === ended);
  });

  it("is offline through its last will when its connection is cut, and online again once it is back", async () => {
    const from = ha.messages.length;
    const statuses = () =>
      ha.messages
        .slice(from)
        .filter((message) => message.topic === "wirespeed/status")
        .map((message) => message.payload);
    (app.homeAssistant.connection!.stream as Socket).destroy();
    await waitFor("offline", () => statuses().includes("offline"));
    // Left retained while Wirespeed was away, a press reaches it at its next connect: not a press to act on.
    const command = `wirespeed/link/${watched}/run`;
    await ha.client.publishAsync(command, "PRESS", { qos: 1, retain: true });
    await waitFor("offline, then online", () => statuses().join(",").includes("offline,online"));
    await waitFor("the retained press ignored", () =>
      log.some((line) => line.includes("a retained press of Run again")),
    );
    await ha.client.publishAsync(command, "", { qos: 1, retain: true });
    await app.homeAssistant.settled();
    expect(await database.db.run.count({ where: { linkId: watched } })).toBe(2);
  });

  it("publishes every link again when the broker comes back having forgotten everything", async () => {
    const before = ha.json(`wirespeed/link/${watched}/state`);
    await ha.close();
    await broker.stop();
    await broker.start();
    ha = await subscribe(broker.url);
    await waitFor("the discovery again", () => configTopics(watched).every((topic) => ha.last(topic)?.payload));
    await waitFor("the state again", () => ha.last(`wirespeed/link/${watched}/state`));
    expect(ha.json(`wirespeed/link/${watched}/state`)).toStrictEqual(before);
    expect(ha.last("wirespeed/status")?.payload).toBe("online");
  });

  it("takes a deleted link's device out of Home Assistant with empty retained configs", async () => {
    await deleteLink(removed);
    const gone = [...configTopics(removed), `wirespeed/link/${removed}/state`];
    await waitFor("the empty configs", () => gone.every((topic) => ha.last(topic)?.payload === ""));
    const late = await subscribe(broker.url);
    try {
      await waitFor("the remaining link", () => configTopics(watched).every((topic) => late.last(topic)));
      expect(late.messages.filter((message) => gone.includes(message.topic))).toEqual([]);
    } finally {
      await late.close();
    }
  });

  it("ignores states of made-up links, and clears a retained one it finds at its next connect", async () => {
    const from = ha.messages.length;
    await app.homeAssistant.settled();
    // The link still there, and the one deleted above.
    expect(app.homeAssistant.rememberedLinkCount).toBe(2);
    const madeUp = Array.from({ length: 50 }, (_, index) => 900_000 + index);
    for (const id of madeUp) await ha.client.publishAsync(`wirespeed/link/${id}/state`, '{"rate":1}', { qos: 1 });
    // A press of a link that does not exist, after them, says when the publisher has read them all.
    await ha.client.publishAsync("wirespeed/link/999999/run", "PRESS", { qos: 1 });
    await waitFor("the press of no link", () => log.some((line) => line.includes("link 999999, which does not exist")));
    await app.homeAssistant.settled();
    // Nothing was published for them (no removal of a link that never was), and nothing of them is kept.
    const about = (id: number) => (message: Received) =>
      message.topic.includes(`wirespeed_link_${id}_`) || message.topic === `wirespeed/link/${id}/state`;
    const answered = ha.messages.slice(from).filter((message) => madeUp.some((id) => about(id)(message)));
    expect(answered.filter((message) => message.payload !== '{"rate":1}')).toEqual([]);
    expect(app.homeAssistant.rememberedLinkCount).toBe(2);

    // Retained on the broker, a made-up state comes back at the next connect as the broker's: it is cleared.
    const stale = `wirespeed/link/900100/state`;
    await ha.client.publishAsync(stale, '{"rate":2}', { qos: 1, retain: true });
    (app.homeAssistant.connection!.stream as Socket).destroy();
    await waitFor("the stale retained state cleared", () => ha.last(stale)?.payload === "");
    await app.homeAssistant.settled();
    // A new connection: it knows the one link there is, and kept nothing of the stale one.
    expect(app.homeAssistant.rememberedLinkCount).toBe(1);
  });

  it("never logs the broker's password, and says where it connected with the password cut out", () => {
    expect(log.join("\n")).not.toContain(PUBLISHER_PASSWORD);
    expect(log).toContain(
      `[wirespeed] Home Assistant: connected to mqtt://wirespeed:***@127.0.0.1:${broker.port}, publishing every link`,
    );
  });
});
