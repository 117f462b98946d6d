import "server-only";
import type { App } from "@/lib/app";
import { resolveDatabase } from "@/lib/config";
import type { InstanceIdentity } from "./identity";
import { listenOn, startBusRelay, type RelayHandle } from "./relay";

// The instances on one database, through a row each (Instance) and nothing else: no coordinator.
//
//   heartbeat   every lease/3 (10 s by default) an instance writes its heartbeatAt. An instance whose
//               heartbeat is older than the lease (30 s) is gone.
//   takeover    at each beat, an instance sweeps: the runs and experiments still marked preparing,
//               running or queued by a gone instance are recovered as a restart recovers its own
//               (RunEngine.recoverInterruptedRuns: interrupted, samples kept, iperf3 stopped on both
//               hosts through the recorded pids), each claimed by a conditional update so that one
//               instance recovers it; then the links the gone instance held are freed and its row
//               deleted (conditionally too: a late heartbeat keeps it).
//   start       the same sweep, with this instance's previous life (same id) counted as gone: a
//               restarted instance recovers its own runs at once, as a single instance always has.
//
// On SQLite there is one instance; the sweep at start is then today's restart recovery.

const CLAIM_EVERY_MS = 1_000;
const CANCEL_CHANNEL = "wirespeed_run_cancel";
const SCHEDULES_CHANNEL = "wirespeed_schedules_changed";

/** A cancel asked of another instance: of a run or of an experiment, for the instance `to`. */
type CancelRequest = { to: string; runId: number } | { to: string; experimentId: number };

function parseCancel(payload: string): CancelRequest | null {
  try {
    const value = JSON.parse(payload) as { to?: unknown; runId?: unknown; experimentId?: unknown };
    if (typeof value.to !== "string") return null;
    if (Number.isSafeInteger(value.runId)) return { to: value.to, runId: value.runId as number };
    if (Number.isSafeInteger(value.experimentId)) return { to: value.to, experimentId: value.experimentId as number };
    return null;
  } catch {
    return null;
  }
}

export type Sweep = { runs: number; experiments: number; instances: string[] };

export class InstanceRegistry {
  private timer: NodeJS.Timeout | null = null;
  private claimTimer: NodeJS.Timeout | null = null;
  private claiming: Promise<unknown> | null = null;
  private relays: RelayHandle[] = [];
  private beating: Promise<unknown> | null = null;
  private readonly startedAt = new Date();

  constructor(
    private readonly app: App,
    readonly identity: InstanceIdentity,
    readonly leaseMs: number,
  ) {}

  /**
   * Registers this instance, recovers what gone instances (its own previous life among them) left,
   * then beats. On Postgres, the live events of runs and experiments are relayed between instances
   * from here on (lib/instances/relay.ts).
   */
  async start(): Promise<Sweep> {
    await this.writeHeartbeat();
    if (this.app.database === "postgres" && this.relays.length === 0) {
      const { url } = resolveDatabase();
      const instance = this.identity.id;
      this.relays.push(
        await startBusRelay({ url, channel: "wirespeed_run_events", bus: this.app.runBus, instance }),
        await startBusRelay({ url, channel: "wirespeed_experiment_events", bus: this.app.experimentBus, instance }),
        // A cancel asked of another instance: passed to this one when it runs the test or the experiment.
        await listenOn(url, CANCEL_CHANNEL, (payload) => {
          const request = parseCancel(payload);
          if (request?.to !== instance) return;
          const [what, cancel] =
            "runId" in request
              ? [`run ${request.runId}`, () => this.app.runs.cancelRun(request.runId)]
              : [`experiment ${request.experimentId}`, () => this.app.experiments.cancel(request.experimentId)];
          void cancel().catch((error: unknown) => {
            console.error(`[wirespeed] cancel of ${what} failed: ${error instanceof Error ? error.message : error}`);
          });
        }),
      );
      // A schedule changed on another instance: this one's scheduler re-reads them now, not at its next read.
      this.relays.push(
        await listenOn(url, SCHEDULES_CHANNEL, (payload) => {
          if (payload !== instance) this.app.scheduler.poke({ fromElsewhere: true });
        }),
      );
      this.app.scheduler.onChange = () =>
        void this.app.db.$executeRaw`SELECT pg_notify(${SCHEDULES_CHANNEL}, ${instance})`.catch(() => undefined);
      this.app.runs.forwardCancel = async (runId, to) => {
        await this.app.db.$executeRaw`SELECT pg_notify(${CANCEL_CHANNEL}, ${JSON.stringify({ to, runId })})`;
      };
      this.app.experiments.forwardCancel = async (experimentId, to) => {
        await this.app.db.$executeRaw`SELECT pg_notify(${CANCEL_CHANNEL}, ${JSON.stringify({ to, experimentId })})`;
      };
    }
    const sweep = await this.sweep({ includeSelf: true });
    this.timer = setInterval(() => void this.beat(), Math.max(1_000, Math.floor(this.leaseMs / 3)));
    this.timer.unref();
    // Runs handed to this instance's site by an instance of another (RunEngine.claimHandedOffRuns).
    this.claimTimer = setInterval(() => void this.claim(), CLAIM_EVERY_MS);
    this.claimTimer.unref();
    return sweep;
  }

