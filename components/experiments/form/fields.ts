// What the New experiment form asks for, without React: its fields as typed, the request body
// they make for POST /api/experiments (lib/experiments/plan.ts parses it), the server's field
// errors by form field, and what the plan takes (runs, steps, time) as the server counts it.
// The base run options are the new-test form's own (lib/runs/test-request.ts).
import type { FieldPlacement } from "@/components/forms/use-action-form";
import { formatLinkSpeedCompact } from "@/lib/format";
import { AppError } from "@/lib/errors";
import {
  CHANNELS,
  DEFAULT_KNEE_PERCENT,
  DEFAULT_LOSS_PERCENT,
  EXPERIMENT_KINDS,
  SWEEP_FACTORS,
  VERSUS_REPEATS,
  type ExperimentKind,
  type PlanLink,
  type SweepFactor,
  type SweepValue,
} from "@/lib/experiments/contract";
import { planKind } from "@/lib/experiments/kinds";
import { UDP_CEILING } from "@/lib/experiments/kinds/udp-ceiling";
import { baseRequestOf, parseExperimentRequest, stepSecondsOf } from "@/lib/experiments/plan";
import { presetById, presetRequestBody, type ExperimentPreset } from "@/lib/experiments/presets";
import { CLIENT_SIDES, RUN_DIRECTIONS, type ClientSide, type RunDirection } from "@/lib/runs/contract";
import type { NewExperimentPrefill } from "./prefill";
import {
  formErrorsOf,
  NEW_TEST_DEFAULTS,
  newTestRequestBody,
  parseSize,
  type NewTestFields,
} from "@/lib/runs/test-request";
import { latencyOptionOf, withLatencyOption } from "@/components/diagnosis/latency-option";

export type Protocol = "tcp" | "udp";

/** What a mesh measures: the links chosen, or every link among the hosts chosen. */
export type MeshBy = "links" | "hosts";
/** What a versus sets against each other: two links, or two option sets on one link. */
export type VersusBy = "links" | "variants";

/** The form's fields as typed: text, so that what the server refuses comes back with its limits. */
export type ExperimentFormFields = {
  kind: ExperimentKind;
  name: string;
  /** one link, two (a versus of links: A then B) or several (linksTaken says which) */
  linkIds: number[];
  /** the options every run starts from, as the new-test form has them */
  base: NewTestFields;
  /** every run pings under load (the run option `latency`) */
  latency: boolean;
  factor: SweepFactor;
  /** the sweep's values, comma- or space-separated; bitrates in Mbit/s, sizes with K/M */
  values: string;
  repeats: string;
  kneePercent: string;
  directions: RunDirection[];
  protocols: Protocol[];
  clientSides: ClientSide[];
  baseline: boolean;
  channels: string;
  affinity: boolean;
  lossPercent: string;
  /** the UDP ceiling's search bounds in Mbit/s; empty: the server's defaults */
  lowMbps: string;
  highMbps: string;
  meshBy: MeshBy;
  /** a mesh by hosts: every link with both ends among them */
  hostIds: number[];
  versusBy: VersusBy;
  /** a versus of option sets: the one option that differs, each side's value (typed as a sweep's) and name */
  variantFactor: SweepFactor;
  variantValues: [string, string];
  variantNames: [string, string];
  /** a versus: A and B this many times each */
  versusRepeats: string;
};

export const EXPERIMENT_FORM_DEFAULTS: ExperimentFormFields = {
  kind: "sweep",
  name: "",
  linkIds: [],
  base: NEW_TEST_DEFAULTS,
  latency: false,
  factor: "parallel",
  values: "1, 2, 4, 8",
  repeats: "1",
  kneePercent: String(DEFAULT_KNEE_PERCENT),
  directions: ["a-to-b", "b-to-a"],
  protocols: ["tcp"],
  clientSides: ["a"],
  baseline: true,
  channels: String(CHANNELS.min * 2),
  affinity: false,
  lossPercent: String(DEFAULT_LOSS_PERCENT),
  lowMbps: "",
  highMbps: "",
  meshBy: "links",
  hostIds: [],
  versusBy: "variants",
  variantFactor: "congestion",
  variantValues: ["cubic", "bbr"],
  variantNames: ["", ""],
  versusRepeats: String(VERSUS_REPEATS.default),
};

