// The experiment contract: what the planner, the runner, the REST API, the SSE stream
// and the pages agree an experiment is. Pure: no I/O, safe in the browser.
//
// An experiment is a plan of ordinary runs carried out step by step (one step: the run
// or runs that go together) and turned into one answer. Each kind (lib/experiments/kinds/)
// says which steps it takes, what its result is, and how to say the answer in a sentence.
import type { IperfOptions } from "@/lib/iperf/options";
import type { GridAnswer } from "@/lib/grid/contract";
import type { ClientSide, PathVerdict, RunDirection, RunStatus } from "@/lib/runs/contract";

// ---------------------------------------------------------------- kinds and statuses

export const EXPERIMENT_KINDS = [
  "sweep",
  "matrix",
  "concurrent",
  "channels",
  "udp-ceiling",
  "mesh",
  "interference",
  "versus",
] as const;
export type ExperimentKind = (typeof EXPERIMENT_KINDS)[number];

export const ACTIVE_EXPERIMENT_STATUSES = ["queued", "running"] as const;
export const FINAL_EXPERIMENT_STATUSES = ["succeeded", "failed", "cancelled", "interrupted"] as const;
export const EXPERIMENT_STATUSES = [...ACTIVE_EXPERIMENT_STATUSES, ...FINAL_EXPERIMENT_STATUSES] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

export function isActiveExperimentStatus(status: string): boolean {
  return (ACTIVE_EXPERIMENT_STATUSES as readonly string[]).includes(status);
}

/** A step not begun yet is "pending"; the others are the status of its runs taken together. */
export const STEP_STATUSES = ["pending", "running", "succeeded", "failed", "cancelled", "interrupted"] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

// ---------------------------------------------------------------- limits

/** No plan may hold more runs than this (a sweep of 8 values × 8 repeats is 64), unless its kind allows more (a mesh). */
export const MAX_PLAN_RUNS = 64;
/** No plan may name more links than this, unless its kind allows more (a mesh). */
export const MAX_PLAN_LINKS = 16;
export const MAX_SWEEP_REPEATS = 10;
export const MAX_SWEEP_VALUES = 32;
export const CHANNELS = { min: 2, max: 16 } as const;
export const DEFAULT_KNEE_PERCENT = 95;
export const DEFAULT_LOSS_PERCENT = 0.1;
/** A concurrent experiment's aggregate below this share of the links alone is a shared bottleneck. */
export const SHARED_BOTTLENECK_PERCENT = 90;
/** A mesh: this many links at most (each tested in both directions, one run at a time). */
export const MESH_LINKS = { min: 2, max: 64 } as const;
/** An interference experiment: each link alone, then every pair together. */
export const INTERFERENCE_LINKS = { min: 2, max: 8 } as const;
/** A versus experiment: A and B alternately, this many times each. */
export const VERSUS_REPEATS = { min: 3, max: 20, default: 5 } as const;
/** Two directions that differ by more than this are asymmetric. */
export const ASYMMETRY_PERCENT = 10;

// ---------------------------------------------------------------- the request (= the stored plan)

/** The options a sweep may step through; `bitrate` is the UDP one. */
export const SWEEP_FACTORS = ["parallel", "length", "window", "mss", "congestion", "zerocopy", "bitrate"] as const;
export type SweepFactor = (typeof SWEEP_FACTORS)[number];
export type SweepValue = number | string | boolean;

/**
 * The base options of every run of the plan, as `POST /api/links/:id/runs` takes them:
 * the iperf3 options plus `direction` and `clientSide` (never `reverse` or `bidir`).
 */
export type BaseRunOptions = Record<string, unknown> & { direction?: RunDirection; clientSide?: ClientSide };

type PlanCommon = { name: string; linkIds: number[]; options: BaseRunOptions };

/**
 * A validated experiment request, as `POST /api/experiments` takes it once defaults are
 * filled in: stored as is, so that "Run again" repeats exactly the same plan.
 */
