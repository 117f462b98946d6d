// UDP ceiling: the highest UDP bitrate whose loss stays at or below lossPercent. It tries
// `high` first (the line rate by default); while nothing has passed, it halves the rate after
// each failing step, down to `low` (1% of high by default), the floor it tries last. Once a
// step passes, it bisects between the highest passing rate and the lowest failing one above it,
// with short runs, until they are within UDP_CEILING.tolerance of each other.
//
// Halving rather than stepping to just below what a failing step received: a receiver short of
// socket buffer loses some datagrams at any rate and receives nearly all it is sent, so that
// figure says nothing about where its ceiling is (the 1 Gbit/s link went 1000, 934,
// 907 … 759 Mbit/s and gave up), while one that overflows at a third of the line rate is
// found in two halvings.
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import { IPERF_LIMITS, IperfOptionsSchema } from "@/lib/iperf/options";
import type { RunRequest } from "@/lib/runs/request";
import {
  DEFAULT_LOSS_PERCENT,
  type BaseRunOptions,
  type PlanLink,
  type PlanOf,
  type StepOutcome,
  type StepSpec,
  type UdpCeilingResult,
  type UdpCeilingStep,
} from "../contract";
import { exactlyOneLink, lineRateOf, linkOf, numberBetween, wholeNumber } from "./figures";
import { refuseClientOnExternalServer } from "./external";
import type { KindDefinition } from "./kind";
import { formatBitRate, formatPercentWord } from "@/lib/format";

export const UDP_CEILING = {
  /**
   * The most steps a plan may take: `high`, the halvings down to `low`, then the bisections.
   * The default floor (1% of high) takes 1 + 7 + 6 = 14 at most; 20 leaves room for a floor
   * down to 1/8192 of high (122 kbit/s under 1 Gbit/s), about 2 minutes of 3 s steps.
   */
  maxSteps: 20,
  /** the search ends when the best passing and the lowest failing rate are this close (share of the failing one) */
  tolerance: 0.02,
  /** seconds per step when the options give neither a duration nor a byte count: a search wants short runs */
  defaultDuration: 3,
  /** `low` when not given: this share of `high` */
  defaultLowShare: 0.01,
} as const;

/**
 * Bisections that bring the bounds within the tolerance: after the first pass p, the lowest
 * failing rate f is at most 2p, so the gap (at most f/2) has to shrink 1/tolerance times.
 */
const BISECTIONS = Math.ceil(Math.log2(1 / UDP_CEILING.tolerance));
/** Halvings from high to low that fit in UDP_CEILING.maxSteps beside high and the bisections. */
const MAX_HALVINGS = UDP_CEILING.maxSteps - 1 - BISECTIONS;

const BITRATE_MAX = IPERF_LIMITS.bitrate.max;

const UdpCeilingFieldsSchema = z.strictObject({
  lossPercent: numberBetween("lossPercent", 0, 100, " (% of datagrams lost)").default(DEFAULT_LOSS_PERCENT),
  low: wholeNumber("low", 0, BITRATE_MAX, " bits/s").nullable().default(null),
  high: wholeNumber("high", 1, BITRATE_MAX, " bits/s").nullable().default(null),
});

type Bounds = { low: number; high: number };

/** The bounds of the search in bits/s, or null when `high` has no default (a link without a speed). */
export function ceilingBounds(plan: PlanOf<"udp-ceiling">, links: readonly PlanLink[]): Bounds | null {
  const high = plan.high ?? lineRateOf(linkOf(links, plan.linkIds[0]));
  if (high === null) return null;
  return { low: plan.low ?? Math.round(high * UDP_CEILING.defaultLowShare), high };
}

/** The rate after a failing one while nothing has passed: half of it, but not below the floor. */
function halved(bitrate: number, low: number): number {
  return Math.max(low, Math.round(bitrate / 2));
}

