import "server-only";
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { BusEvent, EventBus } from "@/lib/runs/bus";

// Live events across instances on Postgres, with LISTEN/NOTIFY. The instance that runs a test
// publishes each event of its bus (a sample, a status, the summary) on a channel; every other
// instance listens and replays it into its own bus with the same id (EventBus.relay), so that a
// viewer's SSE stream on any instance gets every sample, in order, and Last-Event-ID resumes on any.
//
//   order     one connection sends every notification of an instance, one after the other: Postgres
//             delivers the notifications of one session in the order they were sent.
//   size      a notification's payload stays under Postgres's 8000 bytes: a larger event (a sample of
//             128 streams) is sent in numbered parts, joined again on arrival.
//   loss      a connection that drops is opened again after a second; events sent meanwhile are not
//             seen live by the others' viewers, who read them from the database when the run ends.

const PART_BYTES = 7_000;
const RECONNECT_MS = 1_000;

type Envelope<Type extends string> =
  | { i: string; r: number; e: BusEvent<Type> | null }
  | { i: string; r: number; m: string; n: number; of: number; d: string };

export type RelayHandle = { stop: () => Promise<void> };

/**
 * Sends `bus`'s events on `channel` and replays the other instances' into it. `instance` tells this
 * instance's own notifications apart (a session hears its own NOTIFY).
 */
export async function startBusRelay<Type extends string>({
  url,
  channel,
  bus,
  instance,
}: {
  url: string;
  channel: string;
  bus: EventBus<Type>;
  instance: string;
}): Promise<RelayHandle> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  let sending: Promise<unknown> = Promise.resolve();
  const parts = new Map<string, string[]>();

  const receive = (payload: string) => {
    let envelope: Envelope<Type>;
    try {
      envelope = JSON.parse(payload) as Envelope<Type>;
    } catch {
      return;
    }
    if (envelope.i === instance) return;
    if ("e" in envelope) {
      bus.relay(envelope.r, envelope.e);
      return;
    }
    const got = parts.get(envelope.m) ?? new Array<string>(envelope.of).fill("");
    got[envelope.n] = envelope.d;
    parts.set(envelope.m, got);
    if (envelope.n !== envelope.of - 1) return;
    parts.delete(envelope.m);
    try {
      bus.relay(envelope.r, JSON.parse(got.join("")) as BusEvent<Type>);
    } catch {
      // a part was lost while a connection dropped: the viewers read the run from the database at its end
    }
  };

  const notify = (payloads: string[]) => {
    sending = sending.then(async () => {
      for (const payload of payloads) {
        const client = sender.client();
        if (!client) return;
        await client.query("SELECT pg_notify($1, $2)", [channel, payload]).catch(() => undefined);
      }
    });
  };

  const [sender, listener] = await Promise.all([keptConnection(url, async () => {}), listenOn(url, channel, receive)]);
  const untap = bus.tap((runId, event) => {
    const whole = JSON.stringify({ i: instance, r: runId, e: event } satisfies Envelope<Type>);
    if (Buffer.byteLength(whole) <= PART_BYTES) return notify([whole]);
    // In parts, cut on characters so that none is split.
    const text = JSON.stringify(event);
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += PART_BYTES / 4) chunks.push(text.slice(at, at + PART_BYTES / 4));
    const m = randomBytes(6).toString("hex");
    notify(
      chunks.map((d, n) =>
        JSON.stringify({ i: instance, r: runId, m, n, of: chunks.length, d } satisfies Envelope<Type>),
      ),
    );
  });

  return {
    async stop() {
      untap();
      await sending;
      await Promise.all([sender.stop(), listener.stop()]);
    },
  };
}

/** A connection opened again a second after it drops; `prepare` runs on each new one before it is used. */
async function keptConnection(
  url: string,
  prepare: (client: pg.Client) => Promise<void>,
): Promise<{ client: () => pg.Client | null; stop: () => Promise<void> }> {
  let isStopped = false;
  let current: pg.Client | null = null;
  const connect = async (): Promise<void> => {
    if (isStopped) return;
    const next = new pg.Client({ connectionString: url });
    const retry = () => {
      if (current === next) current = null;
      next.end().catch(() => {});
      if (!isStopped) setTimeout(() => void connect().catch(() => undefined), RECONNECT_MS).unref();
    };
    next.on("error", retry);
    try {
      await next.connect();
      await prepare(next);
      current = next;
    } catch {
      retry();
    }
  };
  await connect();
  return {
    client: () => current,
    async stop() {
      isStopped = true;
      await current?.end().catch(() => {});
    },
  };
}

/**
 * Follows `channel` on its own connection (opened again a second after it drops) and calls `onPayload`
 * with each notification's payload: other instances' events, and the requests one instance sends
 * another (a cancel, a schedule changed).
 */
export async function listenOn(
  url: string,
  channel: string,
  onPayload: (payload: string) => void,
): Promise<RelayHandle> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  const connection = await keptConnection(url, async (client) => {
    client.on("notification", (message) => {
      if (message.payload) onPayload(message.payload);
    });
    await client.query(`LISTEN ${channel}`);
  });
  return { stop: connection.stop };
}