export type ExperimentPlan =
  | (PlanCommon & { kind: "sweep"; factor: SweepFactor; values: SweepValue[]; repeats: number; kneePercent: number })
  | (PlanCommon & {
      kind: "matrix";
      directions: RunDirection[];
      protocols: ("tcp" | "udp")[];
      clientSides: ClientSide[];
    })
  | (PlanCommon & { kind: "concurrent"; baseline: boolean })
  | (PlanCommon & { kind: "channels"; channels: number; affinity: boolean })
  | (PlanCommon & {
      kind: "udp-ceiling";
      lossPercent: number;
      /** bits/s the search starts above; null: 1% of high */
      low: number | null;
      /** bits/s tried first; null: the link's line rate */
      high: number | null;
    })
  | (PlanCommon & {
      kind: "mesh";
      /** the hosts whose links (both ends among them) the mesh measures; null: the plan's linkIds as given */
      hostIds: number[] | null;
    })
  | (PlanCommon & { kind: "interference" })
  | (PlanCommon & {
      kind: "versus";
      /** one link and two option sets (A, then B); null: two links (linkIds[0] is A) with the same options */
      variants: VersusVariant[] | null;
      repeats: number;
    });

/** One side of a versus on one link: its name ("bbr") and the run options it sets over the base options. */
export type VersusVariant = { name: string; options: BaseRunOptions };
export type VersusSide = "A" | "B";

export type PlanOf<K extends ExperimentKind> = Extract<ExperimentPlan, { kind: K }>;

// ---------------------------------------------------------------- steps

/** What a step sets, to tell its rows apart: the value of a sweep, the cell of a matrix, … */
export type StepTags = {
  value?: SweepValue;
  repeat?: number;
  direction?: RunDirection;
  protocol?: "tcp" | "udp";
  clientSide?: ClientSide;
  /** concurrent: a link measured by itself first, or all links together */
  phase?: "alone" | "together";
  /** udp-ceiling: the bitrate tried, bits/s */
  bitrate?: number;
  /** interference: the two links measured together */
  pair?: [number, number];
  /** versus: the side a step measures */
  side?: VersusSide;
};

/** One run a step starts. */
export type StepRunSpec = { linkId: number; options: IperfOptions; clientSide: ClientSide; channel?: number };

/** A step the plan takes next: its runs start together (every server, then every client). */
export type StepSpec = { label: string; tags: StepTags; runs: StepRunSpec[] };

/** What a finished run gave, as the kinds read it (rates in bits/s). */
export type RunOutcome = {
  runId: number;
  linkId: number;
  channel: number | null;
  port: number | null;
  status: RunStatus;
  streams: number;
  sentBitsPerSecond: number | null;
  receivedBitsPerSecond: number | null;
  reverseReceivedBitsPerSecond: number | null;
  retransmits: number | null;
  jitterMs: number | null;
  lostPercent: number | null;
  /** the UDP receiver's datagram counts, exact where lostPercent is derived from them */
  lostPackets: number | null;
  packets: number | null;
  clientCpuPercent: number | null;
  serverCpuPercent: number | null;
  /** start time of the client (ms since the epoch), for the skew between runs of one step */
  startedAtMs: number | null;
  /** where the run's bytes went (lib/runs/path-check.ts); null: not checked */
  pathVerdict: PathVerdict | null;
  /** the measured intervals (forward direction, warm-up left out): end time in s and rate */
  intervals: { end: number; bitsPerSecond: number }[];
};

/** A step that has ended, with its runs. */
export type StepOutcome = { index: number; label: string; tags: StepTags; status: StepStatus; runs: RunOutcome[] };

/** What the kinds know of each link of the plan. */
export type PlanLink = {
  id: number;
  name: string;
  speedMbps: number;
  /** the iperf3 port range of the hosts at the two ends (channels need one port each) */
  portRanges: { a: { min: number; max: number }; b: { min: number; max: number } };
  /** the end that is an iperf3 server Wirespeed does not manage (host access "iperf3-server"); absent when both are managed */
  externalServerEnd?: "a" | "b";
  /** the end that is a device (host access "device"): it runs no ordinary run; absent when neither is */
  deviceEnd?: "a" | "b";
  /** the hosts at the two ends (a mesh draws its grid of them) */
  hosts: { a: { id: number; name: string }; b: { id: number; name: string } };
};

