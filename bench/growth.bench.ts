// Years of runs: 50 links each tested every hour, for 1 year, then grown to 3 (about 1.3 million
// runs), in a fresh SQLite database filled with SQL (bench/fill.ts). At 1 year and at 3 years it
// prints the database's size and the server time of the pages and REST reads that grow with the
// runs: the overview (24 h and 7 days), one link's page (every read the page makes), the runs list
// (page 1, a later page, filtered) and GET /api/runs (with and without filters), each the median
// of several reads after a warm-up, and how each grew from 1 year to 3. Goal: every page < 300 ms.
// Samples are kept for the last 180 days only (retention compacts older runs between the two).
// With --postgres the same rows go into a throwaway Postgres cluster (port 55632 unless
// --postgres-port), VACUUM ANALYZE after each fill; its size is pg_database_size.
// --days equal to --first-days measures one point only.
//   node --require ./testing/server-only.cjs --import tsx bench/growth.bench.ts
//     [--links 50] [--first-days 365] [--days 1095] [--repeat 7] [--without-new-indexes] [--keep] [--postgres]
//   ... bench/growth.bench.ts --database /tmp/wirespeed-test-XXXX [--repeat 5]   # the reads only, on a SQLite database kept with --keep
//   ... bench/growth.bench.ts --smoke [--postgres]     # 10 links (every kind of test), 2 then 6 weeks: a few seconds
import Database from "better-sqlite3";
import path from "node:path";
import { addActivity, compactSamples, DAY_MS, fillRuns, HOUR_MS, seedLab, withoutGrowthIndexes } from "./fill";
import { openBenchDatabase, openSqliteFill, type FillDatabase } from "./fill-database";
import { loadLinkPageReads } from "./link-page-reads";
import { argValue, loadAverage, machineLine, timed } from "./timing";

const GOAL_MS = 300;
const KEEP_SAMPLES_DAYS = 180;

function readArgs(args: string[]) {
  const smoke = args.includes("--smoke");
  return {
    smoke,
    links: Number(argValue(args, "links") ?? (smoke ? 10 : 50)),
    firstDays: Number(argValue(args, "first-days") ?? (smoke ? 14 : 365)),
    days: Number(argValue(args, "days") ?? (smoke ? 42 : 1095)),
    repeat: Number(argValue(args, "repeat") ?? (smoke ? 3 : 7)),
    withoutNewIndexes: args.includes("--without-new-indexes"),
    keep: args.includes("--keep"),
    database: argValue(args, "database"),
    postgres: args.includes("--postgres"),
    postgresPort: argValue(args, "postgres-port") === undefined ? undefined : Number(argValue(args, "postgres-port")),
  };
}

type Reading = { label: string; page: boolean; ms: number; max: number };

function check(condition: unknown, message: string): asserts condition {
  // A broken read must not post a fast time.
  if (!condition) throw new Error(`growth: wrong result: ${message}`);
}

/** What the reads need to know of the lab: its links, and how many tests each one's schedules run. */
type LabLinks = { links: Array<{ id: number; name: string; schedules: unknown[] }> };

/** The links of a database filled before (--database), read back from it. */
function readLab(file: string): LabLinks & { at: number } {
  const sqlite = new Database(file, { readonly: true });
  const links = sqlite.prepare(`SELECT "id", "name" FROM "Link" ORDER BY "id"`).all() as Array<{
    id: number;
    name: string;
  }>;
  const schedules = sqlite.prepare(`SELECT "id", "linkId" FROM "Schedule"`).all() as Array<{
    id: number;
    linkId: number;
  }>;
  const newest = sqlite.prepare(`SELECT MAX("createdAt") FROM "Run"`).pluck().get() as string;
  sqlite.close();
  return {
    links: links.map((link) => ({ ...link, schedules: schedules.filter((schedule) => schedule.linkId === link.id) })),
    at: Date.parse(newest) + 60_000,
  };
}

