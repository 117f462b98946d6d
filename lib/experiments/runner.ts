import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordAudit } from "@/lib/auth/audit";
import { AppError } from "@/lib/errors";
import { getExperiment, loadPlanLinks, loadStepOutcome, resolveHostLinks } from "@/lib/experiments/reads";
import { RunEventBus } from "@/lib/runs/bus";
import type { RunEngine, LinkHold } from "@/lib/runs/engine";
import { RunError, shutdownInterruption, ShuttingDownError } from "@/lib/runs/errors";
import { newHostCache } from "@/lib/runs/execution";
import type { RunJson } from "@/lib/runs/serialize";
import { ExperimentEventBus } from "./bus";
import {
  isActiveExperimentStatus,
  type ExperimentJson,
  type ExperimentPlan,
  type ExperimentStatus,
  type PlanLink,
  type StepOutcome,
  type StepStatus,
  type TableRow,
} from "./contract";
import { planKind } from "./kinds";
import { checkPlan, parseExperimentRequest, requestOfPlan } from "./plan";

// Carries out experiments: holds the plan's links (no other run starts on them meanwhile),
// asks the kind for each next step, runs the step's runs together through the run engine,
// and after each step stores the result so far, so a cancel or a restart keeps every
// finished step. Viewers follow on the experiment bus: status, step, sample, row. When
// Wirespeed stops (`shutdown`), no experiment or step starts; the ones under way end interrupted.

type Active = { controller: AbortController; hold: LinkHold | null; currentRunIds: number[]; done: Promise<void> };

export class ExperimentRunner {
  private readonly active = new Map<number, Active>();
  /** Set once Wirespeed stops: the signal's name, in the message of the experiments it interrupts. */
  private stopReason: string | null = null;

  constructor(
    private readonly engine: RunEngine,
    private readonly bus: ExperimentEventBus = new ExperimentEventBus(),
    private readonly runBus: RunEventBus = new RunEventBus(),
  ) {}

  /** Validates a `POST /api/experiments` body, records the experiment and starts it; 400 names each bad field. */
  async start(body: unknown): Promise<ExperimentJson> {
    return this.startPlan(parseExperimentRequest(body));
  }

  /** Repeats an experiment's whole plan as a new experiment (checked against today's rules and links). */
  async rerun(experimentId: number): Promise<ExperimentJson> {
    const previous = await db.experiment.findUnique({ where: { id: experimentId }, select: { plan: true } });
    if (!previous) throw new AppError("not-found", `Experiment ${experimentId} does not exist.`);
    return this.start(requestOfPlan(previous.plan));
  }

  private async startPlan(request: ExperimentPlan): Promise<ExperimentJson> {
    this.engine.refuseIfShuttingDown();
    const plan = await resolveHostLinks(request);
    const links = await loadPlanLinks(plan.linkIds);
    checkPlan(plan, links);
    const experiment = await db.experiment.create({
      data: {
        kind: plan.kind,
        name: plan.name,
        plan: plan as unknown as Prisma.InputJsonValue,
        links: { create: plan.linkIds.map((linkId, position) => ({ linkId, position })) },
        instance: this.engine.instance.id,
      },
    });
    await recordAudit(
      "experiment.start",
      "experiment",
      experiment.id,
      `${plan.kind} "${plan.name}" on ${links.map((link) => link.name).join(", ")}`,
    );
    this.bus.begin(experiment.id);
    this.bus.publish(experiment.id, "status", { status: "queued" });
    const controller = new AbortController();
    const entry: Active = { controller, hold: null, currentRunIds: [], done: Promise.resolve() };
    this.active.set(experiment.id, entry);
    // Recorded while Wirespeed began to stop: it ends at once, interrupted.
    if (this.stopReason !== null) controller.abort(shutdownInterruption(this.stopReason, { hasStarted: false }));
    entry.done = this.execute(experiment.id, plan, links, entry)
      .catch(async (error: unknown) => {
        const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
        console.error(`experiment ${experiment.id}: ${message}`);
        await this.end(experiment.id, "failed", `The experiment stopped on an internal error: ${message}`).catch(
          () => undefined,
        );
      })
      .finally(() => {
        entry.hold?.release();
        this.active.delete(experiment.id);
        this.bus.end(experiment.id);
      });
    return (await getExperiment(experiment.id))!;
  }

