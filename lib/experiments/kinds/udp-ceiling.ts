// UDP ceiling: the highest UDP bitrate whose loss stays at or below lossPercent. It tries
// `high` first (the line rate by default); if that loses too much, it tries just below what the
// failing step received (a link delivers its ceiling while it drops the rest), else bisects
// between the best passing rate and the lowest failing one, with short runs, until they are
// within UDP_CEILING.tolerance of each other or UDP_CEILING.maxSteps steps are done.
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import { IPERF_LIMITS, IperfOptionsSchema } from "@/lib/iperf/options";
import type { RunRequest } from "@/lib/runs/request";
import { DEFAULT_LOSS_PERCENT, type BaseRunOptions, type PlanLink, type PlanOf, type StepOutcome, type StepSpec, type UdpCeilingResult, type UdpCeilingStep } from "../contract";
import { exactlyOneLink, formatBitRate, formatPercentWord, lineRateOf, linkOf, numberBetween, wholeNumber } from "./figures";
import type { KindDefinition } from "./kind";

export const UDP_CEILING = {
  maxSteps: 8,
  /** the search ends when the best passing and the lowest failing rate are this close (share of the failing one) */
  tolerance: 0.02,
  /** seconds per step when the options give neither a duration nor a byte count: a search wants short runs */
  defaultDuration: 3,
  /** `low` when not given: this share of `high` */
  defaultLowShare: 0.01,
} as const;

const BITRATE_MAX = IPERF_LIMITS.bitrate.max;

const UdpCeilingFieldsSchema = z.strictObject({
  lossPercent: numberBetween("lossPercent", 0, 100, " (% of datagrams lost)").default(DEFAULT_LOSS_PERCENT),
  low: wholeNumber("low", 0, BITRATE_MAX, " bits/s").nullable().default(null),
  high: wholeNumber("high", 1, BITRATE_MAX, " bits/s").nullable().default(null),
});

/** The bounds of the search in bits/s, or null when `high` has no default (a link without a speed). */
export function ceilingBounds(plan: PlanOf<"udp-ceiling">, links: readonly PlanLink[]): { low: number; high: number } | null {
  const high = plan.high ?? lineRateOf(linkOf(links, plan.linkIds[0]));
  if (high === null) return null;
  return { low: plan.low ?? Math.round(high * UDP_CEILING.defaultLowShare), high };
}

type Tried = { bitrate: number; lostPercent: number | null; receivedBitsPerSecond: number | null };

function triedOf(done: readonly StepOutcome[]): Tried[] {
  return done.flatMap((step) =>
    step.tags.bitrate === undefined ? [] : [{ bitrate: step.tags.bitrate, lostPercent: step.runs[0]?.lostPercent ?? null, receivedBitsPerSecond: step.runs[0]?.receivedBitsPerSecond ?? null }],
  );
}

/** The bitrate to try next, or null when the search is over. */
export function nextCeilingBitrate(lossPercent: number, bounds: { low: number; high: number }, done: readonly StepOutcome[]): number | null {
  if (done.length >= UDP_CEILING.maxSteps) return null;
  const tried = triedOf(done);
  if (tried.length === 0) return bounds.high;
  // A step without a loss figure (its run failed) cannot say which side it is on: stop there.
  if (tried.some((step) => step.lostPercent === null)) return null;
  const passes = (step: Tried) => step.lostPercent! <= lossPercent;
  const best = Math.max(bounds.low, ...tried.filter(passes).map((step) => step.bitrate));
  const failingAbove = tried.filter((step) => !passes(step) && step.bitrate > best).map((step) => step.bitrate);
  if (failingAbove.length === 0) return null;
  const lowestFailing = Math.min(...failingAbove);
  if (lowestFailing - best <= UDP_CEILING.tolerance * lowestFailing) return null;
  // A link that drops what it cannot carry still delivers its rate: just below what the lowest
  // failing step received is the likely ceiling, and far closer than the midpoint when `low` is far off.
  const received = tried.find((step) => step.bitrate === lowestFailing)?.receivedBitsPerSecond ?? null;
  const hint = received === null ? null : received * (1 - UDP_CEILING.tolerance);
  const midpoint = (best + lowestFailing) / 2;
  const target = hint !== null && hint > midpoint && hint < lowestFailing && !tried.some((step) => Math.abs(step.bitrate - hint) < 1000) ? hint : midpoint;
  // Whole kbit/s: readable in labels, and fine enough for any link that has a ceiling worth finding.
  const next = Math.round(target / 1000) * 1000;
  return next > best && next < lowestFailing ? next : null;
}

