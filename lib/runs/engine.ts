import "server-only";
import { db } from "@/lib/db";
import type { InstanceIdentity } from "@/lib/instances/identity";
import { getApp } from "@/lib/running-app";
import { holdLinks as holdLinksAcrossInstances, releaseLinks, tryHoldLinks } from "./link-holds";
import { Prisma } from "@/lib/generated/prisma/client";
import { IperfOptionsSchema, type IperfOptions } from "@/lib/iperf";
import { recordAudit } from "@/lib/auth/audit";
import { fieldErrorsFromZod, invalidInput } from "@/lib/errors";
import { RunEventBus } from "./bus";
import { ACTIVE_RUN_STATUSES, clientSideOf, isFinalStatus, type ClientSide, type RunStatus } from "./contract";
import { RunError, runFailureOf, shutdownInterruption, ShuttingDownError, type RunFailure } from "./errors";
import { refuseClientOnExternalServer } from "./external-server";
import {
  DEFAULT_LIMITS,
  finishRun,
  loadRunEndpoints,
  RunExecution,
  type ExecutionLimits,
  type HostCache,
} from "./execution";
import { LinkQueue } from "./link-queue";
import { ListenExecution, loadListenLink, loadListenServerEndpoint, recordListenRun } from "./listen";
import { LISTEN_TIMEOUT_SECONDS } from "./listen-request";
import { PortLeases } from "./ports";
import type { RunRemote } from "./remote";
import { runJson, type RunJson } from "./serialize";
import { signatureOf } from "./signature";

export { serverArgvFor } from "./execution";

// The run engine: queued → preparing → running → succeeded | failed | cancelled | interrupted.
// One run per link at a time (a run waits its turn in its link's queue); iperf3 ports leased
// per host. The steps of a run are lib/runs/execution.ts; the engine decides when they run,
// for one run or for several together, and how a run is cancelled, interrupted by Wirespeed
// stopping (`shutdown`) or recovered after a crash.

export type StartRunInput = {
  linkId: number;
  options: IperfOptions;
  clientSide: ClientSide;
  /** the experiment and step the run belongs to (lib/experiments), and its channel there */
  experimentId?: number | null;
  stepId?: number | null;
  channel?: number | null;
};

/** Told of every run that reached a final state (succeeded, failed, cancelled, interrupted by cancel). */
export type RunEndedListener = (runId: number) => void | Promise<void>;

/**
 * `held`: the run belongs to a hold on its links (an experiment), so it never waits in their queues.
 * `isEnding`: it never started and is being stored as ended (`endUnstarted`): nothing may start it.
 */
type Pending = {
  linkId: number;
  controller: AbortController;
  promise: Promise<void>;
  resolve: () => void;
  together: number[];
  held: boolean;
  isEnding: boolean;
};

/**
 * Links held for a series of runs (an experiment): no other run starts on them until it is
 * released. `ready` resolves once every link is free and held.
 */
/** The site of a link's hosts (WIRESPEED_SITE), or null when neither has one. Two sites: no instance reaches both. */
function siteOfLink(link: {
  name: string;
  aNic: { host: { site: string | null } };
  bNic: { host: { site: string | null } };
}) {
  const a = link.aNic.host.site;
  const b = link.bNic.host.site;
  if (a !== null && b !== null && a !== b) {
    throw new RunError(
      "conflict",
      `Link ${link.name} joins hosts of two sites (${a} and ${b}): no instance reaches both.`,
      {
        hint: "Give both hosts the same site, or clear one of them.",
      },
    );
  }
  return a ?? b;
}

export type LinkHold = { ready: Promise<void>; release: () => void };

export class RunEngine {
  private readonly queue = new LinkQueue();
  private readonly ports = new PortLeases();
  private readonly pending = new Map<number, Pending>();
  private readonly endedListeners = new Set<RunEndedListener>();
  /** Set once Wirespeed stops (`shutdown`): the signal's name, given as the reason of every interruption. */
  private stopReason: string | null = null;
  /** Runs being recorded: a shutdown waits for them, so that none is left queued. */
  private readonly recordings = new Set<Promise<unknown>>();

  constructor(
    private readonly remote: RunRemote,
    private readonly bus: RunEventBus = new RunEventBus(),
    private readonly limits: ExecutionLimits = DEFAULT_LIMITS,
    private readonly identity?: InstanceIdentity,
  ) {}

