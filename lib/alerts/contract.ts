// The alerts contract: what the rules, the watcher, the REST API and the pages agree a
// baseline, an alert rule and an alert are. Pure: no I/O, safe in the browser.
//
// A link's baseline is per test signature (lib/runs/signature.ts): the median received rate
// of its last N successful runs of that signature that are not part of an experiment. A rule
// opens one alert when m of a link's last n judged runs breach it, and resolves it once n runs
// in a row do not.
import { z } from "zod";
import { formatBitRate } from "@/lib/format";

// ---------------------------------------------------------------- baselines

/** Below this many runs of a signature there is no baseline, and the baseline condition does not apply. */
export const BASELINE_MIN_RUNS = 3;
/** Link.baselineRuns when not set: how many of the latest runs of a signature make its baseline. */
export const DEFAULT_BASELINE_RUNS = 10;

/** One test signature of a link and its baseline; the link page's table and the history chart's band. */
export type BaselineJson = {
  signature: string;
  /** describeSignature: "TCP, A → B, 1 stream". */
  label: string;
  /** The median of the runs that make it; null with fewer than `minRuns` runs. */
  medianBitsPerSecond: number | null;
  /** The slowest and fastest of those runs (the band around the median); null without runs. */
  minBitsPerSecond: number | null;
  maxBitsPerSecond: number | null;
  /** How many runs make it (at most `n`). */
  count: number;
  /** The link's baselineRuns. */
  n: number;
  minRuns: number;
  /** Those runs, newest first. */
  runIds: number[];
};

/** GET /api/links/:id/baseline. */
export type LinkBaselineJson = {
  linkId: number;
  baselineRuns: number;
  importsInBaseline: boolean;
  signatures: BaselineJson[];
};

/**
 * A run's result against the baseline its signature had when it ran (the runs before it);
 * null for a run with no rate to compare (failed, cancelled, still going).
 */
export type RunAgainstBaseline = {
  /** null when fewer than BASELINE_MIN_RUNS runs make it. */
  baselineBitsPerSecond: number | null;
  count: number;
  /** 77 for a run at 77% of its baseline; null without a baseline. */
  percentOfBaseline: number | null;
  /** -23 for the same run; null without a baseline. */
  differencePercent: number | null;
} | null;

/** "−23% against the baseline of 940 Mbit/s"; "baseline from 2 runs, needs 3"; null without a comparison. */
export function describeAgainstBaseline(against: RunAgainstBaseline): string | null {
  if (!against) return null;
  if (against.baselineBitsPerSecond === null || against.differencePercent === null) {
    if (against.count === 0) return `no baseline yet, needs ${BASELINE_MIN_RUNS} runs`;
    return `baseline from ${against.count} run${against.count === 1 ? "" : "s"}, needs ${BASELINE_MIN_RUNS}`;
  }
  const difference = Math.round(against.differencePercent);
  // A typographic minus, as the issue writes it; "+" says faster than usual.
  const signed = difference < 0 ? `\u2212${-difference}%` : difference > 0 ? `+${difference}%` : "0%";
  return `${signed} against the baseline of ${formatBitRate(against.baselineBitsPerSecond)}`;
}

// ---------------------------------------------------------------- rules

export const M_N_LIMITS = { min: 1, max: 20 } as const;
export const DEFAULT_M = 2;
export const DEFAULT_N = 3;

const NAME_DESCRIPTION = "1-100 characters, without control characters";

function allowed(description: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `is required: ${description}` : `must be ${description}`;
}

function percent() {
  const error = allowed("a percent from 1 to 100, or null for no such condition");
  return z.number({ error }).min(1, { error }).max(100, { error }).nullable();
}

function runCount(name: "m" | "n") {
  const what = name === "m" ? "how many of the last n runs must breach" : "how many of the last runs are judged";
  const error = allowed(`a whole number from ${M_N_LIMITS.min} to ${M_N_LIMITS.max} (${what})`);
  return z.int({ error }).min(M_N_LIMITS.min, { error }).max(M_N_LIMITS.max, { error });
}

const IdListSchema = z
  .array(
    z.int({ error: "must be ids (whole numbers from 1)" }).min(1, { error: "must be ids (whole numbers from 1)" }),
    {
      error: allowed("a list of notification channel ids"),
    },
  )
  .max(50, { error: "must list at most 50 channels" });