  /** One heartbeat and one sweep; a database that does not answer is logged and tried again at the next. */
  beat(): Promise<unknown> {
    this.beating ??= (async () => {
      try {
        await this.writeHeartbeat();
        const sweep = await this.sweep({ includeSelf: false });
        for (const gone of sweep.instances) {
          console.log(
            `[wirespeed] instance ${gone} stopped answering: took over ${sweep.runs} run(s) and ${sweep.experiments} experiment(s)`,
          );
        }
      } catch (error) {
        console.error(`[wirespeed] heartbeat failed: ${error instanceof Error ? error.message.split("\n")[0] : error}`);
      } finally {
        this.beating = null;
      }
    })();
    return this.beating;
  }

  /** Stops beating (at shutdown): the row ages out, and the others find nothing of this instance's left to take over. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.claimTimer) clearInterval(this.claimTimer);
    this.timer = this.claimTimer = null;
    for (const relay of this.relays.splice(0)) void relay.stop();
  }

  /** Claims the runs waiting for this instance's site; a failure is logged and tried again. */
  claim(): Promise<unknown> {
    this.claiming ??= this.app.runs
      .claimHandedOffRuns()
      .catch((error: unknown) =>
        console.error(
          `[wirespeed] claiming runs failed: ${error instanceof Error ? error.message.split("\n")[0] : error}`,
        ),
      )
      .finally(() => (this.claiming = null));
    return this.claiming;
  }

  private async writeHeartbeat(): Promise<void> {
    const { id, site } = this.identity;
    const now = new Date();
    await this.app.db.instance.upsert({
      where: { id },
      create: { id, site, startedAt: this.startedAt, heartbeatAt: now },
      update: { site, startedAt: this.startedAt, heartbeatAt: now },
    });
  }

  /** The ids of the instances whose heartbeat is within the lease (this one among them once it beats). */
  async liveInstances(): Promise<Set<string>> {
    const rows = await this.app.db.instance.findMany({
      where: { heartbeatAt: { gte: new Date(Date.now() - this.leaseMs) } },
      select: { id: true },
    });
    return new Set(rows.map((row) => row.id));
  }

  /** Recovers the runs and experiments of gone instances and frees their links. */
  async sweep({ includeSelf }: { includeSelf: boolean }): Promise<Sweep> {
    const live = await this.liveInstances();
    const me = this.identity.id;
    if (includeSelf) live.delete(me);
    else live.add(me);
    // null: a run handed to another site, waiting for an instance of that site to claim it: nobody's yet.
    const isGone = (instance: string | null) => instance !== null && !live.has(instance);
    const runsLeftBy = await this.app.runs.recoverInterruptedRuns(isGone);
    const experimentsLeftBy = await this.app.experiments.recoverInterrupted(isGone);
    const cutoff = new Date(Date.now() - this.leaseMs);
    const goneRows = await this.app.db.instance.findMany({
      where: { heartbeatAt: { lt: cutoff }, id: { not: me } },
      select: { id: true },
    });
    const goneIds = goneRows.map((row) => row.id);
    // The links held by instances that are gone (this one's previous life too, at start).
    const heldBy = [...(includeSelf ? [me] : []), ...goneIds];
    if (heldBy.length > 0) await this.app.db.linkHold.deleteMany({ where: { instance: { in: heldBy } } });
    if (goneIds.length > 0) {
      await this.app.db.instance.deleteMany({ where: { id: { in: goneIds }, heartbeatAt: { lt: cutoff } } });
    }
    // Named from what this sweep took over, not from the rows it deleted: two instances sweeping at once
    // each claim part of the work, and the row may already be gone when the one that claimed it looks.
    const tookOverFrom = new Set(
      [...runsLeftBy, ...experimentsLeftBy].filter((id): id is string => id !== null && id !== me),
    );
    return { runs: runsLeftBy.length, experiments: experimentsLeftBy.length, instances: [...tookOverFrom].sort() };
  }
}