  /** The instance this engine runs in (lib/instances): given by the app that built it, else the running app's. */
  get instance(): InstanceIdentity {
    return this.identity ?? getApp().instance;
  }

  /**
   * Calls `listener` after each run this engine carried out has ended and been stored (the
   * alerts watch runs this way). A listener that throws is logged and does not stop others.
   * Returns the function that removes it.
   */
  onRunEnded(listener: RunEndedListener): () => void {
    this.endedListeners.add(listener);
    return () => this.endedListeners.delete(listener);
  }

  private announceEnded(runIds: number[]): void {
    for (const runId of runIds) {
      for (const listener of this.endedListeners) {
        void Promise.resolve()
          .then(() => listener(runId))
          .catch((error: unknown) =>
            console.error(`[wirespeed] after run ${runId}:`, error instanceof Error ? error.message : error),
          );
      }
    }
  }

  /** Records a run and queues it on its link; it starts at once when the link is free. */
  async startRun(input: StartRunInput) {
    const [run] = await this.startRunsTogether([input]);
    return run!;
  }

  /**
   * Records runs that must run at the same time (the ports of a dual-port card, the channels
   * of a 100G link) and starts them once every link they use is free: every server first,
   * then every client at once. Runs on one link share its turn in the queue.
   */
  async startRunsTogether(inputs: StartRunInput[]) {
    const { runs, links, handedOff } = await this.recordRuns(inputs, false);
    // Another site's instance claims it (claimHandedOffRuns) and runs it there.
    if (!handedOff) this.queueTogether(runs);
    return runs.map((run) => runJson(run, links.get(run.linkId)!));
  }

  /** Queues recorded runs on their links; they start together once every link is theirs. */
  private queueTogether(runs: Array<{ id: number; linkId: number }>): void {
    const runIds = runs.map((run) => run.id);
    // The first run on each link holds the link's place in its queue for all of them.
    const holders = [...new Map(runs.map((run) => [run.linkId, run.id])).entries()];
    let waitingFor = holders.length;
    const linkIds = holders.map(([linkId]) => linkId);
    const holder = { runId: runIds[0]! };
    // Cancelled or stopped while another instance held a link: nothing is left to start.
    const hasGivenUp = () =>
      runIds.every((runId) => {
        const pending = this.pending.get(runId);
        return !pending || pending.isEnding || pending.controller.signal.aborted;
      });
    for (const [linkId, holderId] of holders) {
      this.queue.enqueue(linkId, holderId, () => {
        waitingFor -= 1;
        if (waitingFor > 0) return;
        // This instance's turn; then the links across instances (link-holds.ts).
        void holdLinksAcrossInstances(this.instance.id, linkIds, holder, hasGivenUp)
          .then(() => this.executeTogether(runIds))
          .catch((error: unknown) =>
            console.error(`[wirespeed] runs ${runIds.join(", ")}:`, error instanceof Error ? error.message : error),
          )
          .finally(async () => {
            await releaseLinks(this.instance.id, linkIds, holder).catch(() => undefined);
            for (const runId of runIds) this.forget(runId);
            this.announceEnded(runIds);
            for (const [heldLinkId, heldBy] of holders) this.queue.done(heldLinkId, heldBy);
          });
      });
    }
  }

