import { formatBitRate, formatPercentWord } from "@/lib/format";
// Judging a link's runs against a rule: which runs breach it, when an alert opens and when it
// ends, and the words of its notifications. Pure: the watcher (watcher.ts) reads the runs and
// their baselines from the database and hands them here as facts.

/** A finished run of a link, with what a rule needs to judge it. */
export type RunFact = {
  runId: number;
  /** Only these two are judged: a cancelled or interrupted run was stopped by a person. */
  status: "succeeded" | "failed";
  signature: string | null;
  receivedBitsPerSecond: number | null;
  /** The baseline of the run's signature from the runs before it; null with fewer than BASELINE_MIN_RUNS. */
  baselineBitsPerSecond: number | null;
  /** The link's line rate in bits/s; null when unknown. */
  lineRateBitsPerSecond: number | null;
  errorMessage: string | null;
};

/** What a rule is judged on. */
export type RuleConditions = {
  belowBaselinePercent: number | null;
  belowLineRatePercent: number | null;
  failed: boolean;
  m: number;
  n: number;
};

export type Condition = "failed" | "below-baseline" | "below-line-rate";

/**
 * Whether a rule judges a run at all. A failed run has no rate: when the rule does not watch
 * failures it neither breaches the rate conditions nor shows a recovery, so it is left out
 * and the last n runs are those before and after it.
 */
export function isJudged(rule: RuleConditions, fact: RunFact): boolean {
  return fact.status === "succeeded" || rule.failed;
}

/** The conditions of `rule` that `fact` meets, most telling first; empty when it does not breach. */
export function breachedConditions(rule: RuleConditions, fact: RunFact): Condition[] {
  if (fact.status === "failed") return rule.failed ? ["failed"] : [];
  const conditions: Condition[] = [];
  const rate = fact.receivedBitsPerSecond;
  if (rate === null) return conditions;
  // A baseline from too few runs is no baseline: "not below" rather than a guess.
  if (
    rule.belowBaselinePercent !== null &&
    fact.baselineBitsPerSecond !== null &&
    rate < (fact.baselineBitsPerSecond * rule.belowBaselinePercent) / 100
  ) {
    conditions.push("below-baseline");
  }
  if (
    rule.belowLineRatePercent !== null &&
    fact.lineRateBitsPerSecond !== null &&
    rate < (fact.lineRateBitsPerSecond * rule.belowLineRatePercent) / 100
  ) {
    conditions.push("below-line-rate");
  }
  return conditions;
}

export function breaches(rule: RuleConditions, fact: RunFact): boolean {
  return breachedConditions(rule, fact).length > 0;
}

export type Decision = {
  action: "fire" | "resolve" | "none";
  /** The last n judged runs, newest first. */
  judged: RunFact[];
  /** Those of them that breach, newest first. */
  breaching: RunFact[];
};

/**
 * What to do after a run ended, given the link's latest finished runs (newest first; more
 * than n may be passed) and whether an alert of this rule is open on the link:
 * - none open and at least m of the last n judged runs breach: "fire";
 * - one open and the last n judged runs all do not breach: "resolve";
 * - otherwise "none": no second alert while one is open, and no notification per run.
 */
export function decide(rule: RuleConditions, facts: readonly RunFact[], open: boolean): Decision {
  const judged = facts.filter((fact) => isJudged(rule, fact)).slice(0, rule.n);
  const breaching = judged.filter((fact) => breaches(rule, fact));
  if (!open) return { action: breaching.length >= rule.m ? "fire" : "none", judged, breaching };
  return { action: judged.length >= rule.n && breaching.length === 0 ? "resolve" : "none", judged, breaching };
}

// ---------------------------------------------------------------- words

/** `part` in % of `whole`, to 0.1; null when either is missing. */
export function percentOf(part: number | null, whole: number | null): number | null {
  if (part === null || whole === null || !(whole > 0)) return null;
  return Math.round((part / whole) * 1000) / 10;
}