  private async execute(experimentId: number, plan: ExperimentPlan, links: PlanLink[], entry: Active): Promise<void> {
    const { signal } = entry.controller;
    const kind = planKind(plan);
    const { base } = checkPlan(plan, links);
    // A concurrent experiment waits until every one of its links is free, and keeps them.
    entry.hold = this.engine.holdLinks(plan.linkIds, experimentId);
    await Promise.race([entry.hold.ready, abortedOf(signal)]);
    if (signal.aborted) return this.endStopped(experimentId, signal, false);
    await db.experiment.update({ where: { id: experimentId }, data: { status: "running", startedAt: new Date() } });
    this.bus.publish(experimentId, "status", { status: "running" });

    const done: StepOutcome[] = [];
    // iperf3 is found on each host once per experiment, not before every step.
    const hostCache = newHostCache();
    let rows: TableRow[] = [];
    let failure: string | null = null;
    for (;;) {
      if (signal.aborted) break;
      const spec = kind.nextStep(base, links, done);
      if (!spec) break;
      const index = done.length;
      const step = await db.experimentStep.create({
        data: { experimentId, index, label: spec.label, tags: spec.tags as Prisma.InputJsonValue },
      });
      this.bus.publish(experimentId, "step", {
        index,
        label: spec.label,
        tags: spec.tags,
        runIds: [],
        status: "running",
      });
      let runs: RunJson[];
      try {
        runs = await this.engine.runHeld(
          spec.runs.map((run) => ({
            linkId: run.linkId,
            options: run.options,
            clientSide: run.clientSide,
            channel: run.channel ?? null,
            experimentId,
            stepId: step.id,
          })),
          { onRecorded: (recorded) => this.follow(experimentId, entry, recorded), hostCache },
        );
      } catch (error) {
        // Wirespeed began to stop as this step was about to start: it never ran.
        if (!(error instanceof ShuttingDownError)) throw error;
        await db.experimentStep.update({
          where: { id: step.id },
          data: { status: "interrupted", endedAt: new Date() },
        });
        this.bus.publish(experimentId, "step", {
          index,
          label: spec.label,
          tags: spec.tags,
          runIds: [],
          status: "interrupted",
        });
        return this.endStopped(experimentId, signal, true);
      }
      entry.currentRunIds = [];
      const stepStatus = await this.endStep(
        step.id,
        runs.map((run) => run.id),
      );
      this.bus.publish(experimentId, "step", {
        index,
        label: spec.label,
        tags: spec.tags,
        runIds: runs.map((run) => run.id),
        status: stepStatus,
      });
      // Only this step: the ones before it are in `done` already.
      const outcome = await loadStepOutcome(experimentId, index);
      if (outcome) done.push(outcome);
      rows = await this.storeResult(experimentId, plan, links, done, rows);
      if (stepStatus === "failed") {
        failure = await this.failureOf(
          index,
          spec.label,
          runs.map((run) => run.id),
        );
        break;
      }
      if (stepStatus !== "succeeded") break;
    }
    if (signal.aborted) return this.endStopped(experimentId, signal, true);
    return this.end(experimentId, failure ? "failed" : "succeeded", failure);
  }

  /** Forwards the samples of a step's runs to the experiment's viewers, tagged with the run. */
  private follow(experimentId: number, entry: Active, runs: RunJson[]): void {
    entry.currentRunIds = runs.map((run) => run.id);
    for (const run of runs) {
      // The run's live stream ends with the run: nothing to unsubscribe.
      this.runBus.subscribe(run.id, 0, (event) => {
        if (event.type === "sample")
          this.bus.publish(experimentId, "sample", {
            ...(event.data as object),
            runId: run.id,
            linkId: run.linkId,
            channel: run.channel,
          });
      });
    }
  }