/** How many steps a search between these bounds takes at most: high, each halving down to low, the bisections. */
export function ceilingStepBudget(bounds: Bounds): number {
  if (bounds.low >= bounds.high) return 1;
  // A floor of 0 is never reached by halving (and 0 is "unlimited" to iperf3): check refuses it.
  if (!(bounds.low > 0)) return Infinity;
  let halvings = 0;
  for (let bitrate = bounds.high; bitrate > bounds.low; bitrate = halved(bitrate, bounds.low)) halvings += 1;
  return 1 + halvings + BISECTIONS;
}

type Tried = { bitrate: number; lostPercent: number | null };

function triedOf(done: readonly StepOutcome[]): Tried[] {
  return done.flatMap((step) =>
    step.tags.bitrate === undefined
      ? []
      : [{ bitrate: step.tags.bitrate, lostPercent: step.runs[0]?.lostPercent ?? null }],
  );
}

/** The bitrate to try next, or null when the search is over. */
export function nextCeilingBitrate(lossPercent: number, bounds: Bounds, done: readonly StepOutcome[]): number | null {
  if (done.length >= Math.min(ceilingStepBudget(bounds), UDP_CEILING.maxSteps)) return null;
  const tried = triedOf(done);
  if (tried.length === 0) return bounds.high;
  // A step without a loss figure (its run failed) cannot say which side it is on: stop there.
  if (tried.some((step) => step.lostPercent === null)) return null;
  const passing = tried.filter((step) => step.lostPercent! <= lossPercent).map((step) => step.bitrate);
  if (passing.length === 0) {
    const lowest = Math.min(...tried.map((step) => step.bitrate));
    return lowest > bounds.low ? halved(lowest, bounds.low) : null;
  }
  const best = Math.max(...passing);
  const failingAbove = tried
    .filter((step) => step.lostPercent! > lossPercent && step.bitrate > best)
    .map((step) => step.bitrate);
  if (failingAbove.length === 0) return null;
  const lowestFailing = Math.min(...failingAbove);
  if (lowestFailing - best <= UDP_CEILING.tolerance * lowestFailing) return null;
  const next = Math.round((best + lowestFailing) / 2);
  return next > best && next < lowestFailing ? next : null;
}

/** `low` that the search cannot reach within UDP_CEILING.maxSteps, as a field error. */
function lowTooFarError(bounds: Bounds): FieldError | null {
  if (bounds.low >= bounds.high || ceilingStepBudget(bounds) <= UDP_CEILING.maxSteps) return null;
  const share = 2 ** MAX_HALVINGS;
  return {
    field: "low",
    message:
      `must be at least 1/${share} of high (${formatBitRate(Math.ceil(bounds.high / share))}): ` +
      `the search halves the rate from high down to low and takes at most ${UDP_CEILING.maxSteps} steps`,
  };
}

function ceilingStep(plan: PlanOf<"udp-ceiling">, base: RunRequest, bitrate: number): StepSpec {
  return {
    label: `UDP at ${formatBitRate(bitrate)}`,
    tags: { bitrate },
    runs: [
      {
        linkId: plan.linkIds[0]!,
        options: IperfOptionsSchema.parse({ ...base.options, bitrate }),
        clientSide: base.clientSide,
      },
    ],
  };
}

function formatMs(ms: number): string {
  return String(Number(ms.toFixed(ms < 1 ? 3 : 2)));
}

/** Steps the plan takes at most: its own budget, or the most any plan may take while its bounds are unknown. */
function stepsOfPlan(plan: PlanOf<"udp-ceiling">, links: readonly PlanLink[]): number {
  const bounds = ceilingBounds(plan, links);
  return bounds === null ? UDP_CEILING.maxSteps : Math.min(ceilingStepBudget(bounds), UDP_CEILING.maxSteps);
}

/** The percent of `part` by which `upper` lies above it, to 0.1. */
function percentAbove(upper: number, part: number): number {
  return Math.round(((upper - part) / part) * 1000) / 10;
}

