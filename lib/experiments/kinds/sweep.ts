// Sweep: one link, one option stepped through a list of values, every other option fixed.
// The answer is the knee: the smallest value whose median reaches kneePercent of the best.
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import { IperfOptionsSchema } from "@/lib/iperf/options";
import {
  DEFAULT_KNEE_PERCENT,
  MAX_SWEEP_REPEATS,
  MAX_SWEEP_VALUES,
  SWEEP_FACTORS,
  type PlanOf,
  type ResultTable,
  type StepSpec,
  type SweepFactor,
  type SweepResult,
  type SweepRow,
  type SweepValue,
} from "../contract";
import {
  exactlyOneLink,
  formatSize,
  lineRateOf,
  linkOf,
  median,
  numberBetween,
  percentOf,
  present,
  runsOf,
  wholeNumber,
} from "./figures";
import { refuseClientOnExternalServer } from "./external";
import { nextOfSteps, type KindDefinition } from "./kind";
import { formatBitRate, formatPercentWord } from "@/lib/format";

/** How each factor is named in headings and table columns. */
export const SWEEP_FACTOR_LABELS: Record<SweepFactor, string> = {
  parallel: "Streams",
  length: "Length",
  window: "Window",
  mss: "MSS",
  congestion: "Congestion control",
  zerocopy: "Zero-copy",
  bitrate: "Bitrate",
};

const VALUE_TYPES: Record<SweepFactor, "number" | "string" | "boolean"> = {
  parallel: "number",
  length: "number",
  window: "number",
  mss: "number",
  congestion: "string",
  zerocopy: "boolean",
  bitrate: "number",
};

const VALUE_TYPE_MESSAGES = {
  number: "must be a number",
  string: "must be the name of a congestion control algorithm (e.g. cubic, bbr)",
  boolean: "must be true or false",
} as const;

const VALUES_MESSAGE = `values must list 1 to ${MAX_SWEEP_VALUES} values to step through`;

const SweepFieldsSchema = z
  .strictObject({
    factor: z.enum(SWEEP_FACTORS, { error: `factor must be one of ${SWEEP_FACTORS.join(", ")}` }),
    values: z
      .array(z.union([z.number(), z.string(), z.boolean()], { error: "must be a number, a text or true/false" }), {
        error: VALUES_MESSAGE,
      })
      .min(1, { error: VALUES_MESSAGE })
      .max(MAX_SWEEP_VALUES, { error: VALUES_MESSAGE }),
    repeats: wholeNumber("repeats", 1, MAX_SWEEP_REPEATS, " runs per value").default(1),
    kneePercent: numberBetween("kneePercent", 1, 100, " (% of the best median)").default(DEFAULT_KNEE_PERCENT),
  })
  .superRefine((fields, context) => {
    const type = VALUE_TYPES[fields.factor];
    const seen = new Set<SweepValue>();
    fields.values.forEach((value, index) => {
      if (typeof value !== type) {
        context.addIssue({
          code: "custom",
          path: ["values", index],
          message: `${VALUE_TYPE_MESSAGES[type]} (${fields.factor})`,
        });
      } else if (seen.has(value)) {
        context.addIssue({ code: "custom", path: ["values", index], message: `${String(value)} is given twice` });
      }
      seen.add(value);
    });
  });

/** The value alone, as a table cell shows it: "4", "256 KiB", "bbr", "on", "500 Mbit/s". */
export function sweepValueText(factor: SweepFactor, value: SweepValue): string {
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "string") return value;
  if (factor === "length" || factor === "window") return formatSize(value);
  if (factor === "mss") return `${value} bytes`;
  if (factor === "bitrate") return formatBitRate(value);
  return String(value);
}

/** The value in words: "1 stream", "4 streams", "window 256 KiB", "zero-copy on". */
export function describeSweepValue(factor: SweepFactor, value: SweepValue): string {
  if (factor === "parallel") return value === 1 ? "1 stream" : `${String(value)} streams`;
  const label = factor === "mss" ? "MSS" : SWEEP_FACTOR_LABELS[factor].toLowerCase();
  return `${label} ${sweepValueText(factor, value)}`;
}

// "4 streams reach", "1 stream reaches", "window 256 KiB reaches"
function verb(factor: SweepFactor, value: SweepValue, singular: string, plural: string): string {
  return factor === "parallel" && value !== 1 ? plural : singular;
}

/** The smallest value (in the order given) whose median reaches kneePercent of the best median. */
export function kneeOf(rows: readonly SweepRow[], kneePercent: number): SweepResult["knee"] {
  const medians = present(rows.map((row) => row.receivedBitsPerSecond));
  if (medians.length === 0) return null;
  const threshold = (Math.max(...medians) * kneePercent) / 100;
  const knee = rows.find((row) => row.receivedBitsPerSecond !== null && row.receivedBitsPerSecond >= threshold);
  return knee && knee.receivedBitsPerSecond !== null
    ? { value: knee.value, receivedBitsPerSecond: knee.receivedBitsPerSecond }
    : null;
}

function sweepSteps(plan: PlanOf<"sweep">, base: Parameters<KindDefinition<"sweep">["steps"]>[1]): StepSpec[] {
  const linkId = plan.linkIds[0]!;
  return plan.values.flatMap((value) => {
    const options = IperfOptionsSchema.parse({ ...base.options, [plan.factor]: value });
    const words = describeSweepValue(plan.factor, value);
    return Array.from({ length: plan.repeats }, (_, index) => ({
      label: plan.repeats > 1 ? `${words}, run ${index + 1} of ${plan.repeats}` : words,
      tags: { value, repeat: index + 1 },
      runs: [{ linkId, options, clientSide: base.clientSide }],
    }));
  });
}

