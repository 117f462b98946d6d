// Server time of the link page with 10,000 runs and 1,000,000 samples on the link: every read
// app/links/[id]/page.tsx makes (the ends, the history chart, the runs table, the streams filter,
// experiments, alerts, schedules, baselines and findings), as it makes them, and on their own the
// reads the page repeats in the browser while a run is active (GET /api/links/:id/history, the
// runs table) and the overview's read, which GET /api/overview answers. Each the median of
// several reads after a warm-up. Goal: under 100 ms for the page's reads.
// No lab needed: the rows are written with SQL (bench/fill.ts), shaped as the engine stores them:
// a schedule's runs every 10 minutes (TCP ×4, TCP both ways ×4, UDP), iperf3 outputs and
// environment snapshots of realistic size, one sample per second of a 75 s test with each stream's
// values (both directions of a bidirectional run): about 1,000,000 samples. On SQLite, or with
// --postgres on a throwaway Postgres cluster (port 55632 unless --postgres-port) with the same rows.
//   node --require ./testing/server-only.cjs --import tsx bench/link-page.bench.ts [--runs 10000] [--samples-per-run 75] [--repeat 7] [--without-new-indexes] [--postgres]
//   ... bench/link-page.bench.ts --smoke [--postgres]    # 300 runs of 20 samples: a few seconds
import { DAY_MS, fillRuns, seedLab, withoutGrowthIndexes } from "./fill";
import { openBenchDatabase } from "./fill-database";
import { loadLinkPageReads } from "./link-page-reads";
import { argValue, loadAverage, machineLine, timed } from "./timing";

const GOAL_MS = 100;
const EVERY_MS = 600_000;

function readArgs(args: string[]) {
  const smoke = args.includes("--smoke");
  return {
    runs: Number(argValue(args, "runs") ?? (smoke ? 300 : 10_000)),
    samplesPerRun: Number(argValue(args, "samples-per-run") ?? (smoke ? 20 : 75)),
    repeat: Number(argValue(args, "repeat") ?? (smoke ? 3 : 7)),
    withoutNewIndexes: args.includes("--without-new-indexes"),
    postgres: args.includes("--postgres"),
    postgresPort: argValue(args, "postgres-port") === undefined ? undefined : Number(argValue(args, "postgres-port")),
  };
}

function check(condition: unknown, message: string): asserts condition {
  // A broken read must not post a fast time.
  if (!condition) throw new Error(`link-page: wrong result: ${message}`);
}