function ceilingStep(plan: PlanOf<"udp-ceiling">, base: RunRequest, bitrate: number): StepSpec {
  return {
    label: `UDP at ${formatBitRate(bitrate)}`,
    tags: { bitrate },
    runs: [{ linkId: plan.linkIds[0]!, options: IperfOptionsSchema.parse({ ...base.options, bitrate }), clientSide: base.clientSide }],
  };
}

function formatMs(ms: number): string {
  return String(Number(ms.toFixed(ms < 1 ? 3 : 2)));
}

export const udpCeilingKind: KindDefinition<"udp-ceiling"> = {
  kind: "udp-ceiling",
  title: "UDP ceiling",
  defaultName: () => "UDP ceiling",
  fieldsSchema: UdpCeilingFieldsSchema,
  baseOptions(plan) {
    // UDP whatever the options say; each step sets its bitrate (0 stands in until then).
    const options: BaseRunOptions = { ...plan.options, protocol: "udp", bitrate: 0 };
    return options.duration === undefined && options.bytes === undefined ? { ...options, duration: UDP_CEILING.defaultDuration } : options;
  },
  check(plan, _base, links) {
    const errors: FieldError[] = exactlyOneLink(plan.linkIds, "UDP ceiling");
    const link = linkOf(links, plan.linkIds[0]);
    if (link && plan.high === null && lineRateOf(link) === null) {
      errors.push({ field: "high", message: `is needed: link ${link.name} has no speed to start the search from (bits/s)` });
    }
    const bounds = ceilingBounds(plan, links);
    if (bounds && bounds.low >= bounds.high) {
      errors.push({ field: "low", message: `must be below high (${formatBitRate(bounds.high)}): the search runs between them` });
    }
    return errors;
  },
  maxRuns: () => UDP_CEILING.maxSteps,
  maxSteps: () => UDP_CEILING.maxSteps,
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
      return [{ bitrate: step.tags.bitrate, runId: run.runId, receivedBitsPerSecond: run.receivedBitsPerSecond, lostPercent: run.lostPercent, jitterMs: run.jitterMs }];
    });
    const ceiling = steps
      .filter((step) => step.lostPercent !== null && step.lostPercent <= plan.lossPercent)
      .reduce<UdpCeilingStep | null>((best, step) => (best === null || step.bitrate > best.bitrate ? step : best), null);
    return {
      bitsPerSecond: ceiling?.bitrate ?? null,
      receivedBitsPerSecond: ceiling?.receivedBitsPerSecond ?? null,
      lostPercent: ceiling?.lostPercent ?? null,
      jitterMs: ceiling?.jitterMs ?? null,
      steps,
    };
  },
  answer(plan, _links, result) {
    const limit = plan.lossPercent === 0 ? "without loss" : `without loss above ${formatPercentWord(plan.lossPercent)}`;
    if (result.bitsPerSecond !== null) {
      const jitter = result.jitterMs === null ? "" : ` (jitter ${formatMs(result.jitterMs)} ms)`;
      return `Up to ${formatBitRate(result.bitsPerSecond)} ${limit}${jitter}`;
    }
    const measured = result.steps.filter((step) => step.lostPercent !== null);
    if (measured.length === 0) return null;
    const lowest = Math.min(...measured.map((step) => step.bitrate));
    return `No bitrate tried stays ${limit}: ${formatBitRate(lowest)}, the lowest, loses more`;
  },
  table(plan, _links, result) {
    const passes = (lost: number | null) => (lost === null ? null : lost <= plan.lossPercent ? "yes" : "no");
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
      ],
    };
  },
};
