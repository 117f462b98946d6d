// Requests per second of a share link's page (/s/TOKEN), the page a forum's readers all open at
// once: goal 200 requests/s. A loopback HTTP server in this process answers /s/TOKEN as the page
// does (lib/shares getSharedPage: the share looked up by its token, what it shows from the cache;
// then the page's HTML rendered with react-dom/server from components/shares/SharedViews), and a
// client sends requests, several at a time, for a few seconds:
//   baseline: the same server reading what the share shows from the database at every request
//             (what the page would cost without the cache: the run, its link's ends, its chart);
//   cached:   as the page serves it.
// The shared run is a finished 10-minute, 8-stream run at 1 s intervals, written with SQL.
// Next.js's own work per request (routing, the RSC payload) is not in these figures: with
// WIRESPEED_BENCH_SHARE_URL (a /s/TOKEN of a running production server, `npm start`) the same client
// also loads that URL, and prints its figure beside them.
//   node --require ./testing/server-only.cjs --import tsx bench/shares.bench.ts [--seconds 5] [--concurrency 16] [--smoke]
import Database from "better-sqlite3";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { insertBenchLink } from "./bench-link";
import { argValue, machineLine } from "./timing";
import { storedRunOptions } from "../testing/run-options";

const GOAL_PER_SECOND = 200;

function readArgs(args: string[]) {
  const isSmoke = args.includes("--smoke");
  const number = (name: string, fallback: number, smoke: number) => {
    const raw = argValue(args, name);
    const parsed = raw === undefined ? (isSmoke ? smoke : fallback) : Number(raw);
    if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 600)
      throw new Error(`--${name} must be a number from 1 to 600, not ${JSON.stringify(raw)}`);
    return parsed;
  };
  return { isSmoke, seconds: number("seconds", 5, 0.5), concurrency: Math.round(number("concurrency", 16, 4)) };
}

/** A finished run of `samples` 1 s intervals × `streams` on the bench link; its id. */
function seed(file: string, { samples, streams }: { samples: number; streams: number }): number {
  const sqlite = new Database(file);
  const now = new Date().toISOString().replace("Z", "+00:00");
  const linkId = insertBenchLink(sqlite, now, { nicFigures: true });
  const options = storedRunOptions({ duration: samples, parallel: streams });
  const runId = Number(
    sqlite
      .prepare(
        `INSERT INTO "Run" ("linkId", "status", "clientSide", "options", "createdAt", "startedAt", "endedAt", ` +
          `"sentBitsPerSecond", "receivedBitsPerSecond", "retransmits", "sentBytes", "receivedBytes") ` +
          `VALUES (?, 'succeeded', 'a', ?, ?, ?, ?, 9.5e8, 9.4e8, 12, 7.1e10, 7.0e10)`,
      )
      .run(linkId, JSON.stringify(options), now, now, now).lastInsertRowid,
  );
  const insertSample = sqlite.prepare(
    `INSERT INTO "Sample" ("runId", "seq", "start", "end", "direction", "bytes", "bitsPerSecond", "retransmits", ` +
      `"omitted", "streams") VALUES (?, ?, ?, ?, 'forward', ?, ?, 0, 0, ?)`,
  );
  sqlite.transaction(() => {
    for (let seq = 0; seq < samples; seq += 1) {
      const values = Array.from({ length: streams }, (_, index) => {
        const bitsPerSecond = 1.15e8 + ((seq * 7 + index * 13) % 100) * 1e5;
        return { id: 5 + 2 * index, bytes: Math.round(bitsPerSecond / 8), bitsPerSecond, retransmits: 0 };
      });
      const total = values.reduce((sum, stream) => sum + stream.bitsPerSecond, 0);
      insertSample.run(runId, seq, seq, seq + 1, total / 8, total, JSON.stringify(values));
    }
  })();
  sqlite.close();
  return runId;
}

type Load = { requests: number; perSecond: number; failures: number; bytes: number };

/** Sends GET `url` from `concurrency` loops for `seconds`; every answer must be 200 and hold `expected`. */
async function load(url: string, { seconds, concurrency }: { seconds: number; concurrency: number }, expected: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const get = () =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(url, { agent }, (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (body += chunk));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
        })
        .on("error", reject);
    });
  const result: Load = { requests: 0, perSecond: 0, failures: 0, bytes: 0 };
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const answer = await get();
        result.requests += 1;
        result.bytes = answer.body.length;
        if (answer.status !== 200 || !answer.body.includes(expected)) result.failures += 1;
      }
    }),
  );
  result.perSecond = result.requests / ((performance.now() - started) / 1000);
  agent.destroy();
  return result;
}