/**
 * What the form asks of the links: one link; two, A and B (a versus of links); two or more
 * (concurrent, interference, a mesh of links); or hosts instead (a mesh by hosts).
 */
export type LinksTaken = "one" | "pair" | "several" | "hosts";

export function linksTaken(fields: Pick<ExperimentFormFields, "kind" | "meshBy" | "versusBy">): LinksTaken {
  switch (fields.kind) {
    case "concurrent":
    case "interference":
      return "several";
    case "mesh":
      return fields.meshBy === "hosts" ? "hosts" : "several";
    case "versus":
      return fields.versusBy === "links" ? "pair" : "one";
    default:
      return "one";
  }
}

/** The link ids the body sends: as many as the kind takes, in their order; none for a mesh by hosts (the server finds them). */
function takenLinkIds(fields: ExperimentFormFields): number[] | undefined {
  switch (linksTaken(fields)) {
    case "several":
      return fields.linkIds;
    case "pair":
      return fields.linkIds.slice(0, 2);
    case "hosts":
      return undefined;
    case "one":
      return fields.linkIds.slice(0, 1);
  }
}

/** A host as the form knows it: for a mesh by hosts. */
export type FormHost = { id: number; name: string };

/** The hosts at either end of some link, by name: those a mesh by hosts may choose. */
export function formHostsOf(links: readonly { a: { host: FormHost }; b: { host: FormHost } }[]): FormHost[] {
  const hosts = new Map<number, FormHost>();
  for (const link of links) for (const end of [link.a, link.b]) hosts.set(end.host.id, end.host);
  return [...hosts.values()]
    .map(({ id, name }) => ({ id, name }))
    .sort((x, y) => x.name.localeCompare(y.name) || x.id - y.id);
}

/** The links with both ends among the hosts, as a mesh by hosts measures them (host names are unique). */
export function linksAmongHosts(
  hostIds: readonly number[],
  links: readonly FormLink[],
  hosts: readonly FormHost[],
): FormLink[] {
  const names = new Set(hosts.filter((host) => hostIds.includes(host.id)).map((host) => host.name));
  return links.filter((link) => names.has(link.a.hostName) && names.has(link.b.hostName));
}

/** The base fields a kind sets itself, so the form leaves them out: a matrix's cells, a UDP ceiling's protocol and bitrate, a sweep's factor. */
export function fieldsSetByKind(
  fields: Pick<ExperimentFormFields, "kind" | "factor" | "protocols" | "versusBy" | "variantFactor">,
): ReadonlySet<keyof NewTestFields> {
  switch (fields.kind) {
    case "matrix":
      return new Set([
        "protocol",
        "direction",
        "clientSide",
        ...(fields.protocols.includes("udp") ? [] : (["bitrateMbps"] as const)),
      ]);
    case "udp-ceiling":
      return new Set(["protocol", "bitrateMbps"]);
    case "sweep":
      return new Set([SWEPT_FIELDS[fields.factor]]);
    // A mesh runs each link both ways.
    case "mesh":
      return new Set(["direction"]);
    case "versus":
      return fields.versusBy === "variants" ? new Set([SWEPT_FIELDS[fields.variantFactor]]) : new Set();
    default:
      return new Set();
  }
}

// The base field each sweep factor replaces.
const SWEPT_FIELDS: Record<SweepFactor, keyof NewTestFields> = {
  parallel: "parallel",
  length: "length",
  window: "window",
  mss: "mss",
  congestion: "congestion",
  zerocopy: "zerocopy",
  bitrate: "bitrateMbps",
};

/** The base field a sweep's factor replaces: its values come from the sweep. */
export function sweptFieldOf(factor: SweepFactor): keyof NewTestFields {
  return SWEPT_FIELDS[factor];
}

