import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Registry } from "prom-client";
import { AlertChanges } from "@/lib/alerts/changes";
import { watchRuns } from "@/lib/alerts/watcher";
import type { Principal } from "@/lib/auth/principal";
import type { DatabaseKind } from "@/lib/config";
import { createDatabaseClient, databaseKindOf } from "@/lib/db";
import { ExperimentEventBus } from "@/lib/experiments/bus";
import { resolveInstanceIdentity, resolveLeaseMs, type InstanceIdentity } from "@/lib/instances/identity";
import { InstanceRegistry } from "@/lib/instances/registry";
import { ExperimentRunner } from "@/lib/experiments/runner";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { HomeAssistantPublisher } from "@/lib/mqtt/publisher";
import { RunEventBus } from "@/lib/runs/bus";
import { RunEngine } from "@/lib/runs/engine";
import type { RunRemote } from "@/lib/runs/remote";
import { agentRunRemote } from "@/lib/runs/remote-agents";
import { Scheduler } from "@/lib/schedules/scheduler";
import { SharedPageCache } from "@/lib/shares/cache";
import { getApp, installApp, provideAppFactory } from "@/lib/running-app";

// The composition root: what the running app is made of, built in one place. The server builds
// one app (instrumentation.ts, through getApp); a test builds its own on its own database
// (testing/database.ts) and installs it with installApp. Route handlers, server actions and pages
// reach the services through getApp() (lib/running-app.ts); no other module keeps a service of its own.

export type AppDeps = {
  /** The database client; every service and every read and write of lib/ uses it. */
  db: PrismaClient;
  /** How runs reach hosts: iperf3 over SSH through the platform agents, or a scripted remote in tests. */
  remote: RunRemote;
  /** The clock of the scheduler. */
  now?: () => Date;
  /** The scheduler's jitter source. */
  random?: () => number;
  /** The run engine's timeouts (tests shorten them). */
  limits?: ConstructorParameters<typeof RunEngine>[2];
  /** Who this instance is (default: WIRESPEED_INSTANCE or the host name, WIRESPEED_SITE). */
  instance?: InstanceIdentity;
  /** How long a heartbeat stays good (default: WIRESPEED_INSTANCE_LEASE_SECONDS, or 30 s). */
  leaseMs?: number;
};

export type App = {
  readonly db: PrismaClient;
  /** Which database `db` is (SQL that differs between the two: lib/sql-dialect.ts). */
  readonly database: DatabaseKind;
  /** This instance among those on the database: its id and site. */
  readonly instance: InstanceIdentity;
  /** Heartbeats and the takeover of gone instances' runs (lib/instances/registry.ts). */
  readonly instances: InstanceRegistry;
  /** Live events of runs (samples, status), for the SSE streams. */
  readonly runBus: RunEventBus;
  /** Live events of experiments (steps, rows, status). */
  readonly experimentBus: ExperimentEventBus;
  /** Queues and carries out runs; owns the link queues and the port leases. */
  readonly runs: RunEngine;
  readonly experiments: ExperimentRunner;
  readonly scheduler: Scheduler;
  /** The principal of the request being served (the audit log, credential checks far below the route). */
  readonly principals: AsyncLocalStorage<Principal>;
  /** Judges every run that ends against the alert rules from now on; returns the function that stops it. */
  watchAlerts(): () => void;
  /** Alerts firing and resolving, as the alert watcher writes them. */
  readonly alertChanges: AlertChanges;
  /** Home Assistant over MQTT (lib/mqtt): started by instrumentation.ts when WIRESPEED_MQTT_URL is set. */
  readonly homeAssistant: HomeAssistantPublisher;
  /** State kept between scrapes of /metrics (lib/metrics/registry.ts). */
  readonly metrics: { process?: Registry; labels?: Map<string, Record<string, string>> };
  /** What share links' pages show, kept by token (lib/shares/cache.ts). */
  readonly sharedPages: SharedPageCache;
  /** Set once the shutdown handlers are installed (lib/shutdown.ts): once per app. */
  shutdownInstalled: boolean;
};

export function createApp(deps: AppDeps): App {
  const runBus = new RunEventBus();
  const experimentBus = new ExperimentEventBus();
  const instance = deps.instance ?? resolveInstanceIdentity();
  const runs = new RunEngine(deps.remote, runBus, deps.limits, instance);
  const experiments = new ExperimentRunner(runs, experimentBus, runBus);
  const scheduler = new Scheduler({ engine: runs, experiments, now: deps.now, random: deps.random });
  const alertChanges = new AlertChanges();
  const homeAssistant = new HomeAssistantPublisher({ engine: runs, alertChanges });
  let stopWatching: (() => void) | null = null;
  const app: App = {
    db: deps.db,
    database: databaseKindOf(deps.db),
    instance,
    get instances() {
      return registry;
    },
    runBus,
    experimentBus,
    runs,
    experiments,
    scheduler,
    principals: new AsyncLocalStorage<Principal>(),
    watchAlerts() {
      stopWatching ??= watchRuns(runs, { onAlertChanged: (change) => alertChanges.emit(change) });
      return () => {
        stopWatching?.();
        stopWatching = null;
      };
    },
    alertChanges,
    homeAssistant,
    metrics: {},
    sharedPages: new SharedPageCache(),
    shutdownInstalled: false,
  };
  const registry = new InstanceRegistry(app, instance, deps.leaseMs ?? resolveLeaseMs());
  return app;
}

// The app built from the environment (DATABASE_URL or the data folder, SSH agents): what getApp()
// answers when nothing else was installed. Route handlers and actions import getApp from here.
provideAppFactory(() => createApp({ db: createDatabaseClient(), remote: agentRunRemote }));
export { getApp, installApp };
