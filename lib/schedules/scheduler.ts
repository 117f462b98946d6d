import "server-only";
import { db } from "@/lib/db";
import type { Schedule } from "@/lib/generated/prisma/client";
import type { ExperimentRunner } from "@/lib/experiments/runner";
import { ACTIVE_EXPERIMENT_STATUSES, type ExperimentPlan } from "@/lib/experiments/contract";
import { resolveHostLinks } from "@/lib/experiments/reads";
import { ACTIVE_RUN_STATUSES } from "@/lib/runs/contract";
import type { RunEngine } from "@/lib/runs/engine";
import { ShuttingDownError } from "@/lib/runs/errors";
import { parseRunRequest } from "@/lib/runs/request";
import type { ScheduleRunOutcome } from "./contract";
import { nextDueAt, parseTiming } from "./timing";

// Starts what the schedules say when they say it. The database is the scheduler's only state
// (Schedule.nextRunAt, slip included), so a restart, or an edit by another path, is read back:
// one timer for the earliest due schedule, re-read at least every minute. Each due schedule is
// claimed by moving its nextRunAt on, conditioned on the old value, so two schedulers on one
// database never start it twice; then it starts, or records why it did not.

export type SchedulerDeps = {
  engine: RunEngine;
  experiments: ExperimentRunner;
  now?: () => Date;
  /** in [0, 1): the slip of each next start */
  random?: () => number;
};

/** Longest sleep between two reads of the schedules: an edit made elsewhere is seen by then. */
const MAX_WAIT_MS = 60_000;
/** A start found this late at start-up was missed while the app was down. */
const MISSED_AFTER_MS = 2_000;

type Outcome = {
  outcome: ScheduleRunOutcome;
  reason?: string | null;
  runId?: number | null;
  experimentId?: number | null;
};

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.slice(0, 500);
}

/** The link ids of a stored experiment plan, a mesh's found among its hosts now; none when it is not one. */
async function planLinkIds(plan: unknown): Promise<number[]> {
  if (typeof plan !== "object" || plan === null) return [];
  // A plan the start refuses (a host gone) is refused there, with its reason: here it holds no link.
  const resolved = await resolveHostLinks(plan as ExperimentPlan).catch(() => plan as { linkIds?: unknown });
  const linkIds = resolved.linkIds;
  return Array.isArray(linkIds) ? linkIds.filter((id): id is number => Number.isSafeInteger(id)) : [];
}

export class Scheduler {
  private readonly engine: RunEngine;
  private readonly experiments: ExperimentRunner;
  private readonly now: () => Date;
  private readonly random: () => number;
  private started = false;
  /** Set by stop() (Wirespeed stopping): a tick under way claims no further start. */
  private isStopping = false;
  private timer: NodeJS.Timeout | null = null;
  /** Bumped by every arm and by stop: an arm that read the database before a later one gives way. */
  private generation = 0;
  /** Ticks run one after another. */
  private chain: Promise<void> = Promise.resolve();
  private lag = 0;

  constructor(deps: SchedulerDeps) {
    this.engine = deps.engine;
    this.experiments = deps.experiments;
    this.now = deps.now ?? (() => new Date());
    this.random = deps.random ?? Math.random;
  }

  /** How many seconds the last tick's starts came after their due time (the worst of them). */
  get lagSeconds(): number {
    return this.lag;
  }

  /**
   * Makes the one catch-up start of each schedule that missed starts while the app was down
   * (its nextRunAt more than 2 s past), starts what is due now, then arms the timer. Call once
   * the runs and experiments a previous instance left going are marked interrupted, or they
   * would keep their links busy.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.isStopping = false;
    await this.exclusive(() => this.runDue(true));
    await this.arm();
  }

  /** Clears the timer and waits for a tick in progress, which makes no further start. */
  async stop(): Promise<void> {
    this.started = false;
    this.isStopping = true;
    this.generation += 1;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.chain;
  }

  /** Told of every schedule changed here (lib/instances/registry.ts tells the other instances). */
  onChange: (() => void) | null = null;

  /** A schedule changed: re-read when the next one is due. `fromElsewhere`: another instance changed it. */
  poke({ fromElsewhere = false }: { fromElsewhere?: boolean } = {}): void {
    if (this.started) void this.arm();
    if (!fromElsewhere) this.onChange?.();
  }

  /** Starts every schedule due now (the timer calls it; tests call it with their clock). */
  tick(): Promise<void> {
    return this.exclusive(() => this.runDue(false));
  }

