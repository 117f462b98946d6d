// Concurrent: two or more links at the same time with the same options (both ports of a
// dual-port card). The answer is the aggregate over the interval they all ran, as a share of
// their line rates and, with a baseline of each link alone first, of the links alone: below
// SHARED_BOTTLENECK_PERCENT they share a bottleneck (a PCIe slot, an uplink).
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import type { RunRequest } from "@/lib/runs/request";
import {
  SHARED_BOTTLENECK_PERCENT,
  type ConcurrentResult,
  type PlanLink,
  type PlanOf,
  type RunOutcome,
  type StepSpec,
} from "../contract";
import { lineRateOf, linkOf, mean, numberWord, percentOf, present, sum } from "./figures";
import { refuseClientOnExternalServer } from "./external";
import { nextOfSteps, type KindDefinition } from "./kind";
import { formatBitRate, formatPercentWord } from "@/lib/format";

const ConcurrentFieldsSchema = z.strictObject({
  baseline: z.boolean({ error: "baseline must be true or false" }).default(false),
});

function linkName(links: readonly PlanLink[], id: number): string {
  return linkOf(links, id)?.name ?? `link ${id}`;
}

function concurrentSteps(plan: PlanOf<"concurrent">, base: RunRequest, links: readonly PlanLink[]): StepSpec[] {
  const runOn = (linkId: number) => ({ linkId, options: base.options, clientSide: base.clientSide });
  const alone: StepSpec[] = plan.baseline
    ? plan.linkIds.map((linkId) => ({
        label: `${linkName(links, linkId)} alone`,
        tags: { phase: "alone" },
        runs: [runOn(linkId)],
      }))
    : [];
  const together: StepSpec = {
    label: `${numberWord(plan.linkIds.length)} links together`.replace(/^./, (first) => first.toUpperCase()),
    tags: { phase: "together" },
    runs: plan.linkIds.map(runOn),
  };
  return [...alone, together];
}

/**
 * A run's mean rate over the intervals that end by `until` (s), or its summary rate when it
 * has no intervals: the links started within a fraction of a second, so their interval
 * clocks agree well enough.
 */
function rateUntil(run: RunOutcome, until: number | null): number | null {
  const intervals = until === null ? [] : run.intervals.filter((interval) => interval.end <= until + 1e-9);
  return intervals.length > 0 ? mean(intervals.map((interval) => interval.bitsPerSecond)) : run.receivedBitsPerSecond;
}

/** The sum of each run's mean rate over the time they all ran: up to the earliest last interval's end. */
export function aggregateOf(runs: readonly RunOutcome[]): number | null {
  const ends = runs
    .filter((run) => run.intervals.length > 0)
    .map((run) => run.intervals[run.intervals.length - 1]!.end);
  const until = ends.length > 0 ? Math.min(...ends) : null;
  return sum(runs.map((run) => rateUntil(run, until)));
}

