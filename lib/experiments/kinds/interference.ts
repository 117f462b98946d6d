// Interference: which of several links share a bottleneck (a PCIe slot, an uplink, a switch).
// Each link alone, then every pair of them together (both clients started at once, as
// concurrent does); a pair whose aggregate falls below SHARED_BOTTLENECK_PERCENT of the two
// alone shares something, and the links such pairs join make a group.
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import type { RunRequest } from "@/lib/runs/request";
import {
  INTERFERENCE_LINKS,
  SHARED_BOTTLENECK_PERCENT,
  type InterferencePair,
  type InterferenceResult,
  type PlanLink,
  type PlanOf,
  type StepOutcome,
  type StepSpec,
} from "../contract";
import { aggregateOf } from "./concurrent";
import { linkOf, percentOf, sum } from "./figures";
import { refuseClientOnExternalServer } from "./external";
import { nextOfSteps, type KindDefinition } from "./kind";
import { formatPercentWord } from "@/lib/format";

const InterferenceFieldsSchema = z.strictObject({});

function linkName(links: readonly PlanLink[], id: number): string {
  return linkOf(links, id)?.name ?? `link ${id}`;
}

/** Every pair of the links, in the order given: [1,2], [1,3], [2,3]. */
export function pairsOf(linkIds: readonly number[]): [number, number][] {
  return linkIds.flatMap((first, index) => linkIds.slice(index + 1).map((second): [number, number] => [first, second]));
}

/** The key of a pair's row, the same in every interference experiment whatever the order: "pair 3-7". */
export function pairKey(pair: readonly [number, number]): string {
  const [low, high] = [...pair].sort((x, y) => x - y);
  return `pair ${low}-${high}`;
}

function interferenceSteps(plan: PlanOf<"interference">, base: RunRequest, links: readonly PlanLink[]): StepSpec[] {
  const runOn = (linkId: number) => ({ linkId, options: base.options, clientSide: base.clientSide });
  return [
    ...plan.linkIds.map((linkId): StepSpec => ({
      label: `${linkName(links, linkId)} alone`,
      tags: { phase: "alone" },
      runs: [runOn(linkId)],
    })),
    ...pairsOf(plan.linkIds).map((pair): StepSpec => ({
      label: `${linkName(links, pair[0])} and ${linkName(links, pair[1])} together`,
      tags: { phase: "together", pair },
      runs: pair.map(runOn),
    })),
  ];
}

/** Links joined by pairs below the threshold, as connected sets of two or more, in the order of linkIds. */
export function groupsOf(linkIds: readonly number[], pairs: readonly InterferencePair[]): number[][] {
  const parent = new Map(linkIds.map((id) => [id, id]));
  const root = (id: number): number => {
    let at = id;
    while (parent.get(at) !== at) at = parent.get(at)!;
    return at;
  };
  for (const pair of pairs) {
    if (pair.percentOfAlone === null || pair.percentOfAlone >= SHARED_BOTTLENECK_PERCENT) continue;
    const [x, y] = pair.linkIds.map(root) as [number, number];
    if (x !== y) parent.set(y, x);
  }
  const groups = new Map<number, number[]>();
  for (const id of linkIds) groups.set(root(id), [...(groups.get(root(id)) ?? []), id]);
  return [...groups.values()].filter((group) => group.length >= 2);
}

function namesOf(links: readonly PlanLink[], ids: readonly number[]): string {
  const names = ids.map((id) => linkName(links, id));
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "");
}

function lastStep(done: readonly StepOutcome[], matches: (step: StepOutcome) => boolean): StepOutcome | undefined {
  return done.filter(matches).at(-1);
}

