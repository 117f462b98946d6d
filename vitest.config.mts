import { defineConfig } from "vitest/config";
import path from "node:path";
import { fileURLToPath } from "node:url";

const __dirname = path.dirname(fileURLToPath(import.meta.url));

// The suites of the store, the engine, experiments, schedules, alerts, metrics and every raw SQL
// read: each runs on SQLite in `unit` and on Postgres in `postgres`.
const POSTGRES_SUITES = [
  "app/api/health/route.test.ts",
  "app/api/summary/route.test.ts",
  "lib/overview/reads.test.ts",
  "lib/schedules/scheduler.test.ts",
  "lib/schedules/store.test.ts",
  "lib/auth/auth.test.ts",
  "lib/auth/external.test.ts",
  "lib/notify/deliver.test.ts",
  "lib/notify/channels.test.ts",
  "lib/metrics/prometheus.test.ts",
  "lib/metrics/grafana.test.ts",
  "lib/metrics/metrics.test.ts",
  "lib/bootstrap.test.ts",
  "lib/inventory/inventory.test.ts",
  "lib/inventory/secrets.test.ts",
  "lib/inventory/reach.test.ts",
  "lib/experiments/runner.test.ts",
  "lib/grid/reads.test.ts",
  "lib/shares/shares.test.ts",
  "lib/alerts/signature-backfill.test.ts",
  "lib/alerts/watcher.test.ts",
  "lib/alerts/baseline.test.ts",
  "lib/runs/engine.test.ts",
  "lib/runs/loss-backfill.test.ts",
  "lib/runs/external-server.test.ts",
  "lib/runs/lists.test.ts",
  "lib/runs/device-reads.test.ts",
  "lib/runs/series-reads.test.ts",
  "lib/runs/exact-figures.test.ts",
  "lib/runs/listen.test.ts",
  "lib/runs/samples.test.ts",
  "lib/runs/diagnosis.test.ts",
  "lib/runs/cpu.test.ts",
  "lib/runs/retention.test.ts",
  "lib/instances/*.test.ts",
  "lib/notes/notes.test.ts",
  // Only here: it stops and starts a cluster of its own.
  "**/*.postgres.test.ts",
];

// One migrated SQLite file per run, which each test file's database copies (testing/database.ts).
const SQLITE_TEMPLATE = "testing/sqlite-template-setup.ts";

// The unit and postgres projects' bound for one test or hook (see unit).
const SLOW_TEST_TIMEOUT = 120_000;

// Three projects: `unit` is pure and fast; `lab` runs against real sshd and iperf3
// in the network namespaces that testing/lab builds (root only); `postgres` runs the suites that
// read and write the database (POSTGRES_SUITES) again on a throwaway Postgres cluster
// (testing/postgres), where openTestDatabase gives each file a Postgres database.
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(__dirname),
      // "server-only" throws outside a React server build; tests call server modules directly.
      "server-only": path.resolve(__dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{lib,agents,scripts,components,app,bench,testing}/**/*.test.ts"],
          exclude: ["**/*.lab.test.ts", "**/*.postgres.test.ts", "node_modules/**"],
          environment: "node",
          globalSetup: [SQLITE_TEMPLATE],
          // A timeout catches a test that hangs; it is no measure of speed. Some tests spawn shells, hash
          // passwords at bcrypt's cost 12 (in JavaScript) or write thousands of rows: a second alone, and
          // past 20 s on a 2-core machine that runs other work (the sign-in throttle's 21 hashes, 80
          // re-runs of an experiment, thirty long runs' samples on Postgres all failed there at 20 s).
          testTimeout: SLOW_TEST_TIMEOUT,
          hookTimeout: SLOW_TEST_TIMEOUT,
        },
      },
      {
        extends: true,
        test: {
          name: "lab",
          include: ["**/*.lab.test.ts"],
          exclude: ["node_modules/**"],
          environment: "node",
          globalSetup: [SQLITE_TEMPLATE, "testing/lab/vitest-global-setup.ts", "testing/postgres/lab-global-setup.ts"],
          // Lab tests share hosts and links: one file at a time.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: "postgres",
          include: POSTGRES_SUITES,
          exclude: ["**/*.lab.test.ts", "node_modules/**"],
          environment: "node",
          globalSetup: [SQLITE_TEMPLATE, "testing/postgres/vitest-global-setup.ts"],
          // as in unit
          testTimeout: SLOW_TEST_TIMEOUT,
          hookTimeout: SLOW_TEST_TIMEOUT,
        },
      },
    ],
  },
});