  /**
   * Claims runs handed to this instance's site (recorded by an instance of another site: see
   * `record`) and queues them here. The claim is one conditional UPDATE of the runs' `instance`, whose
   * subquery locks the rows it picks on Postgres (FOR UPDATE SKIP LOCKED), so that of several
   * instances of a site each run goes to exactly one, and none waits for another's lock. The outer
   * WHERE repeats the condition: Postgres checks it again on a row another claim changed meanwhile.
   */
  async claimHandedOffRuns(): Promise<number> {
    if (this.stopReason !== null) return 0;
    const { id: me, site } = this.instance;
    const siteMatches = (host: Prisma.Sql) =>
      site === null
        ? Prisma.sql`${host}."site" IS NULL`
        : Prisma.sql`(${host}."site" IS NULL OR ${host}."site" = ${site})`;
    const lock = getApp().database === "postgres" ? Prisma.sql`FOR UPDATE OF r SKIP LOCKED` : Prisma.empty;
    const claimed = await db.$queryRaw<Array<{ id: number }>>`
      UPDATE "Run" SET "instance" = ${me} WHERE "status" = 'queued' AND "instance" IS NULL AND "id" IN (
        SELECT r."id" FROM "Run" r
        JOIN "Link" l ON l."id" = r."linkId"
        JOIN "Nic" an ON an."id" = l."aNicId" JOIN "Host" ah ON ah."id" = an."hostId"
        JOIN "Nic" bn ON bn."id" = l."bNicId" JOIN "Host" bh ON bh."id" = bn."hostId"
        WHERE r."status" = 'queued' AND r."instance" IS NULL AND ${siteMatches(Prisma.sql`ah`)} AND ${siteMatches(Prisma.sql`bh`)}
        ORDER BY r."id" LIMIT 16 ${lock})
      RETURNING "id", "linkId"`;
    for (const { id } of claimed) {
      const run = await db.run.findUniqueOrThrow({ where: { id: Number(id) }, select: { id: true, linkId: true } });
      this.track(run.id, run.linkId, [run.id], false);
      this.queueTogether([run]);
    }
    return claimed.length;
  }

  /**
   * Takes each link's turn in its queue for `holderId` (an experiment), in the queues' order:
   * runs asked for later wait until `release()`. The runs of the hold go through `runHeld`.
   */
  holdLinks(linkIds: number[], holderId: number): LinkHold {
    const key = -holderId;
    let held = 0;
    let markReady = () => {};
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const unique = [...new Set(linkIds)];
    let isReleased = false;
    const holder = { experimentId: holderId };
    for (const linkId of unique) {
      this.queue.enqueue(linkId, key, () => {
        held += 1;
        // This instance's turn on every link; then the links across instances (link-holds.ts).
        if (held === unique.length)
          void holdLinksAcrossInstances(this.instance.id, unique, holder, () => isReleased).then(markReady);
      });
    }
    return {
      ready,
      release: () => {
        if (isReleased) return;
        isReleased = true;
        void releaseLinks(this.instance.id, unique, holder)
          .catch(() => undefined)
          .finally(() => {
            for (const linkId of unique) this.queue.done(linkId, key);
          });
      },
    };
  }

  /**
   * Records runs on links the caller holds (`holdLinks`) and carries them out together at once,
   * without queueing. `onRecorded` sees the runs before their first step (to follow their events).
   * Resolves when they have all ended.
   */
  async runHeld(
    inputs: StartRunInput[],
    { onRecorded = () => {}, hostCache }: { onRecorded?: (runs: RunJson[]) => void; hostCache?: HostCache } = {},
  ): Promise<RunJson[]> {
    const { runs, links } = await this.recordRuns(inputs, true);
    const runIds = runs.map((run) => run.id);
    const recorded = runs.map((run) => runJson(run, links.get(run.linkId)!));
    onRecorded(recorded);
    try {
      await this.executeTogether(runIds, hostCache);
    } finally {
      for (const runId of runIds) this.forget(runId);
      this.announceEnded(runIds);
    }
    return recorded;
  }

  /** Cancels the runs of a hold that are still going (an experiment cancelled mid-step). */
  async cancelHeld(runIds: number[]): Promise<void> {
    // The experiment's cancel is the one audit row of that action: its runs' cancels write none.
    await Promise.all(
      runIds
        .filter((runId) => this.pending.get(runId)?.held)
        .map((runId) => this.cancelRun(runId, { isAudited: true })),
    );
  }