// Where a base field goes in the request body (the form's bitrate is in Mbit/s, the body's in bits/s).
const BODY_KEYS: Partial<Record<keyof NewTestFields, string>> = { bitrateMbps: "bitrate" };

function numberOrText(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const value = Number(trimmed);
  // A non-number goes to the server as text, which answers with the field's limits.
  return Number.isFinite(value) ? value : trimmed;
}

function megabitsToBits(text: string): number | string | undefined {
  const value = numberOrText(text);
  return typeof value === "number" ? Math.round(value * 1e6) : value;
}

const BOOLEAN_WORDS: Record<string, boolean> = { on: true, off: false, true: true, false: false, yes: true, no: false };

/** "1, 2, 4" → [1, 2, 4]; sizes take K/M, bitrates are Mbit/s, zero-copy is on/off; what does not read goes as text for the server to name. */
export function parseSweepValues(factor: SweepFactor, text: string): SweepValue[] {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  return parts.map((part): SweepValue => {
    switch (factor) {
      case "congestion":
        return part;
      case "zerocopy":
        return BOOLEAN_WORDS[part.toLowerCase()] ?? part;
      case "length":
      case "window":
        return parseSize(part) ?? part;
      case "bitrate":
        return megabitsToBits(part) ?? part;
      default:
        return numberOrText(part) ?? part;
    }
  });
}

/** The values as the form shows them: the inverse of parseSweepValues. */
export function sweepValuesText(factor: SweepFactor, values: readonly SweepValue[]): string {
  return values
    .map((value) => {
      if (typeof value === "boolean") return value ? "on" : "off";
      if (factor === "bitrate" && typeof value === "number") return String(value / 1e6);
      return String(value);
    })
    .join(", ");
}

/** A versus's two option sets: the option that differs at each side's value, named as typed or by the value. */
export function variantsOf(fields: ExperimentFormFields): { name: string; options: Record<string, SweepValue> }[] {
  return fields.variantValues.map((text, index) => {
    const [value] = parseSweepValues(fields.variantFactor, text);
    return {
      name: fields.variantNames[index]!.trim() || text.trim(),
      // Nothing typed: the option is left out, and the server names the side that sets nothing.
      options: value === undefined ? {} : { [fields.variantFactor]: value },
    };
  });
}

