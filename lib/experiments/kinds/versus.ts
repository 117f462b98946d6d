// Versus: A against B, run alternately A B A B … so that drift over time (a warming card, a
// neighbour's backup) hits both alike. The sides are two links with the same options (direct
// against a tunnel's address, port 1 against port 2), or one link with two option sets
// (cubic against bbr). The answer: how much faster or slower B is, whether that is clear, and
// what B costs in CPU per Gbit/s.
import { z } from "zod";
import { AppError, type FieldError } from "@/lib/errors";
import { parseRunRequest, type RunRequest } from "@/lib/runs/request";
import {
  VERSUS_REPEATS,
  type BaseRunOptions,
  type PlanLink,
  type PlanOf,
  type RunOutcome,
  type StepSpec,
  type VersusResult,
  type VersusSide,
  type VersusSideResult,
} from "../contract";
import { linkOf, median, present } from "./figures";
import { refuseClientOnExternalServer } from "./external";
import { nextOfSteps, type KindDefinition } from "./kind";
import { formatPercentWord } from "@/lib/format";

export const VERSUS_SIDES: readonly VersusSide[] = ["A", "B"];
export const MAX_VARIANT_NAME_LENGTH = 40;
/** The two-sided rank test's level: below it, B's runs differ from A's beyond chance. */
export const VERSUS_SIGNIFICANCE = 0.05;

const NAME_MESSAGE = `name must be text of 1 to ${MAX_VARIANT_NAME_LENGTH} characters, e.g. "bbr"`;
const VARIANTS_MESSAGE =
  "variants must list exactly two option sets, A then B: [{ name, options }, { name, options }] (for two links, leave variants out)";

const VariantSchema = z.strictObject(
  {
    name: z
      .string({ error: NAME_MESSAGE })
      .trim()
      .min(1, { error: NAME_MESSAGE })
      .max(MAX_VARIANT_NAME_LENGTH, { error: NAME_MESSAGE }),
    options: z.custom<BaseRunOptions>((value) => typeof value === "object" && value !== null && !Array.isArray(value), {
      error: "options must be a JSON object of run options, as POST /api/links/:id/runs takes them",
    }),
  },
  { error: "must be { name, options }" },
);

const VersusFieldsSchema = z.strictObject({
  variants: z
    .array(VariantSchema, { error: VARIANTS_MESSAGE })
    .length(2, { error: VARIANTS_MESSAGE })
    .superRefine((variants, context) => {
      if (variants[0]?.name === variants[1]?.name)
        context.addIssue({ code: "custom", path: [1, "name"], message: `"${variants[1]?.name}" is A's name too` });
    })
    .nullable()
    .default(null),
  repeats: wholeRepeats(),
});

function wholeRepeats() {
  const allowed = `repeats must be a whole number from ${VERSUS_REPEATS.min} to ${VERSUS_REPEATS.max} (runs of each side)`;
  return z
    .number({ error: allowed })
    .int({ error: allowed })
    .min(VERSUS_REPEATS.min, { error: allowed })
    .max(VERSUS_REPEATS.max, { error: allowed })
    .default(VERSUS_REPEATS.default);
}

type Side = { side: VersusSide; name: string; linkId: number };

/** A and B: the variants on the plan's link, or the two links. */
function sidesOf(plan: PlanOf<"versus">, links: readonly PlanLink[]): Side[] {
  if (plan.variants)
    return plan.variants
      .slice(0, 2)
      .map((variant, index) => ({ side: VERSUS_SIDES[index]!, name: variant.name, linkId: plan.linkIds[0]! }));
  return plan.linkIds.slice(0, 2).map((linkId, index) => ({
    side: VERSUS_SIDES[index]!,
    name: linkOf(links, linkId)?.name ?? `link ${linkId}`,
    linkId,
  }));
}

/** A variant's run request: its options over the plan's, validated as a run's are. */
function variantRequest(plan: PlanOf<"versus">, index: number): RunRequest {
  return parseRunRequest({ ...plan.options, ...(plan.variants?.[index]?.options ?? {}) });
}

/** The errors of a variant's options, named `variants[1].options.congestion`. */
function variantErrors(plan: PlanOf<"versus">, index: number): FieldError[] {
  try {
    variantRequest(plan, index);
    return [];
  } catch (error) {
    if (!(error instanceof AppError) || error.kind !== "invalid") throw error;
    const prefix = `variants[${index}].options`;
    return error.fields.map(({ field, message }) => ({
      field: field === "body" ? prefix : `${prefix}.${field}`,
      message,
    }));
  }
}

function requestOfSide(plan: PlanOf<"versus">, base: RunRequest, index: number): RunRequest {
  return plan.variants ? variantRequest(plan, index) : base;
}

function versusSteps(plan: PlanOf<"versus">, base: RunRequest, links: readonly PlanLink[]): StepSpec[] {
  const sides = sidesOf(plan, links).map((side, index) => ({ ...side, request: requestOfSide(plan, base, index) }));
  return Array.from({ length: plan.repeats }, (_, repeat) =>
    sides.map((side): StepSpec => ({
      label: `${side.side} (${side.name}), run ${repeat + 1} of ${plan.repeats}`,
      tags: { side: side.side, repeat: repeat + 1 },
      runs: [{ linkId: side.linkId, options: side.request.options, clientSide: side.request.clientSide }],
    })),
  ).flat();
}