export const sweepKind: KindDefinition<"sweep"> = {
  kind: "sweep",
  title: "Sweep",
  defaultName: (plan) =>
    plan.factor === "parallel" ? "Stream sweep" : `${SWEEP_FACTOR_LABELS[plan.factor] ?? "Option"} sweep`,
  fieldsSchema: SweepFieldsSchema,
  baseOptions(plan) {
    // The factor's value comes from each step; a UDP bitrate sweep's base needs some bitrate to pass.
    const options = { ...plan.options };
    if ((SWEEP_FACTORS as readonly unknown[]).includes(plan.factor)) delete options[plan.factor];
    return plan.factor === "bitrate" ? { ...options, bitrate: 0 } : options;
  },
  check(plan, base, links) {
    const errors: FieldError[] = [
      ...exactlyOneLink(plan.linkIds, "sweep"),
      // An iperf3 server Wirespeed does not manage takes a sweep's steps as any client's (each may wait while it is busy).
      ...refuseClientOnExternalServer(links, [base.clientSide], "clientSide"),
    ];
    plan.values.forEach((value, index) => {
      const parsed = IperfOptionsSchema.safeParse({ ...base.options, [plan.factor]: value });
      if (parsed.success) return;
      for (const message of new Set(parsed.error.issues.map((issue) => issue.message)))
        errors.push({ field: `values[${index}]`, message });
    });
    return errors;
  },
  maxRuns: (plan) => plan.values.length * plan.repeats,
  maxSteps: (plan) => plan.values.length * plan.repeats,
  steps: (plan, base) => sweepSteps(plan, base),
  nextStep: (plan, base, _links, done) => nextOfSteps(sweepSteps(plan, base), done),
  result(plan, links, done) {
    const lineRate = lineRateOf(linkOf(links, plan.linkIds[0]));
    const rows = plan.values.flatMap((value): SweepRow[] => {
      const steps = done.filter((step) => step.tags.value === value);
      if (steps.length === 0) return [];
      // A failed or cancelled run counts when it has a figure: a partial run still measured something.
      const runs = runsOf(steps);
      const rates = present(runs.map((run) => run.receivedBitsPerSecond));
      const receivedBitsPerSecond = median(rates);
      return [
        {
          value,
          runIds: runs.map((run) => run.runId),
          receivedBitsPerSecond,
          minBitsPerSecond: rates.length > 0 ? Math.min(...rates) : null,
          maxBitsPerSecond: rates.length > 0 ? Math.max(...rates) : null,
          lineRatePercent: percentOf(receivedBitsPerSecond, lineRate),
          retransmits: median(runs.map((run) => run.retransmits)),
          clientCpuPercent: median(runs.map((run) => run.clientCpuPercent)),
          serverCpuPercent: median(runs.map((run) => run.serverCpuPercent)),
        },
      ];
    });
    return { factor: plan.factor, rows, knee: kneeOf(rows, plan.kneePercent) };
  },
  answer(plan, _links, result) {
    const { knee, factor } = result;
    if (!knee) return null;
    const best = Math.max(...present(result.rows.map((row) => row.receivedBitsPerSecond)));
    const subject = describeSweepValue(factor, knee.value);
    const reach = verb(factor, knee.value, "reaches", "reach");
    const percent = (knee.receivedBitsPerSecond / best) * 100;
    const kneeWords =
      knee.receivedBitsPerSecond >= best
        ? `${subject} ${reach} the best (${formatBitRate(best)})`
        : `${subject} ${reach} ${formatPercentWord(percent)} of the best (${formatBitRate(best)})`;
    const first = result.rows.find((row) => row.receivedBitsPerSecond !== null);
    if (!first || first.value === knee.value || first.receivedBitsPerSecond === null) return kneeWords;
    const give = verb(factor, first.value, "gives", "give");
    return `${kneeWords}; ${describeSweepValue(factor, first.value)} ${give} ${formatBitRate(first.receivedBitsPerSecond)}`;
  },
  table(plan, _links, result): ResultTable {
    return {
      columns: [
        { key: "value", label: SWEEP_FACTOR_LABELS[result.factor], format: "text" },
        { key: "receivedBitsPerSecond", label: "Median", format: "bitsPerSecond" },
        { key: "minBitsPerSecond", label: "Min", format: "bitsPerSecond" },
        { key: "maxBitsPerSecond", label: "Max", format: "bitsPerSecond" },
        { key: "lineRatePercent", label: "Of line rate", format: "percent" },
        { key: "retransmits", label: "Retransmits", format: "count" },
        { key: "clientCpuPercent", label: "Client CPU", format: "percent" },
        { key: "serverCpuPercent", label: "Server CPU", format: "percent" },
        { key: "knee", label: "Knee", format: "text" },
        { key: "runIds", label: "Runs", format: "runs" },
      ],
      rows: result.rows.map((row) => ({
        key: String(row.value),
        cells: {
          value: sweepValueText(result.factor, row.value),
          receivedBitsPerSecond: row.receivedBitsPerSecond,
          minBitsPerSecond: row.minBitsPerSecond,
          maxBitsPerSecond: row.maxBitsPerSecond,
          lineRatePercent: row.lineRatePercent,
          retransmits: row.retransmits,
          clientCpuPercent: row.clientCpuPercent,
          serverCpuPercent: row.serverCpuPercent,
          knee:
            result.knee !== null && result.knee.value === row.value ? `knee (${plan.kneePercent}% of the best)` : null,
          runIds: row.runIds,
        },
      })),
    };
  },
};
