// Test support: one Wirespeed instance as its own process, for the lab test of several instances on
// one Postgres database (lib/instances/instances.lab.test.ts). It starts as the server does
// (instrumentation.ts: the shared key checked, the heartbeat and the relays started, then the
// scheduler) and serves a few routes over node:http that call the same lib/ functions as the Next
// routes they stand in for: a Next build per test would take minutes.
//   node --require ./testing/server-only.cjs --import tsx testing/instance-process.ts [port]
// From the environment: DATABASE_URL, WIRESPEED_INSTANCE, WIRESPEED_INSTANCE_LEASE_SECONDS,
// WIRESPEED_SECRET, WIRESPEED_DATA_DIR. Prints `listening <port>` once it serves; another live process
// of its name stops it at start with exit code 1, as the server (lib/instances/registry.ts).
//
//   POST /runs             a run request plus linkId (POST /api/links/:id/runs): 201 and the run's JSON
//   GET  /runs/:id/events  the run's server-sent events (GET /api/runs/:id/events), after Last-Event-ID
//   GET  /health           databaseHealth() (GET /api/health): ok, and which instance answered
//   POST /scheduler/poke   re-read the schedules now, as a schedule edited through this instance does
//                          (lib/schedules/store.ts); otherwise an edit made elsewhere is seen within 60 s
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { errorResponse } from "@/lib/api/errors";
import { databaseHealth } from "@/lib/api/rows";
import { getApp } from "@/lib/app";
import { startInstanceRegistry } from "@/lib/instances/registry";
import { checkSharedKey } from "@/lib/instances/shared-key";
import { openRunEventStream } from "@/lib/runs/events";
import { parseRunRequest } from "@/lib/runs/request";

async function readJson(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
}

/** A web Response (what the Next routes answer) written to a node:http one. */
async function send(response: http.ServerResponse, answer: Response): Promise<void> {
  response.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
  response.end(await answer.text());
}

async function main(): Promise<void> {
  const app = getApp();
  await checkSharedKey();

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const events = /^\/runs\/(\d+)\/events$/.exec(url.pathname);
    void (async () => {
      try {
        if (request.method === "POST" && url.pathname === "/runs") {
          const { linkId, ...body } = (await readJson(request)) as { linkId: number } & Record<string, unknown>;
          const run = await app.runs.startRun({ linkId, ...parseRunRequest(body) });
          return await send(response, Response.json(run, { status: 201 }));
        }
        if (request.method === "GET" && events) {
          // The stream ends when the client goes away (the route's request.signal).
          const abort = new AbortController();
          response.once("close", () => abort.abort());
          const after = Number(request.headers["last-event-id"] ?? 0);
          const body = openRunEventStream(Number(events[1]), after, abort.signal, app.runBus);
          response.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache" });
          response.flushHeaders();
          Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>).pipe(response);
          return;
        }
        if (request.method === "GET" && url.pathname === "/health") {
          return await send(response, Response.json(await databaseHealth()));
        }
        if (request.method === "POST" && url.pathname === "/scheduler/poke") {
          app.scheduler.poke();
          return await send(response, new Response(null, { status: 204 }));
        }
        await send(response, Response.json({ error: "no such route" }, { status: 404 }));
      } catch (error) {
        await send(response, errorResponse(error, "instance-process"));
      }
    })();
  });
  // Listening first, so that the heartbeat says the port another instance's refusal names; ready once started.
  await new Promise<void>((resolve) => server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  process.env.PORT = String(port);
  await startInstanceRegistry(app.instances);
  await app.scheduler.start();
  console.log(`listening ${port}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