// Said when nothing passed down to the floor: loss at every rate is the receiver's doing far more
// often than the link's, and its socket buffer is capped by net.core.rmem_max whatever -w asks.
const RECEIVE_BUFFER_HINT =
  "UDP lost even at the lowest rate usually means the receiver's socket buffer is too small: " +
  "raise net.core.rmem_max on the receiving host and give a socket buffer (-w, e.g. 4M)";

export const udpCeilingKind: KindDefinition<"udp-ceiling"> = {
  kind: "udp-ceiling",
  title: "UDP ceiling",
  defaultName: () => "UDP ceiling",
  fieldsSchema: UdpCeilingFieldsSchema,
  baseOptions(plan) {
    // UDP whatever the options say; each step sets its bitrate (0 stands in until then).
    const options: BaseRunOptions = { ...plan.options, protocol: "udp", bitrate: 0 };
    return options.duration === undefined && options.bytes === undefined
      ? { ...options, duration: UDP_CEILING.defaultDuration }
      : options;
  },
  check(plan, base, links) {
    const errors: FieldError[] = [
      ...exactlyOneLink(plan.linkIds, "UDP ceiling"),
      // An iperf3 server Wirespeed does not manage (the ISP leg) answers each step as any client's.
      ...refuseClientOnExternalServer(links, [base.clientSide], "clientSide"),
    ];
    const link = linkOf(links, plan.linkIds[0]);
    if (link && plan.high === null && lineRateOf(link) === null) {
      errors.push({
        field: "high",
        message: `is needed: link ${link.name} has no speed to start the search from (bits/s)`,
      });
    }
    const bounds = ceilingBounds(plan, links);
    if (bounds && bounds.low >= bounds.high) {
      errors.push({
        field: "low",
        message: `must be below high (${formatBitRate(bounds.high)}): the search runs between them`,
      });
    }
    const tooFar = bounds && lowTooFarError(bounds);
    if (tooFar) errors.push(tooFar);
    return errors;
  },
  maxRuns: stepsOfPlan,
  maxSteps: stepsOfPlan,
  steps: () => null,
  nextStep(plan, base, links, done) {
    const bounds = ceilingBounds(plan, links);
    const bitrate = bounds && nextCeilingBitrate(plan.lossPercent, bounds, done);
    return bitrate ? ceilingStep(plan, base, bitrate) : null;
  },
  result(plan, _links, done): UdpCeilingResult {
    const steps: UdpCeilingStep[] = done.flatMap((step) => {
      const run = step.runs[0];
      if (step.tags.bitrate === undefined || !run) return [];
      return [
        {
          bitrate: step.tags.bitrate,
          runId: run.runId,
          receivedBitsPerSecond: run.receivedBitsPerSecond,
          lostPercent: run.lostPercent,
          jitterMs: run.jitterMs,
        },
      ];
    });
    const measured = steps.filter(
      (step): step is UdpCeilingStep & { lostPercent: number } => step.lostPercent !== null,
    );
    const ceiling = measured
      .filter((step) => step.lostPercent <= plan.lossPercent)
      .reduce<UdpCeilingStep | null>(
        (best, step) => (best === null || step.bitrate > best.bitrate ? step : best),
        null,
      );
    const lowestFailing = measured
      .filter((step) => step.lostPercent > plan.lossPercent && step.bitrate > (ceiling?.bitrate ?? 0))
      .reduce<(typeof measured)[number] | null>(
        (lowest, step) => (lowest === null || step.bitrate < lowest.bitrate ? step : lowest),
        null,
      );
    return {
      bitsPerSecond: ceiling?.bitrate ?? null,
      receivedBitsPerSecond: ceiling?.receivedBitsPerSecond ?? null,
      lostPercent: ceiling?.lostPercent ?? null,
      jitterMs: ceiling?.jitterMs ?? null,
      lowestFailing: lowestFailing && { bitrate: lowestFailing.bitrate, lostPercent: lowestFailing.lostPercent },
      gapPercent: ceiling && lowestFailing ? percentAbove(lowestFailing.bitrate, ceiling.bitrate) : null,
      steps,
    };
  },
  answer(plan, links, result) {
    const limit = plan.lossPercent === 0 ? "without loss" : `without loss above ${formatPercentWord(plan.lossPercent)}`;
    // Results stored before lowestFailing existed lack it.
    const failing = result.lowestFailing ?? null;
    if (result.bitsPerSecond !== null) {
      const jitter = result.jitterMs === null ? "" : ` (jitter ${formatMs(result.jitterMs)} ms)`;
      const above =
        failing === null || result.gapPercent == null
          ? ""
          : `; ${formatBitRate(failing.bitrate)}, ${formatPercentWord(result.gapPercent)} higher, loses ${formatPercentWord(failing.lostPercent)}`;
      return `Up to ${formatBitRate(result.bitsPerSecond)} ${limit}${jitter}${above}`;
    }
    if (failing === null) return null;
    const floor = ceilingBounds(plan, links)?.low;
    const hint = floor !== undefined && failing.bitrate <= floor ? `; ${RECEIVE_BUFFER_HINT}` : "";
    return `No bitrate tried stays ${limit}: ${formatBitRate(failing.bitrate)}, the lowest, loses ${formatPercentWord(failing.lostPercent)}${hint}`;
  },
  table(plan, _links, result) {
    const passes = (lost: number | null) => (lost === null ? null : lost <= plan.lossPercent ? "yes" : "no");
    const failing = result.lowestFailing
      ? result.steps.find((step) => step.bitrate === result.lowestFailing!.bitrate)
      : undefined;
    return {
      columns: [
        { key: "step", label: "Step", format: "text" },
        { key: "bitrate", label: "Bitrate tried", format: "bitsPerSecond" },
        { key: "receivedBitsPerSecond", label: "Received", format: "bitsPerSecond" },
        { key: "lostPercent", label: "Loss", format: "percent" },
        { key: "jitterMs", label: "Jitter", format: "ms" },
        { key: "withinLoss", label: `Loss ≤ ${plan.lossPercent}%`, format: "text" },
        { key: "runIds", label: "Run", format: "runs" },
      ],
      rows: [
        ...result.steps.map((step, index) => ({
          key: `step ${index + 1}`,
          cells: {
            step: String(index + 1),
            bitrate: step.bitrate,
            receivedBitsPerSecond: step.receivedBitsPerSecond,
            lostPercent: step.lostPercent,
            jitterMs: step.jitterMs,
            withinLoss: passes(step.lostPercent),
            runIds: [step.runId],
          },
        })),
        {
          key: "ceiling",
          cells: {
            step: "Ceiling",
            bitrate: result.bitsPerSecond,
            receivedBitsPerSecond: result.receivedBitsPerSecond,
            lostPercent: result.lostPercent,
            jitterMs: result.jitterMs,
            withinLoss: passes(result.lostPercent),
            runIds: result.steps.filter((step) => step.bitrate === result.bitsPerSecond).map((step) => step.runId),
          },
        },
        ...(failing
          ? [
              {
                key: "lowest failing",
                cells: {
                  step:
                    result.gapPercent == null
                      ? "Lowest that loses more"
                      : `Lowest that loses more (+${formatPercentWord(result.gapPercent)})`,
                  bitrate: failing.bitrate,
                  receivedBitsPerSecond: failing.receivedBitsPerSecond,
                  lostPercent: failing.lostPercent,
                  jitterMs: failing.jitterMs,
                  withinLoss: passes(failing.lostPercent),
                  runIds: [failing.runId],
                },
              },
            ]
          : []),
      ],
    };
  },
};