async function measure(
  lab: LabLinks,
  at: number,
  repeat: number,
  token: string,
  fill: FillDatabase,
): Promise<Reading[]> {
  const { getOverview } = await import("../lib/overview/reads");
  const { listHosts } = await import("../lib/inventory/hosts");
  const { listLinkNames } = await import("../lib/runs/link-reads");
  const { listRunRows } = await import("../lib/runs/lists");
  const linkPage = await loadLinkPageReads();
  const runsApi = await import("../app/api/runs/route");
  const historyApi = await import("../app/api/links/[id]/history/route");

  const runCount = (await fill.value<number>(`SELECT COUNT(*) FROM "Run"`))!;
  // The link with the most tests (TCP both ways and UDP): its page has the most to read.
  const link = lab.links[8] ?? lab.links.at(-1)!;
  const linkRuns = (await fill.value<number>(`SELECT COUNT(*) FROM "Run" WHERE "linkId" = ?`, [link.id]))!;
  const newest = (await fill.value<number>(`SELECT "id" FROM "Run" ORDER BY "createdAt" DESC, "id" DESC LIMIT 1`))!;
  const failed = (await fill.value<number>(`SELECT COUNT(*) FROM "Run" WHERE "status" = 'failed'`))!;
  const laterPage = Math.max(2, Math.min(1000, Math.floor(runCount / 25 / 2)));
  const get = async (
    route: { GET: (request: Request, context: never) => Promise<Response> },
    url: string,
    context: unknown = undefined,
  ) => {
    const response = await route.GET(
      new Request(`http://localhost${url}`, { headers: { authorization: `Bearer ${token}` } }),
      context as never,
    );
    check(response.status === 200, `${url} answered ${response.status}`);
    return response.json() as Promise<Record<string, unknown>>;
  };

  console.log(
    `growth: ${runCount.toLocaleString("en")} runs; the link page of ${link.name}: ${linkRuns.toLocaleString("en")} runs`,
  );
  const readings: Reading[] = [];
  const add = async <T>(label: string, page: boolean, body: () => Promise<T>, verify: (value: T) => void) => {
    const result = await timed(body, repeat);
    verify(result.value);
    readings.push({ label, page, ms: result.ms, max: result.max });
  };
  const now = new Date(at);

  await add(
    "overview page, 24 h (cards, counts, timeline, hosts)",
    true,
    () => Promise.all([getOverview({ range: "24h", now }), listHosts({ localFirst: true })]),
    ([overview, hosts]) => {
      check(
        overview.links.length === lab.links.length && overview.links.every((card) => card.latest !== null),
        "a card without its latest result",
      );
      check(overview.counts.runs === runCount, `counted ${overview.counts.runs} runs, not ${runCount}`);
      check(
        overview.links.some((card) => card.active !== null),
        "no active run on the cards",
      );
      check(overview.timeline.runs.length > 0 && hosts.length > 0, "no timeline");
    },
  );
  await add(
    "GET /api/overview?range=7d (its read and JSON)",
    false,
    async () => JSON.stringify(await getOverview({ range: "7d", now })),
    (body) => check(body.length > 1000, "empty overview"),
  );

  await add(
    "link page, every read",
    true,
    () => linkPage.page(link.id),
    ([[, ends, history, table, streams, , , baseline], schedules]) => {
      check(ends?.name === link.name, "the link's name");
      check(history.points.length > 0 && history.points.length <= 2000, `${history.points.length} history points`);
      check(
        table.runs.length === 25 && table.runs.every((run) => run.linkId === link.id),
        "the link's first table page",
      );
      check(table.total === linkRuns, `a total of ${table.total}, not ${linkRuns}`);
      check(streams.length > 0, "no stream counts");
      check(
        schedules.length === link.schedules.length && schedules.every((schedule) => schedule.lastRun !== null),
        "the link's schedules and their last starts",
      );
      check(
        (baseline?.signatures.length ?? 0) === link.schedules.length,
        `${baseline?.signatures.length} baselines for ${link.schedules.length} tests`,
      );
    },
  );
  await add(
    "GET /api/links/:id/history (polled while a run is active)",
    false,
    () => get(historyApi, `/api/links/${link.id}/history`, { params: Promise.resolve({ id: String(link.id) }) }),
    (body) => check((body.points as unknown[]).length > 0, "no history"),
  );
  await add(
    "link page's table, TCP ×4 B to A, page 2",
    false,
    () => listRunRows({ filters: { linkId: link.id, protocol: "tcp", direction: "b-to-a", parallel: 4 }, page: 2 }),
    (page) =>
      check(
        page.runs.every((run) => run.direction === "b-to-a"),
        "a run of the wrong direction",
      ),
  );

  await add(
    "runs list (/runs), page 1",
    true,
    () => Promise.all([listRunRows({ filters: {}, page: 1 }), listLinkNames()]),
    ([table]) => {
      check(table.runs.length === 25 && table.runs[0]!.id === newest, "the newest run first");
      check(table.total === runCount, `a total of ${table.total}, not ${runCount}`);
    },
  );
  await add(
    `runs list, page ${laterPage.toLocaleString("en")}`,
    true,
    () => Promise.all([listRunRows({ filters: {}, page: laterPage }), listLinkNames()]),
    ([table]) => check(table.runs.length === 25, "a later page"),
  );
  await add(
    "runs list, failed runs (status filter)",
    true,
    () => Promise.all([listRunRows({ filters: { status: "failed" }, page: 1 }), listLinkNames()]),
    ([table]) => {
      check(
        table.runs.length === Math.min(25, failed) && table.runs.every((run) => run.status === "failed"),
        "failed runs",
      );
      check(table.total === failed, `a total of ${table.total} failed, not ${failed}`);
    },
  );
  await add(
    "runs list, UDP runs (protocol filter)",
    true,
    () => Promise.all([listRunRows({ filters: { protocol: "udp" }, page: 1 }), listLinkNames()]),
    ([table]) => check(table.runs.length > 0 && table.runs.every((run) => run.options.protocol === "udp"), "UDP runs"),
  );
  await add(
    "GET /api/runs",
    false,
    () => get(runsApi, "/api/runs"),
    (body) => check((body.runs as unknown[]).length === 25, "GET /api/runs"),
  );
  await add(
    "GET /api/runs?linkId=",
    false,
    () => get(runsApi, `/api/runs?linkId=${link.id}`),
    (body) => check((body.runs as unknown[]).length === 25, "GET /api/runs?linkId="),
  );
  await add(
    "GET /api/runs?status=failed&pageSize=100",
    false,
    () => get(runsApi, "/api/runs?status=failed&pageSize=100"),
    (body) => check((body.runs as unknown[]).length === Math.min(100, failed), "failed runs"),
  );
  await add(
    "GET /api/runs?protocol=tcp&direction=b-to-a&parallel=4",
    false,
    () => get(runsApi, "/api/runs?protocol=tcp&direction=b-to-a&parallel=4"),
    (body) =>
      check(
        (body.runs as Array<{ direction: string }>).every((run) => run.direction === "b-to-a"),
        "b-to-a runs",
      ),
  );
  return readings;
}