export const interferenceKind: KindDefinition<"interference"> = {
  kind: "interference",
  title: "Interference",
  defaultName: () => "Shared bottlenecks",
  fieldsSchema: InterferenceFieldsSchema,
  maxLinks: INTERFERENCE_LINKS.max,
  baseOptions: (plan) => plan.options,
  check(plan, base, links) {
    const errors: FieldError[] = refuseClientOnExternalServer(links, [base.clientSide], "clientSide");
    const count = plan.linkIds.length;
    if (count < INTERFERENCE_LINKS.min || count > INTERFERENCE_LINKS.max) {
      errors.push({
        field: "linkIds",
        message: `an interference experiment measures ${INTERFERENCE_LINKS.min} to ${INTERFERENCE_LINKS.max} links, each alone and every pair together (${count} given)`,
      });
    }
    return errors;
  },
  // Each link alone, then two runs per pair: n + n(n-1) = n².
  maxRuns: (plan) => plan.linkIds.length ** 2,
  maxSteps: (plan) => plan.linkIds.length + pairsOf(plan.linkIds).length,
  steps: (plan, base, links) => interferenceSteps(plan, base, links),
  nextStep: (plan, base, links, done) => nextOfSteps(interferenceSteps(plan, base, links), done),
  result(plan, _links, done): InterferenceResult {
    const aloneOf = (linkId: number) =>
      lastStep(done, (step) => step.tags.phase === "alone" && step.runs[0]?.linkId === linkId)?.runs[0];
    const pairs = pairsOf(plan.linkIds).flatMap((pair): InterferencePair[] => {
      const together = lastStep(
        done,
        (step) => step.tags.phase === "together" && step.tags.pair?.[0] === pair[0] && step.tags.pair?.[1] === pair[1],
      );
      if (!together) return [];
      const alone = pair.map(aloneOf);
      const withOther = pair.map((linkId) => together.runs.find((run) => run.linkId === linkId));
      const measured = together.runs.filter((run) => run.receivedBitsPerSecond !== null || run.intervals.length > 0);
      // Both together over the time both ran, against both alone: one that gave nothing leaves the pair unjudged.
      const togetherAggregateBitsPerSecond = measured.length === 2 ? aggregateOf(measured) : null;
      const aloneRates = alone.map((run) => run?.receivedBitsPerSecond ?? null);
      const aloneSum = aloneRates.every((rate) => rate !== null) ? sum(aloneRates) : null;
      return [
        {
          linkIds: pair,
          aloneBitsPerSecond: aloneRates as [number | null, number | null],
          togetherBitsPerSecond: withOther.map((run) => run?.receivedBitsPerSecond ?? null) as [
            number | null,
            number | null,
          ],
          togetherAggregateBitsPerSecond,
          percentOfAlone: percentOf(togetherAggregateBitsPerSecond, aloneSum),
          runIds: [...alone, ...together.runs].flatMap((run) => (run ? [run.runId] : [])),
        },
      ];
    });
    return { pairs, groups: groupsOf(plan.linkIds, pairs) };
  },
  /**
   * One sentence: each group with the lowest share its pairs got together ("data6 and data7 share a
   * bottleneck: together they get 72% of what each gets alone"), then the links in no group.
   */
  answer(plan, links, result) {
    const judged = result.pairs.filter((pair) => pair.percentOfAlone !== null);
    if (judged.length === 0) return null;
    const clauses = result.groups.map((group) => {
      const lowest = Math.min(
        ...judged.filter((pair) => pair.linkIds.every((id) => group.includes(id))).map((pair) => pair.percentOfAlone!),
      );
      const share = formatPercentWord(lowest);
      return group.length === 2
        ? `${namesOf(links, group)} share a bottleneck: together they get ${share} of what each gets alone`
        : `${namesOf(links, group)} share a bottleneck: two of them together get as little as ${share} of what each gets alone`;
    });
    const grouped = new Set(result.groups.flat());
    const judgedIds = new Set(judged.flatMap((pair) => pair.linkIds));
    const independent = plan.linkIds.filter((id) => !grouped.has(id) && judgedIds.has(id));
    if (result.groups.length === 0) {
      const lowest = Math.min(...judged.map((pair) => pair.percentOfAlone!));
      return `${namesOf(links, independent)} are independent: every pair together gets ${formatPercentWord(lowest)} or more of what each gets alone`;
    }
    if (independent.length === 1) clauses.push(`${namesOf(links, independent)} is independent of the others`);
    else if (independent.length > 1) clauses.push(`${namesOf(links, independent)} are independent`);
    return clauses.join("; ");
  },
  table(_plan, links, result) {
    return {
      columns: [
        { key: "pair", label: "Pair", format: "text" },
        { key: "firstAloneBitsPerSecond", label: "First alone", format: "bitsPerSecond" },
        { key: "secondAloneBitsPerSecond", label: "Second alone", format: "bitsPerSecond" },
        { key: "firstTogetherBitsPerSecond", label: "First together", format: "bitsPerSecond" },
        { key: "secondTogetherBitsPerSecond", label: "Second together", format: "bitsPerSecond" },
        { key: "togetherBitsPerSecond", label: "Both together", format: "bitsPerSecond" },
        { key: "percentOfAlone", label: "Of alone", format: "percent" },
        { key: "verdict", label: "Verdict", format: "text" },
        { key: "runIds", label: "Runs", format: "runs" },
      ],
      rows: result.pairs.map((pair) => ({
        key: pairKey(pair.linkIds),
        cells: {
          pair: `${linkName(links, pair.linkIds[0])} + ${linkName(links, pair.linkIds[1])}`,
          firstAloneBitsPerSecond: pair.aloneBitsPerSecond[0],
          secondAloneBitsPerSecond: pair.aloneBitsPerSecond[1],
          firstTogetherBitsPerSecond: pair.togetherBitsPerSecond[0],
          secondTogetherBitsPerSecond: pair.togetherBitsPerSecond[1],
          togetherBitsPerSecond: pair.togetherAggregateBitsPerSecond,
          percentOfAlone: pair.percentOfAlone,
          verdict:
            pair.percentOfAlone === null
              ? null
              : pair.percentOfAlone < SHARED_BOTTLENECK_PERCENT
                ? "shared bottleneck"
                : "independent",
          runIds: pair.runIds,
        },
      })),
    };
  },
};
