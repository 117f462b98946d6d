import "server-only";
import { db } from "@/lib/db";
import { getApp } from "@/lib/running-app";
import { type BusEvent, type EventBus, type RunEvent, type RunEventBus } from "./bus";
import { isFinalStatus, sampleEventFromRow } from "./contract";
import { RUN_LABELS, runJson } from "./serialize";

// Server-sent events of one run: `status`, `sample`, `summary`, `error`. Live runs
// are served from the in-process bus (one SSH stream, any number of viewers);
// finished ones from the database, in the same shape and with the same ids.

const encoder = new TextEncoder();
const SAMPLE_PAGE = 1000;
const HEARTBEAT_MS = 15_000;

export function formatSse(event: BusEvent<string>): Uint8Array {
  return encoder.encode(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
}

/**
 * The response of an event stream route. Its principal is asked again while it lasts
 * (withApiAuth, lib/api/stream-access.ts): the stream ends when that access ends.
 */
export function eventStreamResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      // nginx and similar proxies would otherwise hold the stream back.
      "X-Accel-Buffering": "no",
    },
  });
}

/** Last-Event-ID (header, or `lastEventId` in the query for clients that cannot set headers) as a sample count. */
export function resumePoint(request: Request): number {
  const raw = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId");
  const value = raw && /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
  return value;
}

/** Replays a run that is not live from the database, then ends the stream. */
async function replayFromDatabase(runId: number, after: number, send: (event: RunEvent) => void): Promise<void> {
  const run = await db.run.findUnique({
    where: { id: runId },
    include: { link: { select: { id: true, name: true, speedMbps: true } }, labels: RUN_LABELS },
  });
  if (!run) return;
  const json = runJson(run, run.link);
  let count = after;
  for (;;) {
    const samples = await db.sample.findMany({
      where: { runId, seq: { gte: count } },
      orderBy: { seq: "asc" },
      take: SAMPLE_PAGE,
      omit: { id: true, runId: true },
    });
    for (const sample of samples) {
      count = sample.seq + 1;
      send({ id: count, type: "sample", data: sampleEventFromRow(sample) });
    }
    if (samples.length < SAMPLE_PAGE) break;
  }
  if (json.summary) send({ id: count, type: "summary", data: json.summary });
  if (json.error) send({ id: count, type: "error", data: json.error });
  send({ id: count, type: "status", data: { status: json.status } });
}

/**
 * The SSE body for one run, from sample `after` on. It closes after the run's
 * final status, or when the client goes away (`signal`).
 */
export function openRunEventStream(
  runId: number,
  after: number,
  signal: AbortSignal,
  bus: RunEventBus = getApp().runBus,
): ReadableStream<Uint8Array> {
  return openEventStream({
    bus,
    id: runId,
    after,
    signal,
    replay: (send) => replayFromDatabase(runId, after, send),
    isFinal: isFinalStatus,
  });
}

/**
 * An SSE body that follows `bus` for `id` (replaying what the viewer missed), or, when the
 * bus no longer has it, replays the stored state with `replay`. It closes after a `status`
 * event whose status `isFinal`, or when the client goes away (`signal`).
 */
export function openEventStream<Type extends string>({
  bus,
  id,
  after,
  signal,
  replay,
  isFinal,
}: {
  bus: EventBus<Type>;
  id: number;
  after: number;
  signal: AbortSignal;
  replay: (send: (event: BusEvent<Type>) => void) => Promise<void>;
  isFinal: (status: string) => boolean;
}): ReadableStream<Uint8Array> {
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let isClosed = false;
      const close = () => {
        if (isClosed) return;
        isClosed = true;
        cleanup();
        try {
          controller.close();
        } catch {
          // Already closed by the client.
        }
      };
      const send = (event: BusEvent<Type>) => {
        if (isClosed) return;
        controller.enqueue(formatSse(event));
        if (event.type === "status" && isFinal((event.data as { status: string }).status)) close();
      };
      const heartbeat = setInterval(() => {
        // A comment line keeps proxies from closing an idle stream (a queued run can wait long).
        if (!isClosed) controller.enqueue(encoder.encode(": keep-alive\n\n"));
      }, HEARTBEAT_MS);
      const unsubscribe = bus.subscribe(id, after, send);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe?.();
        signal.removeEventListener("abort", close);
      };
      signal.addEventListener("abort", close);
      if (!unsubscribe) {
        replay(send).then(close, (error: unknown) => {
          if (!isClosed) controller.error(error);
          cleanup();
        });
      }
    },
    cancel() {
      cleanup();
    },
  });
}