/** The body of POST /api/experiments (and of startExperimentAction): empty fields left out, Mbit/s as bits/s. */
export function experimentRequestBody(fields: ExperimentFormFields): Record<string, unknown> {
  const { kind } = fields;
  // A matrix's base is TCP (its cells set the protocol); a UDP ceiling's is UDP, which leaves out the TCP-only options.
  const protocol: Protocol = kind === "udp-ceiling" ? "udp" : kind === "matrix" ? "tcp" : fields.base.protocol;
  const options = newTestRequestBody({ ...fields.base, protocol });
  for (const field of fieldsSetByKind(fields)) delete options[BODY_KEYS[field] ?? field];
  const kindFields: Record<ExperimentKind, Record<string, unknown>> = {
    sweep: {
      factor: fields.factor,
      values: parseSweepValues(fields.factor, fields.values),
      repeats: numberOrText(fields.repeats),
      kneePercent: numberOrText(fields.kneePercent),
    },
    matrix: { directions: fields.directions, protocols: fields.protocols, clientSides: fields.clientSides },
    concurrent: { baseline: fields.baseline },
    channels: { channels: numberOrText(fields.channels), affinity: fields.affinity },
    "udp-ceiling": {
      lossPercent: numberOrText(fields.lossPercent),
      low: megabitsToBits(fields.lowMbps),
      high: megabitsToBits(fields.highMbps),
    },
    mesh: { hostIds: fields.meshBy === "hosts" ? fields.hostIds : null },
    interference: {},
    versus: {
      variants: fields.versusBy === "variants" ? variantsOf(fields) : null,
      repeats: numberOrText(fields.versusRepeats),
    },
  };
  const body: Record<string, unknown> = {
    kind,
    name: fields.name.trim() || undefined,
    linkIds: takenLinkIds(fields),
    options: withLatencyOption(options, fields.latency),
    ...kindFields[kind],
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

function textOf(value: unknown): string | undefined {
  return typeof value === "number" || typeof value === "string" ? String(value) : undefined;
}

function listOf<T extends string>(value: unknown, allowed: readonly T[]): T[] | undefined {
  return Array.isArray(value)
    ? value.filter((entry): entry is T => (allowed as readonly unknown[]).includes(entry))
    : undefined;
}

/** Run options as the new-test form types them: the inverse of newTestRequestBody (bits/s back to Mbit/s). */
export function newTestFieldsOf(options: Record<string, unknown>): NewTestFields {
  const fields: NewTestFields = { ...NEW_TEST_DEFAULTS };
  const texts = [
    "duration",
    "bytes",
    "parallel",
    "omit",
    "interval",
    "window",
    "length",
    "mss",
    "congestion",
    "tos",
    "port",
  ] as const;
  for (const key of texts) fields[key] = textOf(options[key]) ?? fields[key];
  if (options.protocol === "udp") fields.protocol = "udp";
  if (options.bytes !== undefined) fields.lengthMode = "bytes";
  if (typeof options.bitrate === "number") fields.bitrateMbps = String(options.bitrate / 1e6);
  if (typeof options.zerocopy === "boolean") fields.zerocopy = options.zerocopy;
  const [direction] = listOf([options.direction], RUN_DIRECTIONS) ?? [];
  const [clientSide] = listOf([options.clientSide], CLIENT_SIDES) ?? [];
  return { ...fields, direction: direction ?? fields.direction, clientSide: clientSide ?? fields.clientSide };
}

/** A request body (a preset's, say) as the form's fields; what it leaves out takes the form's defaults. */
export function formFieldsOfRequest(body: Record<string, unknown>): ExperimentFormFields {
  const defaults = EXPERIMENT_FORM_DEFAULTS;
  const [kind = defaults.kind] = listOf([body.kind], EXPERIMENT_KINDS) ?? [];
  const [factor = defaults.factor] = listOf([body.factor], SWEEP_FACTORS) ?? [];
  const options =
    typeof body.options === "object" && body.options !== null ? (body.options as Record<string, unknown>) : {};
  const base = newTestFieldsOf(options);
  // A search wants short runs: without a duration, the UDP ceiling's own (as the server would take it).
  if (kind === "udp-ceiling" && options.duration === undefined && options.bytes === undefined)
    base.duration = String(UDP_CEILING.defaultDuration);
  const bitsAsMegabits = (value: unknown) => (typeof value === "number" ? String(value / 1e6) : undefined);
  const hostIds = Array.isArray(body.hostIds)
    ? body.hostIds.filter((id): id is number => typeof id === "number")
    : null;
  const variants = kind === "versus" ? variantFieldsOf(body.variants) : null;
  return {
    kind,
    name: typeof body.name === "string" ? body.name : defaults.name,
    linkIds: Array.isArray(body.linkIds)
      ? body.linkIds.filter((id): id is number => typeof id === "number")
      : defaults.linkIds,
    base,
    latency: latencyOptionOf(options),
    factor,
    values: Array.isArray(body.values) ? sweepValuesText(factor, body.values as SweepValue[]) : defaults.values,
    repeats: (kind === "sweep" ? textOf(body.repeats) : undefined) ?? defaults.repeats,
    kneePercent: textOf(body.kneePercent) ?? defaults.kneePercent,
    directions: listOf(body.directions, RUN_DIRECTIONS) ?? defaults.directions,
    protocols: listOf(body.protocols, ["tcp", "udp"] as const) ?? defaults.protocols,
    clientSides: listOf(body.clientSides, CLIENT_SIDES) ?? defaults.clientSides,
    baseline: typeof body.baseline === "boolean" ? body.baseline : defaults.baseline,
    channels: textOf(body.channels) ?? defaults.channels,
    affinity: typeof body.affinity === "boolean" ? body.affinity : defaults.affinity,
    lossPercent: textOf(body.lossPercent) ?? defaults.lossPercent,
    lowMbps: bitsAsMegabits(body.low) ?? defaults.lowMbps,
    highMbps: bitsAsMegabits(body.high) ?? defaults.highMbps,
    meshBy: hostIds ? "hosts" : defaults.meshBy,
    hostIds: hostIds ?? defaults.hostIds,
    versusBy: kind === "versus" && !variants ? "links" : defaults.versusBy,
    variantFactor: variants?.factor ?? defaults.variantFactor,
    variantValues: variants?.values ?? defaults.variantValues,
    variantNames: variants?.names ?? defaults.variantNames,
    versusRepeats: (kind === "versus" ? textOf(body.repeats) : undefined) ?? defaults.versusRepeats,
  };
}

/** Two variants that differ in one option the form can type (a sweep's factor), as its fields; null otherwise. */
function variantFieldsOf(
  value: unknown,
): { factor: SweepFactor; values: [string, string]; names: [string, string] } | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const sides = value as { name?: unknown; options?: Record<string, unknown> }[];
  const [factor] = listOf(Object.keys(sides[0]?.options ?? {}), SWEEP_FACTORS) ?? [];
  if (!factor) return null;
  const valueText = (side: (typeof sides)[number]) => {
    const option = side?.options?.[factor];
    return option === undefined ? "" : sweepValuesText(factor, [option as SweepValue]);
  };
  const nameText = (side: (typeof sides)[number]) =>
    typeof side?.name === "string" && side.name !== valueText(side) ? side.name : "";
  return {
    factor,
    values: [valueText(sides[0]!), valueText(sides[1]!)],
    names: [nameText(sides[0]!), nameText(sides[1]!)],
  };
}

/** A preset on the links chosen, as the form's fields (its line-rate options from the first link). */
export function formFieldsOfPreset(preset: ExperimentPreset, links: readonly FormLink[]): ExperimentFormFields {
  return formFieldsOfRequest(presetRequestBody(preset, links));
}

/** The links of `ids` that exist, in that order. */
export function linksOf(ids: readonly number[], links: readonly FormLink[]): FormLink[] {
  return ids.flatMap((id) => links.filter((link) => link.id === id));
}

/**
 * The form as an address asks for it (lib/experiments/presets.ts by id, or a kind) on the
 * links that exist; a kind that measures one link keeps the first.
 */
export function initialFormFields(
  prefill: NewExperimentPrefill,
  links: readonly FormLink[],
): { fields: ExperimentFormFields; presetId: string | null } {
  const chosen = linksOf(prefill.linkIds, links);
  const preset = presetById(prefill.presetId);
  if (preset)
    return {
      presetId: preset.id,
      fields: formFieldsOfPreset(preset, preset.links === 1 ? chosen.slice(0, 1) : chosen),
    };
  const kind = prefill.kind ?? (chosen.length >= 2 ? "concurrent" : EXPERIMENT_FORM_DEFAULTS.kind);
  // Two links asked for a versus: the two links, A and B.
  const versusBy = kind === "versus" && chosen.length >= 2 ? "links" : EXPERIMENT_FORM_DEFAULTS.versusBy;
  const fields = { ...EXPERIMENT_FORM_DEFAULTS, kind, versusBy };
  return {
    presetId: null,
    fields: {
      ...fields,
      linkIds: keptLinkIds(
        fields,
        chosen.map((link) => link.id),
      ),
    },
  };
}

/** The links the fields keep when the kind or what it takes changes: as many as it takes. */
export function keptLinkIds(fields: Pick<ExperimentFormFields, "kind" | "meshBy" | "versusBy">, linkIds: number[]) {
  const taken = linksTaken(fields);
  return taken === "several" || taken === "hosts" ? linkIds : linkIds.slice(0, taken === "pair" ? 2 : 1);
}

/**
 * Where a server field error shows: `options.bitrate` beside the base bitrate (`base.bitrateMbps`), `values[2]`
 * beside the values, `variants[1].options.congestion` beside B's value (`variants[1]`) and `variants[1].name` beside its name.
 */
export function formKeyOf(field: string): string {
  if (field.startsWith("options.")) {
    const [key] = Object.keys(formErrorsOf([{ field: field.slice("options.".length), message: "" }]));
    return `base.${key}`;
  }
  // A versus's side keeps its index: its value and its name show beside that side's fields.
  const side = /^(variants\[\d+\])(\.name)?/.exec(field);
  if (side) return `${side[1]}${side[2] ?? ""}`;
  const top = field.replace(/\[\d+\].*$/, "");
  return top === "low" || top === "high" ? `${top}Mbps` : top;
}

/** The message as shown beside its field: one that starts "must …" or "is …" says which field first, as the API names it. */
export function fieldMessageOf({ field, message }: { field: string; message: string }): string {
  return /^(must|is|are) /.test(message) ? `${field} ${message}` : message;
}

/** Where a server field error shows: by form key (`base.parallel`, `values`, `linkIds`, …), its message as fieldMessageOf writes it. */
export const experimentFieldOf: FieldPlacement = (error) => ({
  field: formKeyOf(error.field),
  message: fieldMessageOf(error),
});

/** A link as the form knows it: enough for the plan's counts and for each end's iperf3 version. */
export type FormLink = {
  id: number;
  name: string;
  speedMbps: number;
  a: { hostName: string; iperf3Version: string | null; portMin: number; portMax: number };
  b: { hostName: string; iperf3Version: string | null; portMin: number; portMax: number };
};

/** How the experiment and schedule forms name a link in their pickers: "ab-10g · 10G". */
export function linkLabel(link: FormLink): string {
  return `${link.name} · ${formatLinkSpeedCompact(link.speedMbps)}`;
}

function planLinkOf(link: FormLink, hosts: readonly FormHost[]): PlanLink {
  const hostOf = (name: string) => ({ id: hosts.find((host) => host.name === name)?.id ?? 0, name });
  return {
    id: link.id,
    name: link.name,
    speedMbps: link.speedMbps,
    portRanges: { a: { min: link.a.portMin, max: link.a.portMax }, b: { min: link.b.portMin, max: link.b.portMax } },
    hosts: { a: hostOf(link.a.hostName), b: hostOf(link.b.hostName) },
  };
}

/** What the plan takes: runs and steps at most (a search may stop sooner) and about how long; or why it is too large. */
export type PlanSize =
  | { runs: number; steps: number; isUpperBound: boolean; seconds: number | null; defaultName: string }
  | { tooLarge: string };

/**
 * The plan's size as the server counts it (the kinds' maxRuns and maxSteps), or null while the
 * fields do not make a plan. The time is each step's iperf3 time, warm-up included, plus the
 * set-up around it: the runs of one step run at once.
 */
export function planSizeOf(
  fields: ExperimentFormFields,
  links: readonly FormLink[],
  hosts: readonly FormHost[] = [],
): PlanSize | null {
  try {
    const parsed = parseExperimentRequest(experimentRequestBody(fields));
    // A mesh by hosts: the links among them, as the server finds them when it starts.
    const plan =
      linksTaken(fields) === "hosts"
        ? { ...parsed, linkIds: linksAmongHosts(fields.hostIds, links, hosts).map((link) => link.id) }
        : parsed;
    const planLinks = plan.linkIds.flatMap((id) =>
      links.filter((link) => link.id === id).map((link) => planLinkOf(link, hosts)),
    );
    const kind = planKind(plan);
    const base = baseRequestOf(plan);
    const steps = kind.maxSteps(planLinks);
    const perStep = stepSecondsOf(base);
    const seconds = perStep === null ? null : steps * perStep;
    return {
      runs: kind.maxRuns(planLinks),
      steps,
      isUpperBound: kind.steps(base, planLinks) === null,
      seconds,
      defaultName: kind.defaultName(),
    };
  } catch (error) {
    // More runs than a plan may hold: the server's own words, with the count.
    const tooLarge = error instanceof AppError ? error.fields.find((entry) => entry.field === "plan") : undefined;
    return tooLarge ? { tooLarge: tooLarge.message } : null;
  }
}