export const concurrentKind: KindDefinition<"concurrent"> = {
  kind: "concurrent",
  title: "Concurrent",
  defaultName: (plan) => (plan.baseline ? "Links together, each alone first" : "Links together"),
  fieldsSchema: ConcurrentFieldsSchema,
  baseOptions: (plan) => plan.options,
  check(plan, base, links) {
    const errors: FieldError[] = refuseClientOnExternalServer(links, [base.clientSide], "clientSide");
    if (plan.linkIds.length < 2) {
      errors.push({
        field: "linkIds",
        message: `links measured together must be at least two (${plan.linkIds.length} given)`,
      });
    }
    return errors;
  },
  maxRuns: (plan) => plan.linkIds.length * (plan.baseline ? 2 : 1),
  maxSteps: (plan) => (plan.baseline ? plan.linkIds.length : 0) + 1,
  steps: (plan, base, links) => concurrentSteps(plan, base, links),
  nextStep: (plan, base, links, done) => nextOfSteps(concurrentSteps(plan, base, links), done),
  result(plan, links, done): ConcurrentResult {
    const aloneRuns = done.filter((step) => step.tags.phase === "alone").flatMap((step) => step.runs);
    const together = done.filter((step) => step.tags.phase === "together").at(-1);
    const togetherRuns = together?.runs ?? [];
    const rows = plan.linkIds.map((linkId) => {
      const alone = aloneRuns.filter((run) => run.linkId === linkId).at(-1);
      const withOthers = togetherRuns.find((run) => run.linkId === linkId);
      return {
        linkId,
        runIds: [alone?.runId, withOthers?.runId].filter((id): id is number => id !== undefined),
        aloneBitsPerSecond: alone?.receivedBitsPerSecond ?? null,
        togetherBitsPerSecond: withOthers?.receivedBitsPerSecond ?? null,
      };
    });
    // The links that gave a figure together: the aggregate compares them with themselves alone.
    const measured = togetherRuns.filter((run) => run.receivedBitsPerSecond !== null || run.intervals.length > 0);
    const aggregateBitsPerSecond = measured.length > 0 ? aggregateOf(measured) : null;
    const lineRateSumBitsPerSecond = plan.linkIds.reduce(
      (total, id) => total + (lineRateOf(linkOf(links, id)) ?? 0),
      0,
    );
    const aloneOfMeasured = measured.map(
      (run) => rows.find((row) => row.linkId === run.linkId)?.aloneBitsPerSecond ?? null,
    );
    const aloneSum = plan.baseline && aloneOfMeasured.every((rate) => rate !== null) ? sum(aloneOfMeasured) : null;
    const aggregatePercentOfAlone = percentOf(aggregateBitsPerSecond, aloneSum);
    const starts = present(togetherRuns.map((run) => run.startedAtMs));
    return {
      rows,
      aggregateBitsPerSecond,
      lineRateSumBitsPerSecond,
      aggregatePercentOfLineRates: percentOf(aggregateBitsPerSecond, lineRateSumBitsPerSecond),
      aggregatePercentOfAlone,
      sharedBottleneck:
        plan.baseline && aggregatePercentOfAlone !== null && aggregatePercentOfAlone < SHARED_BOTTLENECK_PERCENT,
      startSkewMs: starts.length > 1 ? Math.max(...starts) - Math.min(...starts) : null,
    };
  },
  answer(plan, _links, result) {
    if (result.aggregateBitsPerSecond === null) return null;
    const together = `Together ${formatBitRate(result.aggregateBitsPerSecond)}`;
    if (result.aggregatePercentOfAlone !== null) {
      const verdict = result.sharedBottleneck ? "a shared bottleneck" : "no shared bottleneck";
      return `${together}: ${formatPercentWord(result.aggregatePercentOfAlone)} of the ${numberWord(plan.linkIds.length)} links alone, ${verdict}`;
    }
    if (result.aggregatePercentOfLineRates !== null)
      return `${together}: ${formatPercentWord(result.aggregatePercentOfLineRates)} of the sum of the line rates`;
    return together;
  },
  table(plan, links, result) {
    const alone = result.rows.map((row) => row.aloneBitsPerSecond);
    return {
      columns: [
        { key: "link", label: "Link", format: "text" },
        { key: "lineRateBitsPerSecond", label: "Line rate", format: "bitsPerSecond" },
        ...(plan.baseline ? [{ key: "aloneBitsPerSecond", label: "Alone", format: "bitsPerSecond" } as const] : []),
        { key: "togetherBitsPerSecond", label: "Together", format: "bitsPerSecond" },
        { key: "runIds", label: "Runs", format: "runs" },
      ],
      rows: [
        ...result.rows.map((row) => ({
          key: `link ${row.linkId}`,
          cells: {
            link: linkName(links, row.linkId),
            lineRateBitsPerSecond: lineRateOf(linkOf(links, row.linkId)),
            ...(plan.baseline ? { aloneBitsPerSecond: row.aloneBitsPerSecond } : {}),
            togetherBitsPerSecond: row.togetherBitsPerSecond,
            runIds: row.runIds,
          },
        })),
        {
          key: "sum",
          isSum: true,
          cells: {
            link: "All links",
            lineRateBitsPerSecond: result.lineRateSumBitsPerSecond > 0 ? result.lineRateSumBitsPerSecond : null,
            ...(plan.baseline ? { aloneBitsPerSecond: alone.every((rate) => rate !== null) ? sum(alone) : null } : {}),
            // Over the interval all links ran, not the sum of the column: that is the answer's figure.
            togetherBitsPerSecond: result.aggregateBitsPerSecond,
            runIds: [],
          },
        },
      ],
    };
  },
};