/** CPU of both ends per Gbit/s received: what each Gbit/s costs. */
function cpuPerGbps(run: RunOutcome): number | null {
  const { clientCpuPercent, serverCpuPercent, receivedBitsPerSecond } = run;
  if (clientCpuPercent === null || serverCpuPercent === null || receivedBitsPerSecond === null) return null;
  if (!(receivedBitsPerSecond > 0)) return null;
  return (clientCpuPercent + serverCpuPercent) / (receivedBitsPerSecond / 1e9);
}

/** How many ways to choose each count of items with each (doubled) rank sum: the rank sum's exact distribution. */
function rankSumCounts(doubledRanks: readonly number[], size: number): Map<number, number>[] {
  // counts[k]: doubled rank sum → how many subsets of k items have it
  const counts: Map<number, number>[] = Array.from({ length: size + 1 }, () => new Map());
  counts[0]!.set(0, 1);
  for (const rank of doubledRanks) {
    for (let k = size; k >= 1; k -= 1) {
      for (const [total, ways] of counts[k - 1]!)
        counts[k]!.set(total + rank, (counts[k]!.get(total + rank) ?? 0) + ways);
    }
  }
  return counts;
}

/**
 * The exact two-sided p-value of the Mann-Whitney (Wilcoxon rank-sum) test: the share of all ways
 * to split the runs into groups of these sizes whose rank sum lies at least as far from its mean
 * as A's does. Ties take their mean rank, and the distribution is that of those ranks.
 */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number | null {
  if (a.length === 0 || b.length === 0) return null;
  const all = [...a.map((value) => ({ value, isA: true })), ...b.map((value) => ({ value, isA: false }))].sort(
    (x, y) => x.value - y.value,
  );
  // Doubled mean ranks stay whole: a tie of ranks 3 and 4 is 7.
  const doubled: number[] = [];
  for (let start = 0; start < all.length;) {
    let end = start;
    while (end + 1 < all.length && all[end + 1]!.value === all[start]!.value) end += 1;
    for (let index = start; index <= end; index += 1) doubled.push(start + 1 + end + 1);
    start = end + 1;
  }
  const observed = all.reduce((total, entry, index) => total + (entry.isA ? doubled[index]! : 0), 0);
  const expected = a.length * (all.length + 1); // doubled mean of A's rank sum
  const distance = Math.abs(observed - expected);
  const counts = rankSumCounts(doubled, a.length)[a.length]!;
  let extreme = 0;
  let total = 0;
  for (const [rankSum, ways] of counts) {
    total += ways;
    if (Math.abs(rankSum - expected) >= distance - 1e-9) extreme += ways;
  }
  return extreme / total;
}

/**
 * Clear: every B run above every A run, or every one below; or, where the repeats allow it, the exact
 * two-sided rank test below VERSUS_SIGNIFICANCE. With 3 runs a side no split reaches 5% (2 of 20), so
 * the separation decides; from 5 a side, one overlapping run can still be clear (4 of 252).
 */
