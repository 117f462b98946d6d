// Server time of GET /metrics with 500 links and 100,000 runs: the route handler called with a
// viewer's bearer token as Next.js calls it, end to end (auth, the database reads, prom-client's
// rendering), the median of several scrapes after a warm-up. Goal: under 200 ms.
// No lab needed: the rows are written with SQL, with outputs and environment snapshots of
// realistic sizes (a full scan of the Run table reads them all, so they must be there).
//   node --require ./testing/server-only.cjs --import tsx bench/metrics.bench.ts
//     [--links 500] [--runs 100000] [--scrapes 9] [--no-outputs] [--without-indexes] [--keep] [--smoke]
// --smoke: 20 links, 2,000 runs, 3 scrapes, the output checked the same way (its times mean little).
import Database from "better-sqlite3";
import os from "node:os";
import path from "node:path";

function readArgs(args: string[]) {
  const isSmoke = args.includes("--smoke");
  const value = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index >= 0 ? args[index + 1] : undefined;
  };
  return {
    isSmoke,
    links: Number(value("links") ?? (isSmoke ? 20 : 500)),
    runs: Number(value("runs") ?? (isSmoke ? 2_000 : 100_000)),
    scrapes: Number(value("scrapes") ?? (isSmoke ? 3 : 9)),
    outputs: !args.includes("--no-outputs"),
    withoutIndexes: args.includes("--without-indexes"),
    keep: args.includes("--keep"),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A deterministic stream of numbers in [0, 1): the same database at every run of the bench. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

// The tests people repeat on a link, as signatures and options; a link runs a few of them.
const TESTS = [
  { signature: "tcp a-to-b P1", options: { protocol: "tcp", parallel: 1, reverse: false, bidir: false } },
  { signature: "tcp b-to-a P1", options: { protocol: "tcp", parallel: 1, reverse: true, bidir: false } },
  { signature: "tcp a-to-b P4", options: { protocol: "tcp", parallel: 4, reverse: false, bidir: false } },
  { signature: "tcp bidir P1", options: { protocol: "tcp", parallel: 1, reverse: false, bidir: true } },
  { signature: "tcp a-to-b P8", options: { protocol: "tcp", parallel: 8, reverse: false, bidir: false } },
  {
    signature: "udp a-to-b P1 1000000000",
    options: { protocol: "udp", parallel: 1, reverse: false, bidir: false, bitrate: 1e9 },
  },
  {
    signature: "udp a-to-b P1 100000000",
    options: { protocol: "udp", parallel: 1, reverse: false, bidir: false, bitrate: 1e8 },
  },
  {
    signature: "udp b-to-a P1 500000000",
    options: { protocol: "udp", parallel: 1, reverse: true, bidir: false, bitrate: 5e8 },
  },
] as const;

const SPEEDS = [1000, 2500, 10_000, 25_000];

type Seeded = { links: number; runs: number; firing: number; viewerToken: string };

// --without-indexes: the two indexes of migration 20261230000000_imports_metrics that keep the
// scrape's reads in an index are dropped (the signature index as it was before), to show what they
// are worth: without them each read visits the runs' rows, outputs and all.
const WITHOUT_INDEXES = [
  `DROP INDEX IF EXISTS "Run_signature_results_idx"`,
  `DROP INDEX IF EXISTS "Run_source_status_startedAt_endedAt_idx"`,
  `CREATE INDEX IF NOT EXISTS "Run_linkId_signature_status_createdAt_idx" ON "Run"("linkId", "signature", "status", "createdAt")`,
];

async function seed(
  file: string,
  counts: { links: number; runs: number; outputs: boolean; withoutIndexes: boolean },
): Promise<Seeded> {
  const random = randomFrom(14);
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "+00:00");
  const now = Date.now();
  const hosts = Math.max(2, Math.ceil(counts.links / 2.5));
  const nicsPerHost = Math.ceil((counts.links * 2) / hosts) + 1;
  const insertHost = sqlite.prepare(
    `INSERT INTO "Host" ("name", "address", "authMethod", "platform", "reachable", "checkedAt", "updatedAt") VALUES (?, ?, 'key', 'linux', ?, ?, ?)`,
  );
  const insertNic = sqlite.prepare(
    `INSERT INTO "Nic" ("hostId", "name", "speedMbps", "mtu", "addresses", "updatedAt") VALUES (?, ?, ?, 9000, '[]', ?)`,
  );
  const insertLink = sqlite.prepare(
    `INSERT INTO "Link" ("name", "aNicId", "bNicId", "speedMbps", "baselineRuns", "importsInBaseline", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertExperiment = sqlite.prepare(
    `INSERT INTO "Experiment" ("kind", "name", "status", "plan", "createdAt") VALUES ('sweep', ?, 'succeeded', '{}', ?)`,
  );
  const insertRun = sqlite.prepare(
    `INSERT INTO "Run" ("linkId", "experimentId", "status", "clientSide", "source", "importHash", "options", "signature", "createdAt", "startedAt", "endedAt",
       "sentBitsPerSecond", "receivedBitsPerSecond", "retransmits", "jitterMs", "lostPackets", "packets", "lostPercent", ` +
      `"serverOutput", "clientOutput", "environment")
     VALUES (?, ?, ?, 'a', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertRule = sqlite.prepare(
    `INSERT INTO "AlertRule" ("name", "belowBaselinePercent", "updatedAt") VALUES ('slower than usual', 80, ?)`,
  );
  const insertAlert = sqlite.prepare(
    `INSERT INTO "Alert" ("ruleId", "linkId", "status", "title", "body", "openedAt", "resolvedAt") VALUES (?, ?, ?, 'below its baseline', '…', ?, ?)`,
  );
  // About what iperf3 3.12 prints for a 10 s test, per stream, and what an environment snapshot weighs.
  const outputOf = (parallel: number) =>
    counts.outputs
      ? "[  5]   0.00-1.00   sec   112 MBytes   941 Mbits/sec    0    380 KBytes\n".repeat(12 * parallel + 4)
      : "";
  const environment = counts.outputs
    ? JSON.stringify({ client: { nic: "x".repeat(700) }, server: { nic: "y".repeat(700) } })
    : null;

  let firing = 0;
  sqlite.transaction(() => {
    const nicIds: number[][] = [];
    for (let host = 0; host < hosts; host += 1) {
      // Most hosts were checked; a few never were, and a few did not answer.
      const checked = host % 10 !== 9;
      const hostId = Number(
        insertHost.run(
          `host-${host}`,
          `198.18.${host >> 8}.${host & 255}`,
          checked ? (host % 17 === 3 ? 0 : 1) : null,
          checked ? iso(now - 60_000) : null,
          iso(now),
        ).lastInsertRowid,
      );
      nicIds.push(
        Array.from({ length: nicsPerHost }, (_, nic) =>
          Number(insertNic.run(hostId, `eth${nic}`, SPEEDS[nic % SPEEDS.length], iso(now)).lastInsertRowid),
        ),
      );
    }
    const experiments = Array.from({ length: 200 }, (_, index) =>
      Number(insertExperiment.run(`sweep ${index}`, iso(now - index * 3_600_000)).lastInsertRowid),
    );
    const ruleId = Number(insertRule.run(iso(now)).lastInsertRowid);
    let hash = 0;
    for (let link = 0; link < counts.links; link += 1) {
      const aHost = link % hosts;
      const bHost =
        (aHost + 1 + (link % (hosts - 1))) % hosts === aHost
          ? (aHost + 1) % hosts
          : (aHost + 1 + (link % (hosts - 1))) % hosts;
      const speed = SPEEDS[link % SPEEDS.length]!;
      const baselineRuns = link % 9 === 0 ? 20 : link % 5 === 0 ? 5 : 10;
      const linkId = Number(
        insertLink.run(
          `link-${link}`,
          nicIds[aHost]![(link * 2) % nicsPerHost],
          nicIds[bHost]![(link * 2 + 1) % nicsPerHost],
          speed,
          baselineRuns,
          link % 7 === 0 ? 1 : 0,
          iso(now),
        ).lastInsertRowid,
      );
      // Four to six of the tests, the first one most often.
      const tests = TESTS.slice(0, 4 + (link % 3)).concat(
        link % 4 === 0 ? [TESTS[5]!, TESTS[6]!] : link % 4 === 1 ? [TESTS[7]!] : [],
      );
      const runsOfLink = Math.floor(counts.runs / counts.links) + (link < counts.runs % counts.links ? 1 : 0);
      for (let index = 0; index < runsOfLink; index += 1) {
        const test = tests[Math.min(tests.length - 1, Math.floor(random() ** 2 * tests.length))]!;
        const udp = test.options.protocol === "udp";
        const created = now - (runsOfLink - index) * 3 * 3_600_000 - Math.floor(random() * 3_000_000);
        const last = index === runsOfLink - 1;
        const roll = random();
        // The newest run of a few links is still going; of the rest, most succeed.
        const status =
          last && link % 50 === 0
            ? "running"
            : last && link % 50 === 1
              ? "queued"
              : roll < 0.9
                ? "succeeded"
                : roll < 0.95
                  ? "failed"
                  : roll < 0.98
                    ? "cancelled"
                    : "interrupted";
        const imported = status === "succeeded" && random() < 0.04;
        const experimentId =
          !imported && random() < 0.08 ? experiments[Math.floor(random() * experiments.length)]! : null;
        const started = status === "queued" ? null : created + 200 + Math.floor(random() * 1500);
        const seconds = random() < 0.9 ? 10 : random() < 0.7 ? 30 : 600;
        const ended =
          status === "queued" || status === "running"
            ? null
            : started! +
              (status === "succeeded" ? seconds * 1000 + Math.floor(random() * 2000) : Math.floor(random() * 5000));
        const rate =
          status === "succeeded"
            ? udp
              ? test.options.bitrate! * (0.97 + random() * 0.03)
              : speed * 1e6 * (0.85 + random() * 0.1)
            : null;
        const packets = udp && rate ? Math.round((rate * seconds) / 8 / 1448) : null;
        const lost = packets === null ? null : Math.floor(packets * random() * 0.002);
        insertRun.run(
          linkId,
          experimentId,
          status,
          imported ? "imported" : "wirespeed",
          imported ? `bench-${(hash += 1)}` : null,
          JSON.stringify({ ...test.options, duration: seconds, interval: 1, zerocopy: false }),
          test.signature,
          iso(created),
          started === null ? null : iso(started),
          ended === null ? null : iso(ended),
          rate,
          rate === null ? null : rate * 0.999,
          rate !== null && !udp ? Math.floor(random() * 40) : null,
          rate !== null && udp ? 0.01 + random() * 0.2 : null,
          lost,
          packets,
          packets ? (lost! / packets) * 100 : null,
          outputOf(test.options.parallel),
          outputOf(test.options.parallel),
          imported ? null : environment,
        );
      }
      // Every link had alerts; one in twelve has one firing now.
      insertAlert.run(ruleId, linkId, "resolved", iso(now - 86_400_000 * 3), iso(now - 86_400_000 * 2));
      if (link % 12 === 0) {
        insertAlert.run(ruleId, linkId, "firing", iso(now - 3_600_000), null);
        firing += 1;
      }
    }
  })();
  if (counts.withoutIndexes) for (const statement of WITHOUT_INDEXES) sqlite.exec(statement);
  sqlite.pragma("wal_checkpoint(TRUNCATE)");
  sqlite.close();

  const { createUser } = await import("../lib/auth/users");
  const { createApiToken } = await import("../lib/auth/tokens");
  const viewer = await createUser({ username: "grafana", password: "correct horse battery", role: "viewer" });
  const { token } = await createApiToken(viewer.id, "prometheus");
  return { links: counts.links, runs: counts.runs, firing, viewerToken: token };
}

async function main(): Promise<void> {
  const options = readArgs(process.argv.slice(2));
  const { connectAppDatabase, createTestDatabase } = await import("../testing/database");
  const database = createTestDatabase();
  // An app on this database: every module of lib/ reads and writes it (testing/database.ts).
  await connectAppDatabase(database.url);
  delete process.env.WIRESPEED_METRICS_PUBLIC;
  try {
    const seedStarted = performance.now();
    const seeded = await seed(path.join(database.dataDir, "wirespeed.db"), options);
    if (options.isSmoke) console.log("metrics: SMOKE RUN (--smoke)");
    console.log(
      `metrics: seeded ${seeded.links.toLocaleString("en")} links and ${seeded.runs.toLocaleString("en")} runs ` +
        `(${options.outputs ? "with" : "without"} outputs, ` +
        `${options.withoutIndexes ? "without the scrape's two indexes" : "indexes as migrated"}) ` +
        `in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    console.log(
      `metrics: node ${process.version}, ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(" ")}`,
    );

    const { GET } = await import("../app/metrics/route");
    // The body as the server sends it: bytes (decoding them is the scraper's work, not the server's).
    const scrape = async () => {
      const response = await GET(
        new Request("http://localhost/metrics", { headers: { authorization: `Bearer ${seeded.viewerToken}` } }),
      );
      if (response.status !== 200)
        throw new Error(`GET /metrics answered ${response.status}: ${await response.text()}`);
      return new Uint8Array(await response.arrayBuffer());
    };
    const { readMetricsSnapshot } = await import("../lib/metrics/read");
    const read = async () => readMetricsSnapshot();

    const first = performance.now();
    const body = new TextDecoder().decode(await scrape()); // warm-up: statement caches, the page cache, the process metrics' first collection
    const firstMs = performance.now() - first;
    const series = body.split("\n").filter((line) => line && !line.startsWith("#"));
    const received = series.filter((line) => line.startsWith("wirespeed_link_last_received_bits_per_second{")).length;
    const baselines = series.filter((line) => line.startsWith("wirespeed_link_baseline_bits_per_second{")).length;
    const firingLines = series.filter(
      (line) => line.startsWith("wirespeed_link_alert_firing{") && line.endsWith(" 1"),
    ).length;
    // A broken scrape must not post a fast time.
    if (received === 0 || baselines === 0 || firingLines !== seeded.firing)
      throw new Error(`unexpected output: ${received} received, ${baselines} baselines, ${firingLines} firing`);

    const times: number[] = [];
    for (let index = 0; index < options.scrapes; index += 1) {
      const started = performance.now();
      await scrape();
      times.push(performance.now() - started);
    }
    const readTimes: number[] = [];
    for (let index = 0; index < options.scrapes; index += 1) {
      const started = performance.now();
      await read();
      readTimes.push(performance.now() - started);
    }
    console.log(
      `metrics: ${series.length.toLocaleString("en")} series, ${(Buffer.byteLength(body) / 1024).toFixed(0)} KiB; ` +
        `${received} last-result series, ${baselines} baselines, ${firingLines} alerts firing`,
    );
    console.log(`metrics: first scrape (cold): ${firstMs.toFixed(1)} ms`);
    console.log(
      `metrics: GET /metrics, end to end: ${median(times).toFixed(1)} ms (median of ${options.scrapes}; ` +
        `min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`,
    );
    console.log(
      `metrics: of which the database reads (readMetricsSnapshot): ${median(readTimes).toFixed(1)} ms (median of ${options.scrapes})`,
    );
    const whole = median(times);
    console.log(`metrics: ${whole < 200 ? "PASS" : "MISS"} goal < 200 ms for a scrape: ${whole.toFixed(1)} ms`);
    const { db } = await import("../lib/db");
    await db.$disconnect();
  } finally {
    if (options.keep) console.log(`metrics: kept ${database.dataDir}`);
    else database.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