async function main(): Promise<void> {
  const options = readArgs(process.argv.slice(2));
  const database = await openBenchDatabase({ postgres: options.postgres, port: options.postgresPort });
  const fill = database.fill;
  try {
    const seedStarted = performance.now();
    if (options.withoutNewIndexes) await withoutGrowthIndexes(fill);
    const end = Math.floor(Date.now() / EVERY_MS) * EVERY_MS;
    const from = end - options.runs * EVERY_MS;
    // The ninth link of the lab is a 10G link tested three ways: TCP ×4, TCP both ways ×4 and UDP.
    const lab = await seedLab(fill, { links: 9, createdAt: from - DAY_MS, seconds: options.samplesPerRun });
    const link = lab.links[8]!;
    const filled = await fillRuns(
      fill,
      { ...lab, links: [link] },
      { from, to: end, samplesFrom: from, seed: 2, everyMs: EVERY_MS },
    );
    const seeded = (performance.now() - seedStarted) / 1000;
    await fill.settle();
    const counts = {
      runs: (await fill.value<number>(`SELECT COUNT(*) FROM "Run"`))!,
      samples: (await fill.value<number>(`SELECT COUNT(*) FROM "Sample"`))!,
      succeeded: (await fill.value<number>(`SELECT COUNT(*) FROM "Run" WHERE "status" = 'succeeded'`))!,
    };
    const size = await fill.size();
    const version = await fill.version();
    console.log(
      `link-page: ${version}: seeded ${counts.runs.toLocaleString("en")} runs (${filled.skipped} starts skipped) ` +
        `and ${counts.samples.toLocaleString("en")} samples on ${link.name} ` +
        `in ${seeded.toFixed(1)} s` +
        `${database.kind === "postgres" ? ` (VACUUM ANALYZE after it ${((performance.now() - seedStarted) / 1000 - seeded).toFixed(1)} s)` : ""}; ` +
        `${size.mb.toFixed(0)} MB${database.kind === "postgres" ? " (pg_database_size)" : ""}; ` +
        `${options.withoutNewIndexes ? "WITHOUT the indexes of 20270102000000_growth_indexes" : "indexes as migrated"}`,
    );
    console.log(`link-page: ${machineLine()}`);

    const queries = { ...(await import("../lib/runs/link-reads")), ...(await import("../lib/runs/lists")) };
    const { getLinkHints } = await import("../lib/diagnosis/reads");
    const { listSchedules } = await import("../lib/schedules/store");
    const { getLinkBaseline } = await import("../lib/alerts/baseline");
    const linkId = link.id;
    const linkPage = await loadLinkPageReads();
    const withoutSchedules = () => linkPage.withoutSchedules(linkId);
    const page = () => linkPage.page(linkId);
    const repeat = options.repeat;
    const results: Array<[string, number]> = [];
    const add = async <T>(label: string, body: () => Promise<T>, verify: (value: T) => void) => {
      const result = await timed(body, repeat);
      verify(result.value);
      results.push([label, result.ms]);
      return result.ms;
    };
    const whole = await add(
      "the whole link page: every read",
      page,
      ([[, ends, history, rows, streams, , , baseline], schedules]) => {
        check(ends?.name === link.name, "the link's ends");
        check(
          history.points.length === Math.min(2000, counts.succeeded),
          `${history.points.length} history points for ${counts.succeeded} succeeded runs`,
        );
        check(
          rows.runs.length === 25 && rows.total === counts.runs,
          `a first page of ${rows.runs.length} of ${rows.total} runs`,
        );
        check(streams.join(",") === "1,4", `stream counts ${streams.join(",")}`);
        check(baseline?.signatures.length === 3, "three baselines");
        check(
          schedules.length === 3 && schedules.every((schedule) => schedule.lastRun !== null),
          "the link's three schedules and their last starts",
        );
      },
    );
    await add("every read but the schedules' (listSchedules)", withoutSchedules, () => {});
    await add(
      "the four reads of the earlier figures (ends, history, runs page 1, stream counts)",
      () =>
        Promise.all([
          queries.getLinkEnds(linkId),
          queries.getLinkHistory({ linkId }),
          queries.listRunRows({ filters: { linkId }, page: 1 }),
          queries.listLinkStreamCounts(linkId),
        ]),
      () => {},
    );
    await add(
      "history: newest 2,000 points and the active count (GET /api/links/:id/history)",
      () => queries.getLinkHistory({ linkId }),
      (history) => check(history.points.length > 0, "no history"),
    );
    await add(
      "runs table, page 1 (GET /api/runs?linkId=)",
      () => queries.listRunRows({ filters: { linkId }, page: 1 }),
      (rows) => check(rows.runs.length === 25, "page 1"),
    );
    const deep = Math.max(1, Math.floor(counts.runs / 25 / 4) * 3);
    await add(
      `runs table, page ${deep}`,
      () => queries.listRunRows({ filters: { linkId }, page: deep }),
      (rows) => check(rows.runs.length === 25, `page ${deep}`),
    );
    await add(
      "runs table, TCP ×4 A to B",
      () => queries.listRunRows({ filters: { linkId, protocol: "tcp", parallel: 4, direction: "a-to-b" }, page: 1 }),
      (rows) =>
        check(
          rows.runs.length === 25 && rows.runs.every((run) => run.direction === "a-to-b" && run.options.parallel === 4),
          "TCP ×4 A to B",
        ),
    );
    await add(
      "runs list (/runs, GET /api/runs), page 1",
      () => queries.listRunRows({ page: 1 }),
      (rows) => check(rows.runs.length === 25, "the runs list"),
    );
    await add(
      "schedules (listSchedules)",
      () => listSchedules({ linkId }),
      (schedules) => check(schedules.length === 3, "schedules"),
    );
    await add(
      "baselines (getLinkBaseline)",
      () => getLinkBaseline(linkId),
      () => {},
    );
    await add(
      "findings (getLinkHints)",
      () => getLinkHints(linkId),
      () => {},
    );
    // The overview asks for this every 2 s while a run is active (components/overview/OverviewBoard.tsx).
    const overview = await import("../lib/overview/reads");
    const now = new Date(end + 60_000);
    await add(
      "overview, 24 h (GET /api/overview)",
      () => overview.getOverview({ range: "24h", now }),
      (value) => check(value.links.length === 9, "nine cards"),
    );
    await add(
      "overview, 7 days (GET /api/overview?range=7d)",
      () => overview.getOverview({ range: "7d", now }),
      (value) => check(value.timeline.runs.length > 0, "a timeline"),
    );
    for (const [label, ms] of results)
      console.log(`link-page: ${version}: ${label}: ${ms.toFixed(1)} ms (median of ${repeat})`);
    console.log(`link-page: measured at load average ${loadAverage()}`);
    console.log(
      `link-page: ${version}: ${whole < GOAL_MS ? "PASS" : "MISS"} goal < ${GOAL_MS} ms for the page's reads: ${whole.toFixed(1)} ms`,
    );
  } finally {
    await database.remove();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
