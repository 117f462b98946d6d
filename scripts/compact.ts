// `npm run compact -- [--keep-days N] [--vacuum]`: sample retention now, as the app does daily.
// Deletes the interval samples of runs that ended more than N days ago (default
// WIRESPEED_SAMPLES_KEEP_DAYS, else 180), keeping each run's thinned series and stream totals.
// --vacuum then rewrites the database so that the file shrinks (it needs as much free disk as
// the file's size, and holds every write meanwhile: run it when no test is running).
import fs from "node:fs";
import { resolveDatabase, resolveDatabaseFile } from "../lib/config";
import { compactRuns, samplesKeepDays, vacuumDatabase } from "../lib/runs/retention";
// The app built from the environment: its database client is the one lib/ reads and writes.
import { getApp } from "../lib/app";

const USAGE = `usage: npm run compact -- [--keep-days N] [--vacuum]

  --keep-days N   keep every sample of runs that ended in the last N days (0: keep all);
                  default: WIRESPEED_SAMPLES_KEEP_DAYS, else 180
  --vacuum        then rewrite the database to give the freed space back to the disk
`;

function sizeOf(file: string): string {
  const bytes = ["", "-wal"].reduce(
    (sum, suffix) => sum + (fs.existsSync(file + suffix) ? fs.statSync(file + suffix).size : 0),
    0,
  );
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

async function main(args: string[]): Promise<number> {
  let keepDaysText: string | undefined;
  let vacuum = false;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === "--help" || arg === "-h") {
      process.stdout.write(USAGE);
      return 0;
    } else if (arg === "--vacuum") vacuum = true;
    else if (arg === "--keep-days" && index + 1 < args.length) keepDaysText = args[++index];
    else if (arg.startsWith("--keep-days=")) keepDaysText = arg.slice("--keep-days=".length);
    else {
      process.stderr.write(`compact: unexpected argument "${arg.slice(0, 80)}"\n\n${USAGE}`);
      return 2;
    }
  }
  let keepDays: number;
  try {
    keepDays = samplesKeepDays(
      keepDaysText === undefined ? process.env : { WIRESPEED_SAMPLES_KEEP_DAYS: keepDaysText },
    );
  } catch (error) {
    const setting = keepDaysText === undefined ? "WIRESPEED_SAMPLES_KEEP_DAYS" : "--keep-days";
    process.stderr.write(`compact: ${(error as Error).message.replace("WIRESPEED_SAMPLES_KEEP_DAYS", setting)}\n`);
    return 2;
  }
  const database = resolveDatabase();
  if (database.kind === "postgres") {
    // Postgres reuses the space itself (autovacuum); --vacuum asks for a VACUUM of the samples now.
    process.stdout.write(`database postgres ${database.host}:${database.port}/${database.database}\n`);
    if (keepDays !== 0) {
      const result = await compactRuns({ keepDays });
      process.stdout.write(
        `compacted ${result.runs} run(s) that ended more than ${keepDays} days ago: ` +
          `${result.samples} samples deleted, their thinned series and stream totals kept\n`,
      );
    }
    if (vacuum) await vacuumDatabase();
    return 0;
  }
  const file = resolveDatabaseFile();
  if (!fs.existsSync(file)) {
    process.stderr.write(`compact: no database at ${file} (set WIRESPEED_DATA_DIR or DATABASE_URL)\n`);
    return 1;
  }
  process.stdout.write(`database ${file}: ${sizeOf(file)}\n`);
  if (keepDays === 0) process.stdout.write("keeping every sample (0 days: forever)\n");
  else {
    const result = await compactRuns({ keepDays });
    process.stdout.write(
      `compacted ${result.runs} run(s) that ended more than ${keepDays} days ago: ` +
        `${result.samples} samples deleted, their thinned series and stream totals kept\n`,
    );
  }
  if (vacuum) {
    await vacuumDatabase();
    process.stdout.write(`vacuumed: ${sizeOf(file)}\n`);
  } else process.stdout.write("the file keeps its size until --vacuum; its free pages are reused by new runs\n");
  return 0;
}

main(process.argv.slice(2))
  .then(async (code) => {
    await getApp().db.$disconnect();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    process.stderr.write(`compact: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}\n`);
    await getApp()
      .db.$disconnect()
      .catch(() => undefined);
    process.exit(1);
  });