export function isClearDifference(a: readonly number[], b: readonly number[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  if (Math.min(...b) > Math.max(...a) || Math.max(...b) < Math.min(...a)) return true;
  const p = mannWhitneyP(a, b);
  return p !== null && p < VERSUS_SIGNIFICANCE;
}

function sideResult(side: Side, runs: RunOutcome[]): VersusSideResult {
  const rates = present(runs.map((run) => run.receivedBitsPerSecond));
  const cpu = median(runs.map(cpuPerGbps));
  return {
    side: side.side,
    name: side.name,
    linkId: side.linkId,
    runIds: runs.map((run) => run.runId),
    medianBitsPerSecond: median(rates),
    minBitsPerSecond: rates.length > 0 ? Math.min(...rates) : null,
    maxBitsPerSecond: rates.length > 0 ? Math.max(...rates) : null,
    cpuPercentPerGbps: cpu === null ? null : Math.round(cpu * 100) / 100,
  };
}

/** "2.1×": a ratio to 2 significant digits. */
function timesWord(ratio: number): string {
  return `${Number(ratio.toPrecision(2))}×`;
}

export const versusKind: KindDefinition<"versus"> = {
  kind: "versus",
  title: "Versus",
  defaultName: (plan) =>
    plan.variants && plan.variants.length === 2
      ? `${plan.variants[0]!.name} against ${plan.variants[1]!.name}`
      : "A against B",
  fieldsSchema: VersusFieldsSchema,
  baseOptions: (plan) => plan.options,
  check(plan, base, links) {
    const errors: FieldError[] = [];
    const count = plan.linkIds.length;
    if (plan.variants) {
      if (count !== 1) {
        errors.push({
          field: "variants",
          message: `two variants are the two sides on one link; with ${count} links that makes ${count * plan.variants.length} sides: give one link with variants, or two links without`,
        });
      } else {
        for (const index of [0, 1]) errors.push(...variantErrors(plan, index));
      }
    } else if (count !== 2) {
      errors.push({
        field: "linkIds",
        message: `a versus has two sides: give two links (A, then B), or one link with two variants (${count} ${count === 1 ? "link" : "links"} given)`,
      });
    }
    const clientSides = plan.variants
      ? [0, 1].flatMap((index) => {
          try {
            return [variantRequest(plan, index).clientSide];
          } catch {
            return [];
          }
        })
      : [base.clientSide];
    errors.push(...refuseClientOnExternalServer(links, clientSides, "clientSide"));
    return errors;
  },
  maxRuns: (plan) => plan.repeats * 2,
  maxSteps: (plan) => plan.repeats * 2,
  steps: (plan, base, links) => versusSteps(plan, base, links),
  nextStep: (plan, base, links, done) => nextOfSteps(versusSteps(plan, base, links), done),
  result(plan, links, done): VersusResult {
    const runsOfSide = (side: VersusSide) =>
      done.filter((step) => step.tags.side === side).flatMap((step) => step.runs);
    const sides = sidesOf(plan, links).map((side) => sideResult(side, runsOfSide(side.side)));
    const [a, b] = sides;
    const medianA = a?.medianBitsPerSecond ?? null;
    const medianB = b?.medianBitsPerSecond ?? null;
    const differencePercent =
      medianA !== null && medianB !== null && medianA > 0 ? Math.round((medianB / medianA - 1) * 1000) / 10 : null;
    const ratesOf = (side: VersusSide) => present(runsOfSide(side).map((run) => run.receivedBitsPerSecond));
    // A and B of the same repeat, both measured: did B go the way of the medians?
    const byRepeat = (side: VersusSide, repeat: number) =>
      done.find((step) => step.tags.side === side && step.tags.repeat === repeat)?.runs[0]?.receivedBitsPerSecond ??
      null;
    let pairs = 0;
    let pairsAgreeing = 0;
    for (let repeat = 1; repeat <= plan.repeats; repeat += 1) {
      const rateA = byRepeat("A", repeat);
      const rateB = byRepeat("B", repeat);
      if (rateA === null || rateB === null) continue;
      pairs += 1;
      if (
        differencePercent !== null &&
        differencePercent !== 0 &&
        Math.sign(rateB - rateA) === Math.sign(differencePercent)
      )
        pairsAgreeing += 1;
    }
    return {
      sides,
      differencePercent,
      clear: isClearDifference(ratesOf("A"), ratesOf("B")),
      pairsAgreeing,
      pairs,
    };
  },
  answer(_plan, _links, result) {
    const [a, b] = result.sides;
    if (!a || !b || result.differencePercent === null) return null;
    const names = { a: `A (${a.name})`, b: `B (${b.name})` };
    const clearWords = `${result.clear ? "clearly" : "not clearly"}: ${result.pairsAgreeing} of ${result.pairs} pairs`;
    const speed =
      result.differencePercent === 0
        ? `${names.b} is as fast as ${names.a}`
        : `${names.b} is ${formatPercentWord(Math.abs(result.differencePercent))} ${result.differencePercent > 0 ? "faster" : "slower"} than ${names.a}, ${clearWords}`;
    if (a.cpuPercentPerGbps === null || b.cpuPercentPerGbps === null || !(a.cpuPercentPerGbps > 0)) return speed;
    const ratio = b.cpuPercentPerGbps / a.cpuPercentPerGbps;
    const cpu = timesWord(ratio) === "1×" ? "the same CPU per Gbit/s as A" : `${timesWord(ratio)} the CPU per Gbit/s`;
    return `${speed}; it costs ${cpu}`;
  },
  table(_plan, links, result) {
    return {
      columns: [
        { key: "side", label: "Side", format: "text" },
        { key: "name", label: "Name", format: "text" },
        { key: "link", label: "Link", format: "text" },
        { key: "medianBitsPerSecond", label: "Median", format: "bitsPerSecond" },
        { key: "minBitsPerSecond", label: "Min", format: "bitsPerSecond" },
        { key: "maxBitsPerSecond", label: "Max", format: "bitsPerSecond" },
        { key: "cpuPercentPerGbps", label: "CPU of both ends per Gbit/s", format: "percent" },
        { key: "differencePercent", label: "Against A", format: "percent" },
        { key: "runIds", label: "Runs", format: "runs" },
      ],
      rows: result.sides.map((side) => ({
        key: `side ${side.side}`,
        cells: {
          side: side.side,
          name: side.name,
          link: linkOf(links, side.linkId)?.name ?? `link ${side.linkId}`,
          medianBitsPerSecond: side.medianBitsPerSecond,
          minBitsPerSecond: side.minBitsPerSecond,
          maxBitsPerSecond: side.maxBitsPerSecond,
          cpuPercentPerGbps: side.cpuPercentPerGbps,
          differencePercent: side.side === "B" ? result.differencePercent : null,
          runIds: side.runIds,
        },
      })),
    };
  },
};