async function main(): Promise<void> {
  const { isSmoke, seconds, concurrency } = readArgs(process.argv.slice(2));
  const { connectAppDatabase, createTestDatabase } = await import("../testing/database");
  const database = createTestDatabase();
  await connectAppDatabase(database.url);
  let server: http.Server | null = null;
  try {
    const runId = seed(path.join(database.dataDir, "wirespeed.db"), { samples: 600, streams: 8 });
    console.log(`shares: ${isSmoke ? "SMOKE RUN (--smoke): " : ""}one finished run of 600 s × 8 streams`);
    console.log(`shares: ${machineLine()}`);
    const { createShare, findOpenShare } = await import("../lib/shares/store");
    const { getSharedPage, readSharedContent } = await import("../lib/shares/page-data");
    const { SharedPageView } = await import("../components/shares/SharedViews");
    const share = await createShare(
      { kind: "run", id: runId, expiresInDays: 30, hideAddresses: true },
      { origin: "http://127.0.0.1" },
    );
    const token = share.url.split("/s/")[1]!;

    // What the page does per request, with or without the cache; a 404 for any other token.
    let isCached = true;
    const pageOf = async (asked: string) => {
      if (isCached) return getSharedPage(asked);
      const open = await findOpenShare(asked);
      if (!open) return null;
      const { content } = await readSharedContent(open);
      return content ? { content, hideAddresses: open.hideAddresses, expiresAt: null } : null;
    };
    server = http.createServer((request, response) => {
      const asked = /^\/s\/([^/?]+)$/.exec(request.url ?? "")?.[1] ?? "";
      pageOf(asked).then(
        (page) => {
          if (!page) {
            response.writeHead(404, { "x-robots-tag": "noindex" }).end("not found");
            return;
          }
          const html = `<!DOCTYPE html><html lang="en"><head><meta name="robots" content="noindex"></head><body>${renderToString(createElement(SharedPageView, { page }))}</body></html>`;
          response.writeHead(200, { "content-type": "text/html; charset=utf-8", "x-robots-tag": "noindex" }).end(html);
        },
        (error: unknown) => {
          console.error(`shares: ${String(error)}`);
          response.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/s/${token}`;
    const expected = `Run #${runId}`;

    // Warm-up: module loading, statement caches, the database file in the page cache, the JIT.
    isCached = false;
    await load(url, { seconds: Math.min(seconds, 1), concurrency }, expected);
    const baseline = await load(url, { seconds, concurrency }, expected);
    isCached = true;
    await load(url, { seconds: Math.min(seconds, 1), concurrency }, expected);
    const cached = await load(url, { seconds, concurrency }, expected);
    const report = (label: string, figures: Load) =>
      console.log(
        `shares: ${label}: ${figures.perSecond.toFixed(0)} requests/s (${figures.requests} in ${seconds} s, ` +
          `${concurrency} at a time, ${(figures.bytes / 1024).toFixed(0)} KiB of HTML each)`,
      );
    report("baseline (read at every request)", baseline);
    report("cached (as the page serves it)", cached);
    console.log(`shares: the cache serves ${(cached.perSecond / baseline.perSecond).toFixed(1)}× the baseline`);
    const serverUrl = process.env.WIRESPEED_BENCH_SHARE_URL;
    let production: Load | null = null;
    if (serverUrl) {
      await load(serverUrl, { seconds: Math.min(seconds, 1), concurrency }, "read-only copy");
      production = await load(serverUrl, { seconds, concurrency }, "read-only copy");
      report(`production server (${serverUrl.replace(/\/s\/.*/, "/s/…")})`, production);
      console.log(
        `shares: the production server serves ${(production.perSecond / cached.perSecond).toFixed(1)}× this process's cached page`,
      );
      if (production.failures > 0)
        throw new Error(`wrong result: ${production.failures} answers of the server were not its page`);
    }
    const failures = baseline.failures + cached.failures;
    if (failures > 0) throw new Error(`wrong result: ${failures} answers were not the shared run's page`);
    const hidden = await (await fetch(url)).text();
    if (hidden.includes("bench-a") || hidden.includes("198.18.200."))
      throw new Error("wrong result: the page names a host or an address it hides");
    const revokedAnswer = await (async () => {
      const { revokeShare } = await import("../lib/shares/store");
      await revokeShare(share.id);
      return (await fetch(url)).status;
    })();
    if (revokedAnswer !== 404) throw new Error(`wrong result: a revoked share answered ${revokedAnswer}`);
    // The goal is the production server's when one was named: that is what a forum's readers meet.
    const judged = production ?? cached;
    console.log(
      `shares: goal ${GOAL_PER_SECOND} requests/s${production ? " (production server)" : ""}: ` +
        `${judged.perSecond >= GOAL_PER_SECOND ? "met" : "MISSED"}` +
        (isSmoke ? " (smoke run: the figures mean little)" : ""),
    );
  } finally {
    server?.close();
    database.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