// ---------------------------------------------------------------- results (every rate in bits/s)

export type SweepRow = {
  value: SweepValue;
  runIds: number[];
  receivedBitsPerSecond: number | null;
  minBitsPerSecond: number | null;
  maxBitsPerSecond: number | null;
  lineRatePercent: number | null;
  retransmits: number | null;
  clientCpuPercent: number | null;
  serverCpuPercent: number | null;
};
export type SweepResult = {
  factor: SweepFactor;
  rows: SweepRow[];
  knee: { value: SweepValue; receivedBitsPerSecond: number } | null;
};

export type MatrixRow = {
  direction: RunDirection;
  protocol: "tcp" | "udp";
  clientSide: ClientSide;
  runId: number;
  receivedBitsPerSecond: number | null;
  sentBitsPerSecond: number | null;
  reverseReceivedBitsPerSecond: number | null;
  retransmits: number | null;
  jitterMs: number | null;
  lostPercent: number | null;
};
export type MatrixResult = { rows: MatrixRow[]; asymmetry: { slower: RunDirection; percent: number } | null };

export type ConcurrentRow = {
  linkId: number;
  runIds: number[];
  aloneBitsPerSecond: number | null;
  togetherBitsPerSecond: number | null;
};
export type ConcurrentResult = {
  rows: ConcurrentRow[];
  aggregateBitsPerSecond: number | null;
  lineRateSumBitsPerSecond: number;
  aggregatePercentOfLineRates: number | null;
  aggregatePercentOfAlone: number | null;
  sharedBottleneck: boolean;
  /** spread of the clients' start times, ms */
  startSkewMs: number | null;
};

export type ChannelRow = {
  channel: number;
  port: number | null;
  runId: number;
  sentBitsPerSecond: number | null;
  receivedBitsPerSecond: number | null;
  retransmits: number | null;
  streams: number;
  jitterMs: number | null;
  lostPercent: number | null;
};
export type ChannelsResult = {
  rows: ChannelRow[];
  /** jitter: the channels' mean; loss: every channel's lost datagrams over all their datagrams (UDP) */
  sum: {
    sentBitsPerSecond: number | null;
    receivedBitsPerSecond: number | null;
    retransmits: number | null;
    jitterMs: number | null;
    lostPercent: number | null;
  };
  /** the channels' rates added up per interval, over the intervals every channel reported */
  intervals: { end: number; bitsPerSecond: number }[];
};

export type UdpCeilingStep = {
  bitrate: number;
  runId: number;
  receivedBitsPerSecond: number | null;
  lostPercent: number | null;
  jitterMs: number | null;
};
/** `bitsPerSecond`: the highest bitrate tried whose loss stayed within lossPercent; the next three are that step's figures. */
export type UdpCeilingResult = {
  bitsPerSecond: number | null;
  receivedBitsPerSecond: number | null;
  lostPercent: number | null;
  jitterMs: number | null;
  /** the lowest bitrate tried above the ceiling that lost more than lossPercent (when nothing passed: the lowest tried), and its loss */
  lowestFailing: { bitrate: number; lostPercent: number } | null;
  /** how close the bounds came: lowestFailing's bitrate above the ceiling, in % of the ceiling; null unless both exist */
  gapPercent: number | null;
  steps: UdpCeilingStep[];
};

/** One run of a mesh: a link in one direction (a-to-b or b-to-a). */
export type MeshRow = {
  linkId: number;
  direction: RunDirection;
  runId: number;
  receivedBitsPerSecond: number | null;
  lineRatePercent: number | null;
};
/** The rows, and the grid of those results (as GET /api/grid answers, of the mesh's hosts and runs only). */
export type MeshResult = { rows: MeshRow[]; grid: GridAnswer };

/** Two links alone and together: rates in the order of linkIds; percentOfAlone: together over alone, both summed. */
export type InterferencePair = {
  linkIds: [number, number];
  aloneBitsPerSecond: [number | null, number | null];
  togetherBitsPerSecond: [number | null, number | null];
  /** the two together over the interval both ran (concurrent's aggregate), the figure percentOfAlone compares */
  togetherAggregateBitsPerSecond: number | null;
  percentOfAlone: number | null;
  runIds: number[];
};
export type InterferenceResult = {
  pairs: InterferencePair[];
  /** the sets of links joined by pairs below SHARED_BOTTLENECK_PERCENT of alone (two or more links each) */
  groups: number[][];
};

