// The latency bench's third part: a run started as a script starts one, through the REST API over
// loopback HTTP (POST /api/links/:id/runs with a bearer token, then GET /api/runs/:id/events), timed
// from the request to the first `sample` event the script decodes. The route handlers are the app's
// own (app/api/...), served by a node:http server in this process that hands them a web Request and
// streams their Response back, as the Next server does; they reach the app that withLabEngine installed
// (getApp()). Each moment of the start between (the engine's steps: lib/runs/start-marks.ts) is stamped
// on the same clock, so the bench prints where the set-up goes.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/** What a script sees of one run through the API, each moment in ms from its POST. */
export type ApiRun = {
  runId: number;
  status: string;
  samples: number;
  /** POST sent → 202 read; 202 → events stream open; engine marks; → first sample published, → decoded */
  moments: Record<string, number>;
  toFirstSampleMs: number;
};

export const API_TOKEN = "wirespeed-latency-bench-token-8d1e4f";

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;

/** A web Request of the node one, its body read whole (the API's bodies are small JSON). */
async function webRequest(
  request: http.IncomingMessage,
  response: http.ServerResponse,
  origin: string,
): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === "string") headers.set(name, value);
  const abort = new AbortController();
  // The script went away (an event stream it stopped reading): the route's request.signal says so.
  response.once("close", () => abort.abort());
  return new Request(new URL(request.url ?? "/", origin), {
    method: request.method,
    headers,
    body: request.method === "GET" || request.method === "HEAD" ? undefined : body,
    signal: abort.signal,
  });
}

/** Serves the two routes a script uses to start a run and follow it, on 127.0.0.1; returns its origin and close(). */
export async function serveRunRoutes(): Promise<{ origin: string; close: () => Promise<void> }> {
  process.env.WIRESPEED_API_TOKEN = API_TOKEN;
  const [linkRuns, runEvents] = await Promise.all([
    import("../app/api/links/[id]/runs/route"),
    import("../app/api/runs/[id]/events/route"),
  ]);
  const routes: Array<[string, RegExp, Handler]> = [
    ["POST", /^\/api\/links\/(\d+)\/runs$/, linkRuns.POST as Handler],
    ["GET", /^\/api\/runs\/(\d+)\/events$/, runEvents.GET as Handler],
  ];
  let origin = "";
  const server = http.createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
      const route = routes.find(([method, pattern]) => method === request.method && pattern.test(path));
      if (!route) {
        response.writeHead(404).end();
        return;
      }
      const id = route[1].exec(path)![1]!;
      const answer = await route[2](await webRequest(request, response, origin), { params: Promise.resolve({ id }) });
      response.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
      response.flushHeaders();
      if (!answer.body) return void response.end();
      Readable.fromWeb(answer.body as import("node:stream/web").ReadableStream<Uint8Array>).pipe(response);
    })().catch((error: unknown) => {
      console.error("latency: route failed:", error);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads an SSE body to its end, calling `onEvent` for each event as it is decoded. */
export async function readEventStream(
  body: NonNullable<Response["body"]>,
  onEvent: (event: { id: number; event: string; data: string; at: number }) => void,
): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let id = Number.NaN;
      let event = "";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) id = Number(line.slice(4));
        else if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data = line.slice(6);
      }
      if (event) onEvent({ id, event, data, at: performance.now() });
    }
  }
}

/**
 * One run as a script starts it: POST, then the event stream until it ends. `marks` are the engine's
 * moments of this run's start (start-marks.ts) and `firstPublished` the first sample on the bus, both
 * filled in by the caller's listeners on the same clock.
 */
export async function runThroughApi(
  origin: string,
  linkId: number,
  body: Record<string, unknown>,
  follow: (runId: number) => { marks: Map<string, number>; firstPublished: () => number | null },
): Promise<ApiRun> {
  const authorization = `Bearer ${API_TOKEN}`;
  const sentAt = performance.now();
  const posted = await fetch(`${origin}/api/links/${linkId}/runs`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const run = (await posted.json()) as { id: number };
  const answeredAt = performance.now();
  if (posted.status !== 202) throw new Error(`POST /api/links/${linkId}/runs: ${posted.status} ${JSON.stringify(run)}`);
  const followed = follow(run.id);
  const events = await fetch(`${origin}/api/runs/${run.id}/events`, { headers: { authorization } });
  const openedAt = performance.now();
  if (events.status !== 200 || !events.body) throw new Error(`GET /api/runs/${run.id}/events: ${events.status}`);
  let firstDecoded: number | null = null;
  let samples = 0;
  let status = "";
  await readEventStream(events.body, (event) => {
    if (event.event === "sample") {
      samples += 1;
      firstDecoded ??= event.at;
    } else if (event.event === "status") status = (JSON.parse(event.data) as { status: string }).status;
  });
  const firstPublished = followed.firstPublished();
  if (firstDecoded === null || firstPublished === null) throw new Error(`run ${run.id}: no sample reached the script`);
  const moments: Record<string, number> = { "202 read": answeredAt - sentAt, "events open": openedAt - sentAt };
  for (const [mark, at] of followed.marks) moments[mark] = at - sentAt;
  moments["first sample published"] = firstPublished - sentAt;
  moments["first sample decoded"] = firstDecoded - sentAt;
  return { runId: run.id, status, samples, moments, toFirstSampleMs: firstDecoded - sentAt };
}