/** --database: the reads of a database kept by an earlier run (--keep), without filling it again. */
async function measureKept(folder: string, repeat: number): Promise<void> {
  const file = path.join(folder, "wirespeed.db");
  const { connectAppDatabase } = await import("../testing/database");
  await connectAppDatabase(`file:${file}`);
  const lab = readLab(file);
  const { db } = await import("../lib/db");
  const { createUser } = await import("../lib/auth/users");
  const { createApiToken } = await import("../lib/auth/tokens");
  const viewer = await createUser({
    username: `dashboard-${Date.now()}`,
    password: "correct horse battery",
    role: "viewer",
  });
  const { token } = await createApiToken(viewer.id, "growth bench");
  const fill = openSqliteFill(file, { readonly: true });
  const size = await fill.size();
  console.log(`growth: ${machineLine()}`);
  console.log(`growth: ${folder}: ${lab.links.length} links, ${size.mb.toFixed(0)} MB`);
  for (const reading of await measure(lab, lab.at, repeat, token, fill))
    console.log(
      `growth: ${reading.label}: ${reading.ms.toFixed(1)} ms (median of ${repeat}, max ${reading.max.toFixed(1)})`,
    );
  await fill.close();
  console.log(`growth: measured at load average ${loadAverage()}`);
  await db.$disconnect();
}