/** What an alert records and says when it fires or ends. */
export type AlertText = {
  title: string;
  body: string;
  /** The runs named: those that breached (firing), or the n clean ones (resolved); oldest first, as run ids read. */
  runIds: number[];
  /** The run the notification links to: the newest of them. */
  runId: number;
  receivedBitsPerSecond: number | null;
  baselineBitsPerSecond: number | null;
  lineRatePercent: number | null;
};

const TITLES: Record<Condition, string> = {
  failed: "runs failing",
  "below-baseline": "below its baseline",
  "below-line-rate": "below its line rate",
};

/**
 * "nas-10g: below its baseline" / "nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)",
 * told from the newest breaching run. Call with a "fire" decision (at least one breaching run).
 */
export function firingText(linkName: string, rule: RuleConditions, decision: Decision): AlertText {
  const newest = decision.breaching[0];
  if (!newest) throw new Error("firingText needs a breaching run");
  const condition = breachedConditions(rule, newest)[0]!;
  const rate = newest.receivedBitsPerSecond;
  const lineRatePercent = percentOf(rate, newest.lineRateBitsPerSecond);
  const counted = `(${decision.breaching.length} of ${decision.judged.length} runs)`;
  let body: string;
  if (condition === "failed") {
    const failedCount = decision.judged.filter((fact) => fact.status === "failed").length;
    const reason = newest.errorMessage?.trim() ? `: ${newest.errorMessage.trim().replace(/\.$/, "")}` : "";
    body = `${linkName}: ${failedCount} of the last ${decision.judged.length} runs failed${reason}`;
  } else if (condition === "below-baseline") {
    body =
      `${linkName}: ${formatBitRate(rate!)}, ${formatPercentWord(percentOf(rate, newest.baselineBitsPerSecond)!)} ` +
      `of its ${formatBitRate(newest.baselineBitsPerSecond!)} baseline ${counted}`;
  } else {
    body =
      `${linkName}: ${formatBitRate(rate!)}, ${formatPercentWord(lineRatePercent!)} ` +
      `of its ${formatBitRate(newest.lineRateBitsPerSecond!)} line rate ${counted}`;
  }
  return {
    title: `${linkName}: ${TITLES[condition]}`,
    body,
    runIds: decision.breaching.map((fact) => fact.runId).reverse(),
    runId: newest.runId,
    receivedBitsPerSecond: rate,
    baselineBitsPerSecond: newest.baselineBitsPerSecond,
    lineRatePercent,
  };
}

/** "nas-10g: recovered" / "nas-10g: back to 9.3 Gbit/s, 99% of its baseline, for 3 runs in a row". Call with a "resolve" decision. */
export function resolvedText(linkName: string, decision: Decision): AlertText {
  const newest = decision.judged[0];
  if (!newest) throw new Error("resolvedText needs the runs that ended the alert");
  const rate = newest.receivedBitsPerSecond;
  const ofBaseline = percentOf(rate, newest.baselineBitsPerSecond);
  const lineRatePercent = percentOf(rate, newest.lineRateBitsPerSecond);
  const share =
    ofBaseline !== null
      ? `, ${formatPercentWord(ofBaseline)} of its baseline`
      : lineRatePercent !== null
        ? `, ${formatPercentWord(lineRatePercent)} of its line rate`
        : "";
  const inARow = `for ${decision.judged.length} run${decision.judged.length === 1 ? "" : "s"} in a row`;
  const body =
    rate === null
      ? `${linkName}: back to normal ${inARow}`
      : `${linkName}: back to ${formatBitRate(rate)}${share}, ${inARow}`;
  return {
    title: `${linkName}: recovered`,
    body,
    runIds: decision.judged.map((fact) => fact.runId).reverse(),
    runId: newest.runId,
    receivedBitsPerSecond: rate,
    baselineBitsPerSecond: newest.baselineBitsPerSecond,
    lineRatePercent,
  };
}
