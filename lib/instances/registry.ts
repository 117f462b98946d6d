import "server-only";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
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
//   name        each process writes its heartbeat with a random nonce of its own, its pid, a
//               fingerprint of where that pid means it (machineFingerprint) and its address. A
//               starting instance that finds its id's heartbeat within the lease under another nonce
//               refuses to start (InstanceNameTakenError: exit 1 at start) unless that writer is gone:
//               under the same fingerprint, its pid no longer exists (or is this process's own);
//               elsewhere (another machine or container), its heartbeat ages past the lease without
//               another beat (the start waits, at most the lease). Two processes of one name would
//               otherwise take each other's heartbeat, relayed events and runs for their own.
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

/** Another live process holds this instance's id: the message names WIRESPEED_INSTANCE, where it runs and its last beat. */
export class InstanceNameTakenError extends Error {}

/**
 * Where a pid means one process: on Linux the kernel's boot and this process's pid namespace (a
 * container has its own, and two containers may share the host's addresses); elsewhere the host name
 * and the network addresses. Two processes of one fingerprint can tell whether the other's pid lives.
 */
function machineFingerprint(): string {
  let parts: string[];
  try {
    parts = [fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(), fs.readlinkSync("/proc/self/ns/pid")];
  } catch {
    parts = [os.hostname(), ...externalAddresses()];
  }
  return createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 16);
}

function externalAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal)
    .map((entry) => entry.address)
    .sort();
}

/** Where this process serves, for another instance's refusal: host name, addresses, port (PORT, 3000 by default). */
function describeAddress(): string {
  const addresses = externalAddresses().filter((address) => !address.startsWith("fe80:"));
  const where = addresses.length > 0 ? ` (${addresses.slice(0, 3).join(", ")})` : "";
  return `${os.hostname()}${where} port ${process.env.PORT?.trim() || "3000"}`.slice(0, 300);
}

/** Whether a process of this pid exists here (EPERM: it exists, someone else's). */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

type NameHolder = {
  nonce: string;
  pid: number | null;
  machine: string | null;
  address: string | null;
  heartbeatAt: Date;
};

const NAME_POLL_MS = 500;