  /**
   * A device's run (lib/runs/listen.ts): a one-off server on the link's managed end waits
   * `timeoutSeconds` for the device's iperf3 client. Takes the link's turn at once or is refused
   * (409: a device is waiting in person, it must not queue). Resolves with the run once it listens;
   * a server that could not start rejects with its failure (the run is stored failed).
   */
  async listenForDevice({ linkId, timeoutSeconds }: { linkId: number; timeoutSeconds: number }): Promise<RunJson> {
    this.refuseIfShuttingDown();
    const link = await loadListenLink(linkId);
    const recording = recordListenRun(link);
    this.recordings.add(recording);
    void recording.finally(() => this.recordings.delete(recording)).catch(() => undefined);
    const runId = await recording;
    let hasTurn = false;
    this.queue.enqueue(linkId, runId, () => (hasTurn = true));
    // Another instance's run or experiment on the link counts as busy too (link-holds.ts).
    if (hasTurn && !(await tryHoldLinks(this.instance.id, [linkId], { runId }))) hasTurn = false;
    if (!hasTurn) {
      this.queue.done(linkId, runId);
      await db.run.delete({ where: { id: runId } });
      throw new RunError("conflict", `Link ${link.linkName} is busy: a run or an experiment is using it.`, {
        hint: "Listen for the device once it has ended.",
      });
    }
    await recordAudit(
      "run.start",
      "run",
      runId,
      `${link.linkName}, listening for ${link.deviceName} (${timeoutSeconds} s)`,
    );
    this.bus.begin(runId);
    let resolve = () => {};
    const promise = new Promise<void>((done) => (resolve = done));
    const controller = new AbortController();
    this.pending.set(runId, { linkId, controller, promise, resolve, together: [runId], held: false, isEnding: false });
    const execution = new ListenExecution(
      runId,
      link,
      timeoutSeconds,
      { remote: this.remote, ports: this.ports, bus: this.bus, limits: this.limits },
      controller.signal,
    );
    void execution.run().finally(async () => {
      await releaseLinks(this.instance.id, [linkId], { runId }).catch(() => undefined);
      this.forget(runId);
      this.announceEnded([runId]);
    });
    await execution.listening;
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status === "failed" && run.errorKind)
      throw new RunError(run.errorKind as RunFailure["kind"], run.errorMessage ?? "", { hint: run.errorHint ?? "" });
    return runJson(run, { id: linkId, name: link.linkName, speedMbps: await this.linkSpeed(linkId) });
  }

  private async linkSpeed(linkId: number): Promise<number> {
    return (await db.link.findUniqueOrThrow({ where: { id: linkId }, select: { speedMbps: true } })).speedMbps;
  }

  /** Throws ShuttingDownError (503) once Wirespeed stops: nothing new starts then. */
  refuseIfShuttingDown(): void {
    if (this.stopReason !== null) throw new ShuttingDownError();
  }

  /** Records runs, each queued with an open live stream, tied to the runs it must run with. */
  private recordRuns(inputs: StartRunInput[], held: boolean) {
    this.refuseIfShuttingDown();
    const recording = this.record(inputs, held);
    this.recordings.add(recording);
    void recording.finally(() => this.recordings.delete(recording)).catch(() => undefined);
    return recording;
  }

  private async record(inputs: StartRunInput[], held: boolean) {
    const end = { select: { host: { select: { name: true, access: true, site: true } } } } as const;
    const found = await db.link.findMany({
      where: { id: { in: inputs.map((input) => input.linkId) } },
      select: { id: true, name: true, speedMbps: true, aNic: end, bNic: end },
    });
    const links = new Map(found.map((link) => [link.id, link]));
    const missing = inputs.find((input) => !links.has(input.linkId));
    if (missing) throw new RunError("not-found", `Link ${missing.linkId} does not exist.`);
    for (const input of inputs) {
      const link = links.get(input.linkId)!;
      refuseClientOnExternalServer({ a: link.aNic.host, b: link.bNic.host }, input.clientSide);
    }
    // WIRESPEED_SITE: a link whose hosts have a site is driven by an instance of that site. A single
    // run asked of another site's link is recorded unclaimed, for an instance of that site to claim.
    const mySite = this.instance.site;
    const sites = inputs.map((input) => siteOfLink(links.get(input.linkId)!));
    const foreign = sites.find((site) => site !== null && site !== mySite);
    const handedOff = foreign !== undefined;
    if (handedOff && (inputs.length > 1 || held)) {
      throw new RunError(
        "conflict",
        `Runs that go together, and experiments, on links of site ${foreign} are driven from an instance of that site.`,
        { hint: `Start it from a Wirespeed instance with WIRESPEED_SITE=${foreign}.` },
      );
    }
    const runs = await db.$transaction(
      inputs.map((input) =>
        db.run.create({
          data: {
            linkId: input.linkId,
            clientSide: input.clientSide,
            options: input.options as Prisma.InputJsonValue,
            signature: signatureOf(input.options, input.clientSide),
            experimentId: input.experimentId ?? null,
            stepId: input.stepId ?? null,
            channel: input.channel ?? null,
            // This instance runs it (in this process, from its queue): another takes it over only if this one
            // dies. A run handed to another site waits unclaimed (null) for an instance of that site.
            instance: handedOff ? null : this.instance.id,
          },
        }),
      ),
    );
    const runIds = runs.map((run) => run.id);
    for (const [index, run] of runs.entries()) {
      const input = inputs[index]!;
      await recordAudit(
        "run.start",
        "run",
        run.id,
        `${links.get(input.linkId)!.name}, client on ${input.clientSide}: ${JSON.stringify(input.options)}`,
      );
      if (!handedOff) this.track(run.id, input.linkId, runIds, held);
    }
    return { runs, links, handedOff };
  }

  /** A run this instance carries out from now on: its live stream opened, its place kept until it ends. */
  private track(runId: number, linkId: number, together: number[], held: boolean): void {
    this.bus.begin(runId);
    this.bus.publish(runId, "status", { status: "queued" });
    let resolve = () => {};
    const promise = new Promise<void>((done) => (resolve = done));
    this.pending.set(runId, {
      linkId,
      controller: new AbortController(),
      promise,
      resolve,
      together,
      held,
      isEnding: false,
    });
  }

  /**
   * Carries out runs step by step, each step for all of them before the next: so every
   * server listens (a -J server is presumed to, see server-start.ts startServer) before any
   * client starts, and the clients start together; a client refused by a server that was slow
   * to listen starts again on its own. A run that
   * fails a step skips the rest of its steps; before the clients start, it stops the others
   * too (they could not run together any more).
   */
  private async executeTogether(runIds: number[], hostCache?: HostCache): Promise<void> {
    // Their turn came after Wirespeed began to stop (a run before them was just interrupted).
    if (this.stopReason !== null)
      return this.endUnstarted(
        runIds,
        "interrupted",
        runFailureOf(shutdownInterruption(this.stopReason, { hasStarted: false }), "unknown"),
      );
    const executions = runIds
      .filter((runId) => this.pending.has(runId) && !this.pending.get(runId)!.isEnding)
      .map(
        (runId) =>
          new RunExecution(
            runId,
            { remote: this.remote, ports: this.ports, bus: this.bus, limits: this.limits, hostCache },
            this.pending.get(runId)!.controller.signal,
          ),
      );
    const together = async (name: "resolve" | "prepare" | "startServer" | "clientReady" | "idle" | "startClient") => {
      await Promise.all(executions.map((execution) => execution.step(name)));
      const failed = executions.find((execution) => execution.hasFailed);
      if (!failed || executions.length === 1) return;
      for (const execution of executions) {
        execution.failure ??= new RunError(
          "unknown",
          `Run #${failed.runId}, which had to run at the same time, could not start.`,
          { hint: "See that run's error; the samples of this one, if any, are kept." },
        );
      }
    };
    try {
      await together("resolve");
      await together("prepare");
      await together("startServer");
      // Every client's host ready, then every client told to start in the same turn of the event loop.
      await together("clientReady");
      // Latency under load: the pings' idle phase, for the runs that asked for it.
      await together("idle");
      await together("startClient");
      await Promise.all(executions.map((execution) => execution.step("stream")));
    } finally {
      await Promise.all(executions.map((execution) => execution.close()));
    }
    await Promise.all(executions.map((execution) => execution.finish()));
  }

  /** Same link, same options, same client side: a new run. */
  async rerun(runId: number) {
    const end = { select: { host: { select: { access: true } } } } as const;
    const previous = await db.run.findUnique({
      where: { id: runId },
      select: { linkId: true, options: true, clientSide: true, link: { select: { aNic: end, bNic: end } } },
    });
    if (!previous) throw new RunError("not-found", `Run ${runId} does not exist.`);
    // A device's run again is Wirespeed listening for the device again: the device chooses the test.
    if ([previous.link.aNic, previous.link.bNic].some((nic) => nic.host.access === "device"))
      return this.listenForDevice({ linkId: previous.linkId, timeoutSeconds: LISTEN_TIMEOUT_SECONDS.default });
    // A run again must pass today's schema: an old run whose options it refuses says which.
    const parsed = IperfOptionsSchema.safeParse(previous.options);
    if (!parsed.success) throw invalidInput(fieldErrorsFromZod(parsed.error, "options"));
    return this.startRun({
      linkId: previous.linkId,
      options: parsed.data,
      clientSide: clientSideOf(previous.clientSide),
    });
  }

  /**
   * How a cancel reaches the instance that runs a test (lib/instances/registry.ts, on Postgres): set
   * once the instances can reach each other; null on one instance.
   */
  forwardCancel: ((runId: number, instance: string) => Promise<void>) | null = null;

  /**
   * Stops a run: both ends' iperf3 are stopped and the samples so far are kept. The cancel is audited
   * here, naming who asked, unless `isAudited`: a cancel forwarded from the instance the user asked
   * (which wrote the row), or an experiment's cancel stopping its runs. One action, one row.
   */
  async cancelRun(runId: number, { isAudited = false }: { isAudited?: boolean } = {}): Promise<RunStatus> {
    const run = await db.run.findUnique({
      where: { id: runId },
      select: { status: true, linkId: true, instance: true },
    });
    if (!run) throw new RunError("not-found", `Run ${runId} does not exist.`);
    if (isFinalStatus(run.status)) return run.status as RunStatus;
    if (!isAudited) await recordAudit("run.cancel", "run", runId, `was ${run.status}`);
    // Handed to another site and not claimed yet: cancelled where it waits, unless claimed meanwhile.
    const unclaimed = await db.run.updateMany({
      where: { id: runId, status: "queued", instance: null },
      data: { status: "cancelled", endedAt: new Date() },
    });
    if (unclaimed.count === 1) return "cancelled";
    const pending = this.pending.get(runId);
    // Another instance runs it: it is asked to cancel, and the run's end is awaited here (15 s at most).
    if (!pending && run.instance !== null && run.instance !== this.instance.id && this.forwardCancel) {
      await this.forwardCancel(runId, run.instance);
      for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
        const now = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
        if (!now || isFinalStatus(now.status)) return (now?.status ?? "cancelled") as RunStatus;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return (await db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).status as RunStatus;
    }
    if (pending && run.status === "queued" && !this.hasStarted(runId)) {
      // Never started: it leaves the queue and ends here, with the runs that were to run with it.
      await this.endUnstarted(pending.together, "cancelled", null);
      return "cancelled";
    }
    pending?.controller.abort();
    await pending?.promise;
    const after = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
    return (after?.status ?? "cancelled") as RunStatus;
  }

  /**
   * Wirespeed is stopping (SIGTERM, Ctrl-C; lib/shutdown.ts): from now on no run starts
   * (ShuttingDownError). Runs still waiting for their link end as interrupted without starting,
   * as a crash's recovery would mark them; runs under way are stopped as a cancel stops them
   * (both ends' iperf3, the client first, so that it prints its partial summary) and stored as
   * interrupted by `reason`, with every sample received. Resolves once every run is stored.
   */
  async shutdown(reason: string): Promise<void> {
    this.stopReason ??= reason;
    await Promise.allSettled([...this.recordings]);
    const runIds = [...this.pending.keys()];
    const ended = runIds.map((runId) => this.pending.get(runId)!.promise);
    const unstarted = runIds.filter((runId) => !this.hasStarted(runId));
    for (const runId of runIds) {
      if (!unstarted.includes(runId))
        this.pending.get(runId)!.controller.abort(shutdownInterruption(this.stopReason, { hasStarted: true }));
    }
    await this.endUnstarted(
      unstarted,
      "interrupted",
      runFailureOf(shutdownInterruption(this.stopReason, { hasStarted: false }), "unknown"),
    );
    await Promise.all(ended);
  }

  /** The runs this engine has not finished with: queued, preparing or running. */
  get activeRunIds(): number[] {
    return [...this.pending.keys()];
  }

  /**
   * Ends runs that never started (cancelled, or interrupted by a stop), storing `failure`. They
   * are marked at once, so that a link's queue handing them its turn meanwhile starts nothing,
   * and stay pending until stored, so that a shutdown waits for them.
   */
  private async endUnstarted(
    runIds: number[],
    status: "cancelled" | "interrupted",
    failure: RunFailure | null,
  ): Promise<void> {
    const claimed = runIds.filter((runId) => {
      const pending = this.pending.get(runId);
      if (!pending || pending.isEnding) return false;
      pending.isEnding = true;
      return true;
    });
    for (const runId of claimed) {
      try {
        await finishRun(this.bus, runId, { status, endedAt: new Date() }, failure);
      } finally {
        this.forget(runId);
      }
    }
  }

  /** Waits until a run has ended (for tests and the CLI). */
  async waitForRun(runId: number): Promise<void> {
    await this.pending.get(runId)?.promise;
  }

  /** Whether the runs of `runId`'s group hold all their links (so its steps have begun). */
  private hasStarted(runId: number): boolean {
    const pending = this.pending.get(runId);
    if (!pending) return false;
    if (pending.held) return true;
    return pending.together.every((id) => {
      const other = this.pending.get(id);
      return !other || this.queuePosition(other.linkId, id) === 0;
    });
  }

  /** The run is over: it leaves the queue (if it still waited there) and its waiters are told. */
  private forget(runId: number): void {
    const pending = this.pending.get(runId);
    if (!pending) return;
    this.pending.delete(runId);
    this.queue.done(pending.linkId, runId);
    pending.resolve();
  }

  /** Place in the link's queue: 0 running, 1 next, …; null when not queued here. */
  queuePosition(linkId: number, runId: number): number | null {
    const position = this.queue.position(linkId, runId);
    if (position !== null) return position;
    // A run that shares its link's turn with another of its group waits where that one does.
    const holder = this.pending
      .get(runId)
      ?.together.find(
        (id) => id !== runId && this.pending.get(id)?.linkId === linkId && this.queue.position(linkId, id) !== null,
      );
    return holder === undefined ? null : this.queue.position(linkId, holder);
  }

  /**
   * Runs left preparing or running by an instance that is gone (at start-up: any, this instance's
   * previous life among them; then, every heartbeat, those of instances whose lease ran out: see
   * lib/instances/registry.ts) are marked interrupted, with their samples and partial summary, and
   * the iperf3 processes they started are stopped on both hosts through the pids they recorded. Each
   * run is claimed first by a conditional update of its `instance`, so that of several instances
   * sweeping at once exactly one recovers it. `isGone` says which instances are gone (default: all).
   */
  /** Recovers the active runs of gone instances; returns the instance each recovered run was left by. */
  async recoverInterruptedRuns(isGone: (instance: string | null) => boolean = () => true): Promise<(string | null)[]> {
    const me = this.instance.id;
    const candidates = await db.run.findMany({
      where: { status: { in: [...ACTIVE_RUN_STATUSES] } },
      select: { id: true, clientSide: true, serverPid: true, clientPid: true, instance: true },
    });
    const recovered: (string | null)[] = [];
    for (const run of candidates) {
      if (this.pending.has(run.id) || !isGone(run.instance)) continue;
      const claim = await db.run.updateMany({
        where: { id: run.id, instance: run.instance, status: { in: [...ACTIVE_RUN_STATUSES] } },
        data: { instance: me },
      });
      if (claim.count === 0) continue;
      recovered.push(run.instance);
      const pids = { server: run.serverPid, client: run.clientPid };
      try {
        // A device's run (lib/runs/listen.ts) has only its server on a host Wirespeed reaches.
        const listenServer = await loadListenServerEndpoint(run.id);
        const endpoints = listenServer ? { server: listenServer, client: null } : await loadRunEndpoints(run.id);
        for (const role of ["server", "client"] as const) {
          const pid = pids[role];
          const endpoint = endpoints[role];
          if (!endpoint) continue;
          // An iperf3 server Wirespeed does not manage has no pid of ours: nothing was started there.
          if (pid && endpoint.access === "ssh") await this.remote.stopLeftover(endpoint, [pid]);
        }
      } catch (error) {
        console.error(
          `run ${run.id}: could not stop leftover iperf3: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
        );
      }
      const fromOther = run.instance !== null && run.instance !== me;
      await db.run.update({
        where: { id: run.id },
        data: {
          status: "interrupted",
          endedAt: new Date(),
          errorKind: "interrupted",
          errorMessage: fromOther
            ? `The Wirespeed instance ${run.instance} that ran this test stopped answering while it was in progress; instance ${me} took it over.`
            : "Wirespeed stopped while this run was in progress.",
          errorHint: "The samples received before the stop are kept; run it again to get a full result.",
        },
      });
      // Viewers here that followed the run live from its instance (lib/instances/relay.ts) learn how it ended.
      if (this.bus.isActive(run.id)) {
        this.bus.publish(run.id, "status", { status: "interrupted" });
        this.bus.end(run.id);
      }
    }
    return recovered;
  }
}