// One definition of each field; the create schema adds the defaults, the PATCH schema none.
const ruleFields = {
  name: z
    .string({ error: allowed(NAME_DESCRIPTION) })
    .trim()
    .min(1, { error: allowed(NAME_DESCRIPTION) })
    .max(100, { error: allowed(NAME_DESCRIPTION) })
    .regex(/^[^\p{Cc}]*$/u, { error: allowed(NAME_DESCRIPTION) }),
  linkId: z
    .int({ error: allowed("a link id, or null for the default rule of every link without a rule of its own") })
    .min(1, { error: allowed("a link id, or null for the default rule of every link without a rule of its own") })
    .nullable(),
  belowBaselinePercent: percent(),
  belowLineRatePercent: percent(),
  failed: z.boolean({ error: allowed("true or false") }),
  m: runCount("m"),
  n: runCount("n"),
  channelIds: IdListSchema,
  enabled: z.boolean({ error: allowed("true or false") }),
};

/** The conditions and counts of a rule, as the checks below read them. */
export type RuleShape = {
  belowBaselinePercent: number | null;
  belowLineRatePercent: number | null;
  failed: boolean;
  m: number;
  n: number;
};

/** What makes a rule whole beyond its fields: m ≤ n and at least one condition. Empty when it is. */
export function ruleProblems(rule: RuleShape): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  if (rule.m > rule.n) problems.push({ field: "m", message: `must be at most n (${rule.n})` });
  if (rule.belowBaselinePercent == null && rule.belowLineRatePercent == null && !rule.failed) {
    problems.push({
      field: "belowBaselinePercent",
      message: "set at least one condition: belowBaselinePercent, belowLineRatePercent or failed",
    });
  }
  return problems;
}

/** POST /api/alert-rules and the rule form. */
export const AlertRuleInputSchema = z
  .strictObject({
    name: ruleFields.name,
    linkId: ruleFields.linkId,
    belowBaselinePercent: ruleFields.belowBaselinePercent.optional().transform((value) => value ?? null),
    belowLineRatePercent: ruleFields.belowLineRatePercent.optional().transform((value) => value ?? null),
    failed: ruleFields.failed.default(false),
    m: ruleFields.m.default(DEFAULT_M),
    n: ruleFields.n.default(DEFAULT_N),
    channelIds: ruleFields.channelIds.default([]),
    enabled: ruleFields.enabled.default(true),
  })
  .superRefine((rule, context) => {
    for (const problem of ruleProblems(rule))
      context.addIssue({ code: "custom", path: [problem.field], message: problem.message });
  });
export type AlertRuleInput = z.input<typeof AlertRuleInputSchema>;
export type AlertRuleValues = z.output<typeof AlertRuleInputSchema>;

/**
 * PATCH /api/alert-rules/:id: any subset. m ≤ n and "at least one condition" are checked on the
 * rule as it would be after the change (lib/alerts/rules.ts), with ruleProblems.
 */
export const AlertRulePatchSchema = z.strictObject({
  name: ruleFields.name.optional(),
  linkId: ruleFields.linkId.optional(),
  belowBaselinePercent: ruleFields.belowBaselinePercent.optional(),
  belowLineRatePercent: ruleFields.belowLineRatePercent.optional(),
  failed: ruleFields.failed.optional(),
  m: ruleFields.m.optional(),
  n: ruleFields.n.optional(),
  channelIds: ruleFields.channelIds.optional(),
  enabled: ruleFields.enabled.optional(),
});
export type AlertRulePatch = z.output<typeof AlertRulePatchSchema>;

export type AlertRuleJson = {
  id: number;
  name: string;
  /** null: the default rule of every link without an enabled rule of its own. */
  linkId: number | null;
  link: { id: number; name: string } | null;
  belowBaselinePercent: number | null;
  belowLineRatePercent: number | null;
  failed: boolean;
  m: number;
  n: number;
  channels: { id: number; name: string; type: string }[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
};

// ---------------------------------------------------------------- alerts

export const ALERT_STATUSES = ["firing", "resolved"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export type AlertNotificationJson = {
  channelName: string;
  event: string;
  /** sent | failed */
  status: string;
  attempts: number;
  error: string | null;
  at: string;
};

export type AlertJson = {
  id: number;
  status: AlertStatus;
  rule: { id: number; name: string };
  link: { id: number; name: string };
  /** "nas-10g: below its baseline" */
  title: string;
  /** "nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)" */
  body: string;
  /** The runs that breached when it fired, oldest first: [12, 14]. */
  runIds: number[];
  /** The n runs in a row that ended it, oldest first; [] while firing. */
  resolvedRunIds: number[];
  /** The newest breaching run's rate, its baseline and its share of the line rate, when it fired. */
  receivedBitsPerSecond: number | null;
  baselineBitsPerSecond: number | null;
  lineRatePercent: number | null;
  openedAt: string;
  resolvedAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  notifications: AlertNotificationJson[];
};

export type AlertListPage = { alerts: AlertJson[]; total: number; page: number; pageSize: number };