export class InstanceRegistry {
  private timer: NodeJS.Timeout | null = null;
  private claimTimer: NodeJS.Timeout | null = null;
  private claiming: Promise<unknown> | null = null;
  private relays: RelayHandle[] = [];
  private beating: Promise<unknown> | null = null;
  private readonly startedAt = new Date();
  /** This process's mark on its heartbeat (see "name" above). */
  private readonly nonce = randomUUID();
  private readonly machine = machineFingerprint();
  /** Read when the name is claimed: PORT may be known only by then. */
  private address = "";
  /** Set once this process no longer holds its row (it left, or another took it): no more beats. */
  private nameLost = false;

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
    await this.claimName();
    if (this.app.database === "postgres" && this.relays.length === 0) {
      const { url } = resolveDatabase();
      const instance = this.identity.id;
      this.relays.push(
        await startBusRelay({ url, channel: "wirespeed_run_events", bus: this.app.runBus, instance }),
        await startBusRelay({ url, channel: "wirespeed_experiment_events", bus: this.app.experimentBus, instance }),
        // A cancel asked of another instance: passed to this one when it runs the test or the experiment.
        // The instance the user asked wrote the audit row, naming them: this one writes none.
        await listenOn(url, CANCEL_CHANNEL, (payload) => {
          const request = parseCancel(payload);
          if (request?.to !== instance) return;
          const forwarded = { isAudited: true };
          const [what, cancel] =
            "runId" in request
              ? [`run ${request.runId}`, () => this.app.runs.cancelRun(request.runId, forwarded)]
              : [
                  `experiment ${request.experimentId}`,
                  () => this.app.experiments.cancel(request.experimentId, forwarded),
                ];
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

  /**
   * At the end of a clean stop, once this process's runs are stored: its heartbeat is dated long gone, so
   * that a restart under its name (a new container, whose pids say nothing of this one's) starts at
   * once rather than after the lease. A database that does not answer leaves the row to age out.
   */
  async leave(): Promise<void> {
    this.stop();
    this.nameLost = true;
    await this.app.db.instance
      .updateMany({ where: { id: this.identity.id, nonce: this.nonce }, data: { heartbeatAt: new Date(0) } })
      .catch((error: unknown) => {
        console.error(
          `[wirespeed] could not mark this instance stopped: ${error instanceof Error ? error.message.split("\n")[0] : error}`,
        );
      });
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

  /** This process's row: what every write of it holds besides the heartbeat. */
  private holderFields() {
    const { site } = this.identity;
    return {
      site,
      startedAt: this.startedAt,
      nonce: this.nonce,
      pid: process.pid,
      machine: this.machine,
      address: this.address,
    };
  }

  /**
   * Takes this instance's id for this process: writes its row when the id is free or its previous
   * writer is gone; throws InstanceNameTakenError when another live process holds it.
   */
  private async claimName(): Promise<void> {
    const { id } = this.identity;
    this.address = describeAddress();
    for (;;) {
      const row = await this.app.db.instance.findUnique({ where: { id } });
      if (!row) {
        // Two starting at once: one insert wins, the other reads what won.
        const created = await this.app.db.instance
          .create({ data: { id, ...this.holderFields(), heartbeatAt: new Date() } })
          .then(() => true)
          .catch((error: unknown) => {
            if ((error as { code?: string } | null)?.code !== "P2002") throw error;
            return false;
          });
        if (created) return;
        continue;
      }
      if (row.nonce !== this.nonce && !(await this.isGone(row))) {
        throw new InstanceNameTakenError(this.takenMessage(row));
      }
      // Conditional: a holder that beat meanwhile keeps its row, and the next read judges it again.
      const { count } = await this.app.db.instance.updateMany({
        where: { id, nonce: row.nonce, heartbeatAt: { lte: row.heartbeatAt } },
        data: { ...this.holderFields(), heartbeatAt: new Date() },
      });
      if (count === 1) return;
    }
  }

  /**
   * Whether the process that wrote `holder` is gone: its heartbeat older than the lease, written before
   * heartbeats carried a nonce, or where pids are this process's own (machineFingerprint) by a pid that no
   * longer exists or is this one's (a dead process's pid reused). Elsewhere, it waits for one more beat or
   * for the lease.
   */
  private async isGone(holder: NameHolder): Promise<boolean> {
    const expired = (at: Date) => at.getTime() < Date.now() - this.leaseMs;
    if (expired(holder.heartbeatAt) || holder.nonce === "") return true;
    if (holder.machine === this.machine && holder.pid !== null) {
      return holder.pid === process.pid || !processExists(holder.pid);
    }
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, NAME_POLL_MS));
      const now = await this.app.db.instance.findUnique({ where: { id: this.identity.id } });
      if (!now || expired(now.heartbeatAt)) return true;
      if (now.nonce !== holder.nonce || now.heartbeatAt.getTime() !== holder.heartbeatAt.getTime()) return false;
    }
  }

  private takenMessage(holder: NameHolder): string {
    const { id } = this.identity;
    const ago = Math.max(0, Math.round((Date.now() - holder.heartbeatAt.getTime()) / 1000));
    const where = `${holder.address ?? "an unknown address"}${holder.pid !== null ? `, pid ${holder.pid}` : ""}`;
    return (
      `another instance named ${id} is running at ${where} (last heartbeat ${holder.heartbeatAt.toISOString()}, ${ago} s ago): ` +
      `give each instance on this database its own WIRESPEED_INSTANCE`
    );
  }

  /**
   * One beat of this process's row. A row that another process took meanwhile (this one was paused past
   * the lease, and a starting instance of the same name found it gone) is left to it: this one stops
   * beating and says so, once.
   */
  private async writeHeartbeat(): Promise<void> {
    if (this.nameLost) return;
    const { id } = this.identity;
    const now = new Date();
    const { count } = await this.app.db.instance.updateMany({
      where: { id, nonce: this.nonce },
      data: { ...this.holderFields(), heartbeatAt: now },
    });
    if (count === 1) return;
    const row = await this.app.db.instance.findUnique({ where: { id } });
    if (!row) {
      // Deleted by another's sweep while this one did not beat (a database outage): written again.
      await this.app.db.instance
        .create({ data: { id, ...this.holderFields(), heartbeatAt: now } })
        .catch((error: unknown) => {
          if ((error as { code?: string } | null)?.code !== "P2002") throw error;
        });
      return;
    }
    this.nameLost = true;
    console.error(
      `[wirespeed] this instance stopped beating: ${this.takenMessage(row).replace(/^another instance/, "another process")}`,
    );
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

/** At start (instrumentation.ts): the registry started; another live process of this name: the reason in one line, and exit 1. */
export async function startInstanceRegistry(registry: InstanceRegistry): Promise<Sweep> {
  try {
    return await registry.start();
  } catch (error) {
    if (!(error instanceof InstanceNameTakenError)) throw error;
    console.error(`[wirespeed] cannot start: ${error.message}`);
    process.exit(1);
  }
}