  /** A step's status from its runs: every run succeeded, or the worst of what happened. */
  private async endStep(stepId: number, runIds: number[]): Promise<StepStatus> {
    const runs = await db.run.findMany({ where: { id: { in: runIds } }, select: { status: true } });
    const statuses = runs.map((run) => run.status);
    const status: StepStatus = statuses.includes("cancelled")
      ? "cancelled"
      : statuses.includes("interrupted")
        ? "interrupted"
        : statuses.includes("failed") || statuses.length === 0
          ? "failed"
          : "succeeded";
    await db.experimentStep.update({ where: { id: stepId }, data: { status, endedAt: new Date() } });
    return status;
  }

  /** The result so far, stored; the table rows that are new or changed go to the viewers. */
  private async storeResult(
    experimentId: number,
    plan: ExperimentPlan,
    links: PlanLink[],
    done: StepOutcome[],
    previous: TableRow[],
  ): Promise<TableRow[]> {
    const kind = planKind(plan);
    const result = kind.result(links, done);
    const answer = kind.answer(links, result);
    await db.experiment.update({
      where: { id: experimentId },
      data: { result: result as unknown as Prisma.InputJsonValue, answer },
    });
    const rows = kind.table(links, result).rows;
    const before = new Map(previous.map((row) => [row.key, JSON.stringify(row)]));
    for (const row of rows) {
      if (before.get(row.key) !== JSON.stringify(row)) this.bus.publish(experimentId, "row", row);
    }
    return rows;
  }

  private async failureOf(index: number, label: string, runIds: number[]): Promise<string> {
    const failed = await db.run.findFirst({
      where: { id: { in: runIds }, status: "failed" },
      select: { id: true, errorMessage: true },
    });
    const reason = failed
      ? `run #${failed.id}: ${(failed.errorMessage ?? "failed").replace(/\.+$/, "")}`
      : "its runs failed";
    return `Step ${index + 1} (${label}) failed, ${reason}. The steps before it are kept.`;
  }

  /** Cancelled by a person, or interrupted by Wirespeed stopping (the abort's reason says which). */
  private endStopped(experimentId: number, signal: AbortSignal, hasStarted: boolean): Promise<void> {
    const reason: unknown = signal.reason;
    const isStop = (reason instanceof RunError && reason.kind === "interrupted") || this.stopReason !== null;
    if (!isStop) return this.end(experimentId, "cancelled", null);
    const stop = this.stopReason ?? "shutdown";
    const message = hasStarted
      ? `Wirespeed was stopped (${stop}) while this experiment was in progress. The steps that finished are kept; run it again for the rest.`
      : `Wirespeed was stopped (${stop}) before this experiment started. Run it again.`;
    return this.end(experimentId, "interrupted", message);
  }

  private async end(experimentId: number, status: ExperimentStatus, errorMessage: string | null): Promise<void> {
    await db.experiment.update({ where: { id: experimentId }, data: { status, endedAt: new Date(), errorMessage } });
    this.bus.publish(experimentId, "status", { status });
  }

  /**
   * How a cancel reaches the instance that runs an experiment (lib/instances/registry.ts, on
   * Postgres), as RunEngine.forwardCancel does for a run: null on one instance.
   */
  forwardCancel: ((experimentId: number, instance: string) => Promise<void>) | null = null;