  private exclusive(work: () => Promise<void>): Promise<void> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async arm(): Promise<void> {
    const generation = ++this.generation;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.started) return;
    let wait = MAX_WAIT_MS;
    try {
      const next = await db.schedule.findFirst({
        where: { enabled: true, nextRunAt: { not: null } },
        orderBy: { nextRunAt: "asc" },
        select: { nextRunAt: true },
      });
      if (next?.nextRunAt) wait = Math.min(MAX_WAIT_MS, Math.max(0, next.nextRunAt.getTime() - this.now().getTime()));
    } catch (error) {
      console.error("[wirespeed] scheduler: could not read the schedules:", messageOf(error));
    }
    if (generation !== this.generation || !this.started) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick()
        .catch((error: unknown) => console.error("[wirespeed] scheduler:", messageOf(error)))
        .finally(() => this.arm());
    }, wait);
    // The server's own handles keep the process alive; a scheduler alone should not.
    this.timer.unref();
  }

  private async runDue(atStartUp: boolean): Promise<void> {
    const now = this.now();
    const due = await db.schedule.findMany({
      where: { enabled: true, nextRunAt: { lte: now } },
      orderBy: [{ nextRunAt: "asc" }, { id: "asc" }],
    });
    let lag = 0;
    for (const schedule of due) {
      // Left unclaimed: the next start of the app makes it up as a catch-up start.
      if (this.isStopping) break;
      const dueAt = schedule.nextRunAt!;
      const catchUp = atStartUp && now.getTime() - dueAt.getTime() > MISSED_AFTER_MS;
      try {
        if (!(await this.fire(schedule, dueAt, catchUp))) continue;
        if (!catchUp) lag = Math.max(lag, (this.now().getTime() - dueAt.getTime()) / 1000);
      } catch (error) {
        console.error(`[wirespeed] schedule ${schedule.id}:`, messageOf(error));
      }
    }
    if (due.length > 0) this.lag = lag;
  }

  /** Claims one due start and carries it out; false when another scheduler (or an edit) took it first. */
  private async fire(schedule: Schedule, dueAt: Date, catchUp: boolean): Promise<boolean> {
    const now = this.now();
    let next: Date | null = null;
    let timingError: string | null = null;
    try {
      // The next start after now: however many were missed, this one start stands for them all.
      next = nextDueAt(parseTiming(schedule), now, schedule.createdAt, schedule.slipSeconds, this.random);
    } catch (error) {
      timingError = `its timing no longer holds: ${messageOf(error)}`;
    }
    const claim = await db.schedule.updateMany({
      where: { id: schedule.id, enabled: true, nextRunAt: dueAt },
      data: { nextRunAt: next },
    });
    if (claim.count === 0) return false;
    const result: Outcome = timingError ? { outcome: "failed", reason: timingError } : await this.startOf(schedule);
    await db.scheduleRun.create({
      data: {
        scheduleId: schedule.id,
        dueAt,
        at: this.now(),
        outcome: result.outcome,
        reason: result.reason ?? null,
        catchUp,
        runId: result.runId ?? null,
        experimentId: result.experimentId ?? null,
      },
    });
    return true;
  }

  private async startOf(schedule: Schedule): Promise<Outcome> {
    const linkIds = schedule.linkId !== null ? [schedule.linkId] : await planLinkIds(schedule.experimentPlan);
    const busy = await this.busyReason(linkIds);
    if (busy) return { outcome: "skipped", reason: busy };
    try {
      if (schedule.linkId !== null) {
        // Checked as a request is, today: options a later version refuses fail here with their field named.
        const options = typeof schedule.options === "object" && schedule.options !== null ? schedule.options : {};
        const request = parseRunRequest({ ...options, direction: schedule.direction, clientSide: schedule.clientSide });
        const run = await this.engine.startRun({
          linkId: schedule.linkId,
          options: request.options,
          clientSide: request.clientSide,
        });
        return { outcome: "started", runId: run.id };
      }
      const experiment = await this.experiments.start(schedule.experimentPlan);
      return { outcome: "started", experimentId: experiment.id };
    } catch (error) {
      // Claimed just as Wirespeed began to stop: not started, like a start on a busy link.
      if (error instanceof ShuttingDownError) return { outcome: "skipped", reason: "Wirespeed was shutting down" };
      return { outcome: "failed", reason: messageOf(error) };
    }
  }

  /** "link busy: experiment 3 is running" when one of the links has an experiment or a run that has not ended. */
  private async busyReason(linkIds: number[]): Promise<string | null> {
    if (linkIds.length === 0) return null;
    const experiment = await db.experimentLink.findFirst({
      where: { linkId: { in: linkIds }, experiment: { status: { in: [...ACTIVE_EXPERIMENT_STATUSES] } } },
      orderBy: { experimentId: "asc" },
      select: { experimentId: true, experiment: { select: { status: true } } },
    });
    if (experiment) return `link busy: experiment ${experiment.experimentId} is ${experiment.experiment.status}`;
    const run = await db.run.findFirst({
      where: { linkId: { in: linkIds }, status: { in: [...ACTIVE_RUN_STATUSES] } },
      orderBy: { id: "asc" },
      select: { id: true, status: true },
    });
    if (run) return `link busy: run ${run.id} is ${run.status}`;
    return null;
  }
}