/** One side of a versus: its runs' received rates (median, min, max) and CPU of both ends per Gbit/s. */
export type VersusSideResult = {
  side: VersusSide;
  /** the variant's name, or the link's name */
  name: string;
  linkId: number;
  runIds: number[];
  medianBitsPerSecond: number | null;
  minBitsPerSecond: number | null;
  maxBitsPerSecond: number | null;
  /** the median over runs of (client CPU % + server CPU %) per Gbit/s received */
  cpuPercentPerGbps: number | null;
};
export type VersusResult = {
  sides: VersusSideResult[];
  /** B's median against A's, in % (negative: B is slower) */
  differencePercent: number | null;
  /** every B run above every A run or every one below (or a two-sided rank test below 5% where repeats allow it) */
  clear: boolean;
  /** how many A-B pairs went the way of the median difference */
  pairsAgreeing: number;
  pairs: number;
};

export type ResultOf<K extends ExperimentKind> = {
  sweep: SweepResult;
  matrix: MatrixResult;
  concurrent: ConcurrentResult;
  channels: ChannelsResult;
  "udp-ceiling": UdpCeilingResult;
  mesh: MeshResult;
  interference: InterferenceResult;
  versus: VersusResult;
}[K];
export type ExperimentResult = ResultOf<ExperimentKind>;

// ---------------------------------------------------------------- the result as a table

/** How a column's numbers read and compare: compare computes the difference in % of numeric columns. */
export type ColumnFormat = "text" | "bitsPerSecond" | "percent" | "count" | "ms" | "runs";
export type TableColumn = { key: string; label: string; format: ColumnFormat };
export type TableCell = string | number | boolean | null | number[];
/** `key` tells rows apart across experiments of one kind (compare pairs rows by it). */
export type TableRow = { key: string; cells: Record<string, TableCell>; isSum?: boolean };
export type ResultTable = { columns: TableColumn[]; rows: TableRow[] };

// ---------------------------------------------------------------- the experiment as the API sends it

export type ExperimentStepJson = { index: number; label: string; tags: StepTags; runIds: number[]; status: StepStatus };

export type ExperimentJson = {
  id: number;
  kind: ExperimentKind;
  name: string;
  status: ExperimentStatus;
  plan: ExperimentPlan;
  links: { id: number; name: string; speedMbps: number }[];
  /** the steps so far and, for kinds whose steps are known in advance, the pending ones */
  steps: ExperimentStepJson[];
  /** how many steps the plan takes (at most, for a search such as udp-ceiling) */
  plannedSteps: number;
  /** seconds the remaining steps should take, while it runs */
  estimatedSecondsLeft: number | null;
  result: ExperimentResult | null;
  answer: string | null;
  table: ResultTable | null;
  error: { message: string } | null;
  /** what a user wrote down about it, and its labels (lib/notes) */
  note: string;
  labels: string[];
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
};

// ---------------------------------------------------------------- live events (SSE)

/**
 * `GET /api/experiments/:id/events`: `status` {status}, `step` (ExperimentStepJson),
 * `sample` (a run's sample event plus its `runId`, `linkId` and `channel`), `row` (a TableRow
 * of the result as it fills in). A viewer that needs the whole state reads `GET /api/experiments/:id`.
 */
export type ExperimentEventType = "status" | "step" | "sample" | "row";

/** One experiment in a list (`GET /api/experiments`, the experiments page, a link page). */
export type ExperimentListItem = {
  id: number;
  kind: ExperimentKind;
  name: string;
  status: ExperimentStatus;
  links: { id: number; name: string }[];
  answer: string | null;
  stepsDone: number;
  plannedSteps: number;
  createdAt: string;
  endedAt: string | null;
};
export type ExperimentListPage = { experiments: ExperimentListItem[]; total: number; page: number; pageSize: number };
