import "server-only";
import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import type { AlertChanges } from "@/lib/alerts/changes";
import type { Principal } from "@/lib/auth/principal";
import { resolvePublicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { listLinkStatuses } from "@/lib/overview/link-status";
import { ACTIVE_RUN_STATUSES } from "@/lib/runs/contract";
import type { RunEngine } from "@/lib/runs/engine";
import { getApp } from "@/lib/running-app";
import {
  AVAILABILITY_TOPIC,
  COMMAND_TOPICS,
  discoveryMessages,
  linkIdOfTopic,
  OFFLINE,
  ONLINE,
  removalMessages,
  STATE_TOPICS,
  stateMessage,
  type MqttMessage,
} from "./discovery";
import { redactMqttUrl, type MqttSettings } from "./settings";

// Wirespeed in Home Assistant (app.homeAssistant, started by instrumentation.ts when
// WIRESPEED_MQTT_URL is set): each link's discovery configs and its state, retained, published at
// every connect, after each run ends, on each alert change and when links change; `wirespeed/status`
// says online, and the broker says offline for us (the last will) when the connection is lost.
// A press of a link's "Run again" starts its last test through the engine, if its switch is on.

/** Who a press of "Run again" acts as, in the audit log. */
export const HOME_ASSISTANT_ACTOR: Principal = {
  userId: null,
  name: "home-assistant",
  role: "operator",
  via: "system",
};

/** How often every link is read again, for runs other instances ran and for anything else missed. */
const RESYNC_MS = 60_000;
/** How long the stop waits to say offline before it closes the connection anyway. */
const STOP_TIMEOUT_MS = 2_000;

export type HomeAssistantDeps = {
  engine: Pick<RunEngine, "onRunEnded" | "rerun">;
  alertChanges: Pick<AlertChanges, "on">;
  /** mqtt.connect; tests may wrap it. */
  connect?: (url: string, options: IClientOptions) => MqttClient;
  log?: (line: string) => void;
  resyncMs?: number;
};

export class HomeAssistantPublisher {
  private client: MqttClient | null = null;
  private settings: MqttSettings | null = null;
  /** The payload last published to each topic since the connection was made: what is the same is not sent again. */
  private readonly published = new Map<string, string>();
  /**
   * The links whose discovery this connection published, and those of them it took out since: only
   * ids of links, so both stay as small as the inventory whatever ids the broker's messages name.
   */
  private readonly known = new Set<number>();
  private readonly removed = new Set<number>();
  /** Publishing is done one piece at a time, in order: a stale read never overwrites a newer state. */
  private work: Promise<void> = Promise.resolve();
  private readonly unsubscribes: Array<() => void> = [];
  private resync: NodeJS.Timeout | null = null;
  private readonly log: (line: string) => void;

  constructor(private readonly deps: HomeAssistantDeps) {
    this.log = deps.log ?? ((line) => console.log(line));
  }

  get isStarted(): boolean {
    return this.client !== null;
  }

  /** How many link ids this connection keeps (published, or taken out since), whatever ids the broker's messages name (tests). */
  get rememberedLinkCount(): number {
    return this.known.size + this.removed.size;
  }

  /** The broker connection while started (a test cuts it to see the last will). */
  get connection(): MqttClient | null {
    return this.client;
  }

  /** Connects to the broker and keeps connecting (every second) whenever the connection is lost. */
  start(settings: MqttSettings): void {
    if (this.client) return;
    this.settings = settings;
    const connect = this.deps.connect ?? mqtt.connect;
    const client = connect(settings.url, {
      // Left out when unset: a user and password in the URL are the login then.
      ...(settings.username === undefined ? {} : { username: settings.username }),
      ...(settings.password === undefined ? {} : { password: settings.password }),
      clientId: `wirespeed-${getApp().instance.id}`.slice(0, 64),
      reconnectPeriod: 1_000,
      // Subscribed at each connect by onConnect, after the configs: a second subscription would have the broker send its retained messages twice.
      resubscribe: false,
      connectTimeout: 10_000,
      will: { topic: AVAILABILITY_TOPIC, payload: Buffer.from(OFFLINE), qos: 1, retain: true },
    });
    this.client = client;
    const where = redactMqttUrl(settings.url);
    let hasSaidError = false;
    client.on("connect", () => {
      hasSaidError = false;
      this.log(`[wirespeed] Home Assistant: connected to ${where}, publishing every link`);
      this.published.clear();
      this.known.clear();
      this.removed.clear();
      this.enqueue("connect", () => this.onConnect());
    });
    client.on("error", (error) => {
      // Once until the next connection: a broker that stays down is said once, not every second.
      if (hasSaidError) return;
      hasSaidError = true;
      this.log(`[wirespeed] Home Assistant: MQTT broker ${where}: ${error.message}`);
    });
    client.on("offline", () => {
      if (!hasSaidError) this.log(`[wirespeed] Home Assistant: lost ${where}, connecting again`);
      hasSaidError = true;
    });
    client.on("message", (topic, payload, packet) => this.onMessage(topic, payload.toString(), packet.retain));
    this.unsubscribes.push(
      this.deps.engine.onRunEnded((runId) => this.enqueue(`run ${runId}`, () => this.publishRunLink(runId))),
      this.deps.alertChanges.on(({ linkId }) =>
        this.enqueue(`alerts of link ${linkId}`, () => this.publishLinks(linkId)),
      ),
    );
    this.resync = setInterval(() => this.enqueue("resync", () => this.publishLinks()), this.deps.resyncMs ?? RESYNC_MS);
    this.resync.unref();
  }

  /** The links changed (created, renamed, deleted): their entities follow. */
  linksChanged(): void {
    if (this.client) this.enqueue("links", () => this.publishLinks());
  }

  /** Waits for what was asked so far to be published (tests). */
  async settled(): Promise<void> {
    let seen: Promise<void> | null = null;
    while (seen !== this.work) {
      seen = this.work;
      await seen;
    }
  }

  /** Says offline (as the last will would) and closes the connection; within 2 s whatever the broker does. */
  async stop(): Promise<void> {
    const client = this.client;
    if (!client) return;
    this.client = null;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    if (this.resync) clearInterval(this.resync);
    this.resync = null;
    const offline = client.connected
      ? client.publishAsync(AVAILABILITY_TOPIC, OFFLINE, { qos: 1, retain: true }).then(() => undefined)
      : Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      offline.catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    await client.endAsync(true).catch(() => undefined);
  }

  private enqueue(what: string, task: () => Promise<void>): void {
    this.work = this.work.then(task).catch((error: unknown) => {
      this.log(`[wirespeed] Home Assistant: publishing (${what}): ${error instanceof Error ? error.message : error}`);
    });
  }

  private async onConnect(): Promise<void> {
    const client = this.client;
    if (!client) return;
    await client.publishAsync(AVAILABILITY_TOPIC, ONLINE, { qos: 1, retain: true });
    await this.publishLinks();
    // After the configs: a retained state of a link deleted while Wirespeed was away comes back and is cleared.
    await client.subscribeAsync([COMMAND_TOPICS, STATE_TOPICS], { qos: 1 });
  }

  private async publishRunLink(runId: number): Promise<void> {
    const run = await db.run.findUnique({ where: { id: runId }, select: { linkId: true } });
    if (run) await this.publishLinks(run.linkId);
  }

  /**
   * Every link's discovery and state (or one link's), and the removal of links that are gone: those
   * this connection published, and with `clearStale` the one asked for (a retained state the broker
   * kept of a link deleted while Wirespeed was away).
   */
  private async publishLinks(linkId?: number, { clearStale = false } = {}): Promise<void> {
    const client = this.client;
    const settings = this.settings;
    // Not connected: the next connect publishes everything.
    if (!client?.connected || !settings) return;
    const statuses = await listLinkStatuses(linkId === undefined ? {} : { linkId });
    const messages: MqttMessage[] = [];
    const publicUrl = resolvePublicUrl();
    for (const link of statuses) {
      messages.push(...discoveryMessages(link, settings.prefix, publicUrl), stateMessage(link));
      this.known.add(link.id);
    }
    const present = new Set(statuses.map((link) => link.id));
    const gone =
      linkId === undefined
        ? [...this.known].filter((id) => !present.has(id))
        : present.has(linkId) || !(clearStale || this.known.has(linkId))
          ? []
          : [linkId];
    for (const id of gone) {
      messages.push(...removalMessages(id, settings.prefix));
      if (this.known.delete(id)) this.removed.add(id);
    }
    await this.publish(client, messages);
  }

  private async publish(client: MqttClient, messages: MqttMessage[]): Promise<void> {
    const changed = messages.filter((message) => this.published.get(message.topic) !== message.payload);
    await Promise.all(
      changed.map(async (message) => {
        await client.publishAsync(message.topic, message.payload, { qos: 1, retain: true });
        // An empty retained payload deletes the topic: nothing of it is kept either.
        if (message.payload === "") this.published.delete(message.topic);
        else this.published.set(message.topic, message.payload);
      }),
    );
  }

  private onMessage(topic: string, payload: string, isRetained: boolean): void {
    const stateOf = linkIdOfTopic(topic, "state");
    if (stateOf !== null) {
      // Our own states come back too, those of links it took out included. A retained one of a link this
      // connection never knew is what the broker kept of a link deleted while Wirespeed was away:
      // cleared. A live one is anybody's message: a link it names is published, an id that is no link
      // is ignored, and nothing of it is kept.
      if (payload !== "" && !this.known.has(stateOf) && !this.removed.has(stateOf))
        this.enqueue(`unknown link ${stateOf}`, () => this.publishLinks(stateOf, { clearStale: isRetained }));
      return;
    }
    const pressed = linkIdOfTopic(topic, "run");
    // Empty: a retained press being cleared, no press.
    if (pressed === null || payload === "") return;
    // A retained press would start a run at every connect: only a press as it happens counts.
    if (isRetained) {
      this.log(
        `[wirespeed] Home Assistant: a retained press of Run again of link ${pressed} ignored (clear it: publish an empty retained message to ${topic})`,
      );
      return;
    }
    this.enqueue(`Run again of link ${pressed}`, () => this.pressRunAgain(pressed));
  }

  /** A press of a link's "Run again": its last test again, when an operator turned its switch on. */
  private async pressRunAgain(linkId: number): Promise<void> {
    const link = await db.link.findUnique({
      where: { id: linkId },
      select: { name: true, homeAssistantRunButton: true },
    });
    if (!link) {
      this.log(`[wirespeed] Home Assistant pressed Run again of link ${linkId}, which does not exist: ignored`);
      return;
    }
    const named = `link ${link.name} (${linkId})`;
    if (!link.homeAssistantRunButton) {
      this.log(
        `[wirespeed] Home Assistant pressed Run again of ${named}: ignored, its Home Assistant button is off (an operator turns it on on the link's page)`,
      );
      return;
    }
    const active = await db.run.findFirst({
      where: { linkId, status: { in: [...ACTIVE_RUN_STATUSES] } },
      select: { id: true, status: true },
    });
    if (active) {
      this.log(
        `[wirespeed] Home Assistant pressed Run again of ${named}: ignored, run ${active.id} is ${active.status}`,
      );
      return;
    }
    const last = await db.run.findFirst({
      where: { linkId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    if (!last) {
      this.log(`[wirespeed] Home Assistant pressed Run again of ${named}: ignored, the link has no test to repeat yet`);
      return;
    }
    try {
      const run = await getApp().principals.run(HOME_ASSISTANT_ACTOR, () => this.deps.engine.rerun(last.id));
      this.log(`[wirespeed] Home Assistant pressed Run again of ${named}: run ${run.id}, the test of run ${last.id}`);
    } catch (error) {
      this.log(
        `[wirespeed] Home Assistant pressed Run again of ${named}: not started: ${error instanceof Error ? error.message : error}`,
      );
    }
  }
}