  /**
   * Stops the current step (its runs keep their samples) and drops the rest. Answers the experiment as
   * it ended. Audited here, naming who asked, unless `isAudited` (a cancel forwarded from the instance
   * the user asked, which wrote the row): one action, one row.
   */
  async cancel(experimentId: number, { isAudited = false }: { isAudited?: boolean } = {}): Promise<ExperimentJson> {
    const experiment = await db.experiment.findUnique({
      where: { id: experimentId },
      select: { status: true, instance: true },
    });
    if (!experiment) throw new AppError("not-found", `Experiment ${experimentId} does not exist.`);
    const entry = this.active.get(experimentId);
    const elsewhere = experiment.instance !== null && experiment.instance !== this.engine.instance.id;
    if (!entry && elsewhere && isActiveExperimentStatus(experiment.status) && this.forwardCancel) {
      // Another instance runs it: it is asked to cancel, and the end is awaited here (15 s at most).
      if (!isAudited) await recordAudit("experiment.cancel", "experiment", experimentId, `was ${experiment.status}`);
      await this.forwardCancel(experimentId, experiment.instance!);
      for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
        const now = await db.experiment.findUnique({ where: { id: experimentId }, select: { status: true } });
        if (!now || !isActiveExperimentStatus(now.status)) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } else if (entry && isActiveExperimentStatus(experiment.status)) {
      if (!isAudited) await recordAudit("experiment.cancel", "experiment", experimentId, `was ${experiment.status}`);
      entry.controller.abort();
      await this.engine.cancelHeld(entry.currentRunIds);
      await entry.done;
    }
    return (await getExperiment(experimentId))!;
  }

  /**
   * Wirespeed is stopping: no experiment starts from now on (the engine refuses it), and the
   * ones under way start no further step. The runs of their current step are the engine's to
   * interrupt (RunEngine.shutdown, at the same time); each experiment then ends interrupted,
   * keeping its finished steps. Resolves once they have all ended.
   */
  async shutdown(reason: string): Promise<void> {
    this.stopReason ??= reason;
    const entries = [...this.active.values()];
    for (const entry of entries) entry.controller.abort(shutdownInterruption(this.stopReason, { hasStarted: true }));
    await Promise.all(entries.map((entry) => entry.done));
  }

  /** The experiments under way (queued or running) in this process. */
  get activeExperimentIds(): number[] {
    return [...this.active.keys()];
  }

  /** Waits until an experiment has ended (for tests and benchmarks). */
  async waitFor(experimentId: number): Promise<void> {
    await this.active.get(experimentId)?.done;
  }

  /**
   * At start-up, after the runs were recovered: experiments a previous instance left queued or
   * running are marked interrupted; the steps that finished, and the result from them, stay.
   */
  /** Recovers the experiments of gone instances; returns the instance each recovered one was left by. */
  async recoverInterrupted(isGone: (instance: string | null) => boolean = () => true): Promise<(string | null)[]> {
    const me = this.engine.instance.id;
    const candidates = await db.experiment.findMany({
      where: { status: { in: ["queued", "running"] } },
      select: { id: true, instance: true },
    });
    const recovered: (string | null)[] = [];
    for (const { id, instance } of candidates) {
      if (this.active.has(id) || !isGone(instance)) continue;
      // Claimed first, as a run is (RunEngine.recoverInterruptedRuns): one instance recovers it.
      const claim = await db.experiment.updateMany({
        where: { id, instance, status: { in: ["queued", "running"] } },
        data: { instance: me },
      });
      if (claim.count === 0) continue;
      recovered.push(instance);
      await db.experimentStep.updateMany({
        where: { experimentId: id, status: "running" },
        data: { status: "interrupted", endedAt: new Date() },
      });
      await db.experiment.update({
        where: { id },
        data: {
          status: "interrupted",
          endedAt: new Date(),
          errorMessage:
            instance !== null && instance !== me
              ? `The Wirespeed instance ${instance} that ran this experiment stopped answering; the steps that finished are kept; run it again for the rest.`
              : "Wirespeed stopped while this experiment was in progress. The steps that finished are kept; run it again for the rest.",
        },
      });
    }
    return recovered;
  }
}

function abortedOf(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