async function main(): Promise<void> {
  const options = readArgs(process.argv.slice(2));
  if (options.database) return measureKept(options.database, options.repeat);
  if (options.postgres && options.keep)
    throw new Error("--keep: SQLite only (the Postgres cluster is removed at the end)");
  // An app on a fresh database: every module of lib/ reads and writes it (testing/database.ts).
  const database = await openBenchDatabase({ postgres: options.postgres, port: options.postgresPort });
  const fill = database.fill;
  try {
    const end = Math.floor(Date.now() / HOUR_MS) * HOUR_MS;
    const start = end - options.days * DAY_MS;
    const firstEnd = start + options.firstDays * DAY_MS;
    if (options.withoutNewIndexes) await withoutGrowthIndexes(fill);
    const lab = await seedLab(fill, { links: options.links, createdAt: start - DAY_MS });
    const version = await fill.version();
    console.log(`growth: ${machineLine()}`);
    console.log(
      `growth: ${version}: ${lab.links.length} links between ${lab.hosts} hosts, ` +
        `${lab.links.reduce((sum, link) => sum + link.schedules.length, 0)} schedules; ` +
        `${options.withoutNewIndexes ? "WITHOUT the new indexes" : "indexes as migrated"}`,
    );

    const { createUser } = await import("../lib/auth/users");
    const { createApiToken } = await import("../lib/auth/tokens");
    const viewer = await createUser({ username: "dashboard", password: "correct horse battery", role: "viewer" });
    const { token } = await createApiToken(viewer.id, "growth bench");

    const points: Array<{
      label: string;
      readings: Reading[];
      runs: number;
      samples: number;
      size: { mb: number; usedMb: number | null };
    }> = [];
    let totals = { runs: 0, samples: 0 };
    let settle = async () => {};
    const spans: Array<readonly [string, number, number]> = [[`${options.firstDays} days`, start, firstEnd]];
    if (options.days !== options.firstDays) spans.push([`${options.days} days`, firstEnd, end]);
    for (const [label, from, to] of spans) {
      const started = performance.now();
      await settle();
      const compacted = await compactSamples(fill, to - KEEP_SAMPLES_DAYS * DAY_MS);
      const filled = await fillRuns(fill, lab, {
        from,
        to,
        samplesFrom: to - KEEP_SAMPLES_DAYS * DAY_MS,
        seed: Math.round(from / HOUR_MS),
      });
      settle = (await addActivity(fill, lab, to)).settle;
      const written = performance.now();
      await fill.settle();
      totals = { runs: totals.runs + filled.runs + 2, samples: totals.samples + filled.samples - compacted };
      const size = await fill.size();
      console.log(
        `growth: ${version}: ${label}: added ${filled.runs.toLocaleString("en")} runs (${filled.skipped} starts skipped) ` +
          `and ${filled.samples.toLocaleString("en")} samples` +
          `${compacted ? `, compacted ${compacted.toLocaleString("en")} samples older than ${KEEP_SAMPLES_DAYS} days` : ""}` +
          ` in ${((written - started) / 1000).toFixed(0)} s` +
          ` (${fill.kind === "postgres" ? "VACUUM ANALYZE" : "WAL checkpoint"} ${((performance.now() - written) / 1000).toFixed(0)} s); ` +
          `now ${totals.runs.toLocaleString("en")} runs, ${totals.samples.toLocaleString("en")} samples, ` +
          `${size.mb.toFixed(0)} MB ${size.usedMb === null ? "(pg_database_size)" : `(${size.usedMb.toFixed(0)} MB in use)`}`,
      );
      const readings = await measure(lab, to + 60_000, options.repeat, token, fill);
      console.log(`growth: ${label}: measured at load average ${loadAverage()}`);
      for (const reading of readings)
        console.log(
          `growth: ${version}: ${label}: ${reading.label}: ${reading.ms.toFixed(1)} ms (median of ${options.repeat}, max ${reading.max.toFixed(1)})`,
        );
      points.push({ label, readings, runs: totals.runs, samples: totals.samples, size });
    }

    // The table: one column per point (and their ratio when there are two), the database named.
    const first = points[0]!;
    const last = points.at(-1)!;
    const two = points.length > 1;
    const row = (name: string, cell: (point: (typeof points)[number]) => string, ratio: number) =>
      console.log(`| ${name} | ${points.map(cell).join(" | ")} |${two ? ` ${ratio.toFixed(2)} |` : ""}`);
    console.log("");
    console.log(`| ${version} | ${points.map((point) => point.label).join(" | ")} |${two ? " ratio |" : ""}`);
    console.log(`| --- |${points.map(() => " ---: |").join("")}${two ? " ---: |" : ""}`);
    row("runs", (point) => point.runs.toLocaleString("en"), last.runs / first.runs);
    row("samples", (point) => point.samples.toLocaleString("en"), last.samples / first.samples);
    row(
      fill.kind === "postgres" ? "database size (pg_database_size)" : "database file",
      (point) => `${point.size.mb.toFixed(0)} MB`,
      last.size.mb / first.size.mb,
    );
    for (const [index, reading] of last.readings.entries())
      row(
        reading.label,
        (point) => `${point.readings[index]!.ms.toFixed(1)} ms`,
        reading.ms / first.readings[index]!.ms,
      );
    const pages = points.flatMap((point) => point.readings.filter((reading) => reading.page));
    const slowest = pages.reduce((worst, reading) => (reading.ms > worst.ms ? reading : worst));
    console.log(
      `growth: ${version}: ${slowest.ms < GOAL_MS ? "PASS" : "MISS"} goal < ${GOAL_MS} ms for every page: the slowest is ${slowest.label} at ${slowest.ms.toFixed(1)} ms`,
    );
  } finally {
    if (options.keep) console.log(`growth: kept ${database.dataDir}`);
    await database.remove({ keep: options.keep });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
