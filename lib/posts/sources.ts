// What a post is made from: the figures the pages already read, cut down to what a reader of a
// forum post needs (never a raw output, a credential or an id that means nothing outside). Each page
// hands one of these to its "Copy as post" control, which builds the post in the browser, with or
// without the lab's names. Pure: no I/O, safe in the browser.
import { environmentChanges } from "@/lib/diagnosis/changes";
import type { Hint, RunEnvironment } from "@/lib/diagnosis/contract";
import type { ExperimentJson } from "@/lib/experiments/contract";
import type { ExperimentComparison } from "@/lib/experiments/compare";
import type { RunDirection } from "@/lib/runs/contract";
import type { RunSummaryJson } from "@/lib/runs/serialize";

/** One end of a link: its host, the NIC and what the inventory knows of it. */
export type PostEnd = {
  hostName: string;
  nicName: string;
  address: string | null;
  nicSpeedMbps: number | null;
  mtu: number | null;
};

export type PostLink = { name: string; speedMbps: number; a: PostEnd; b: PostEnd };

/** The test a run ran, in the words of its options. */
export type PostTest = {
  protocol: "tcp" | "udp";
  parallel: number;
  duration?: number;
  bytes?: number;
  /** UDP target rate, bits/s */
  bitrate?: number;
  direction: RunDirection;
};

/** A run's commands, iperf3 versions and environment: what each end ran and looked like. */
export type PostEnds = {
  clientSide: "a" | "b";
  commands: { server: string | null; client: string | null };
  versions: { server: string | null; client: string | null };
  environment: RunEnvironment | null;
};

export type RunPostSource = {
  kind: "run";
  id: number;
  createdAt: string;
  status: string;
  link: PostLink;
  test: PostTest;
  summary: RunSummaryJson | null;
  error: string | null;
  /** "−3% against the baseline of 940 Mbit/s"; null without a baseline */
  againstBaseline: string | null;
  ends: PostEnds;
  hints: Hint[];
};

type PostExperiment = Pick<ExperimentJson, "id" | "kind" | "name" | "status" | "answer" | "table" | "createdAt">;

export type ExperimentPostSource = {
  kind: "experiment";
  experiment: PostExperiment;
  kindTitle: string;
  links: PostLink[];
  /** the first run of the experiment: its commands and environment stand for all of them */
  firstRun: (PostEnds & { id: number; link: PostLink }) | null;
  hints: Hint[];
};

export type ExperimentComparePostSource = {
  kind: "experiment-compare";
  kindTitle: string;
  a: PostExperiment;
  b: PostExperiment;
  links: PostLink[];
  comparison: ExperimentComparison;
};

export type ComparedRunPost = {
  id: number;
  createdAt: string;
  status: string;
  test: PostTest;
  receivedBitsPerSecond: number | null;
  lineRatePercent: number | null;
  retransmits: number | null;
  jitterMs: number | null;
  lostPercent: number | null;
};

export type RunComparePostSource = {
  kind: "run-compare";
  link: PostLink;
  runs: ComparedRunPost[];
  /** what changed in the ends' environment between the runs ("MTU 1500 → 9000 on both ends") */
  changes: string[];
};

export type HistoryPointPost = {
  id: number;
  time: string;
  receivedBitsPerSecond: number;
  test: PostTest;
  imported: boolean;
  offLink: boolean;
};

export type LinkHistoryPostSource = {
  kind: "link-history";
  linkId: number;
  link: PostLink;
  /** the newest results, oldest first */
  points: HistoryPointPost[];
  /** how many results the link has in all */
  total: number;
  hints: Hint[];
};

export type PostSource =
  RunPostSource | ExperimentPostSource | ExperimentComparePostSource | RunComparePostSource | LinkHistoryPostSource;

/** How many of a link's latest results its post lists. */
export const HISTORY_POST_POINTS = 20;

/** A link's ends as a post names them, from a page's read of the link (getLinkEnds). */
export function postLinkOf(ends: { name: string; speedMbps: number; a: PostEnd; b: PostEnd }): PostLink {
  const end = (value: PostEnd): PostEnd => ({
    hostName: value.hostName,
    nicName: value.nicName,
    address: value.address,
    nicSpeedMbps: value.nicSpeedMbps,
    mtu: value.mtu,
  });
  return { name: ends.name, speedMbps: ends.speedMbps, a: end(ends.a), b: end(ends.b) };
}

// ---------------------------------------------------------------- from the pages' reads

/** The test of a run from its stored options and direction. */
export function postTestOf(
  options: { protocol: "tcp" | "udp"; parallel: number; duration?: number; bytes?: number; bitrate?: number },
  direction: RunDirection,
): PostTest {
  const test: PostTest = { protocol: options.protocol, parallel: options.parallel, direction };
  if (options.bytes !== undefined) test.bytes = options.bytes;
  else test.duration = options.duration ?? 10;
  if (options.protocol === "udp" && typeof options.bitrate === "number") test.bitrate = options.bitrate;
  return test;
}

/** A run page's post: the run as its page read it (getRunDetail), its link's ends, its diagnosis. */
export function runPostSource({
  run,
  link,
  test,
  environment,
  hints,
  againstBaseline,
}: {
  run: {
    id: number;
    createdAt: string;
    status: string;
    clientSide: string;
    summary: RunSummaryJson | null;
    commands: { server: string | null; client: string | null };
    versions: { server: string | null; client: string | null };
    error: { message: string } | null;
  };
  link: PostLink;
  test: PostTest;
  environment: RunEnvironment | null;
  hints: Hint[];
  againstBaseline: string | null;
}): RunPostSource {
  return {
    kind: "run",
    id: run.id,
    createdAt: run.createdAt,
    status: run.status,
    link,
    test,
    summary: run.summary,
    error: run.error?.message ?? null,
    againstBaseline,
    ends: {
      clientSide: run.clientSide === "b" ? "b" : "a",
      commands: run.commands,
      versions: run.versions,
      environment,
    },
    hints,
  };
}

/** A link page's history post: the newest HISTORY_POST_POINTS of the points its chart draws. */
export function linkHistoryPostSource({
  linkId,
  link,
  points,
  hints,
}: {
  linkId: number;
  link: PostLink;
  points: ReadonlyArray<{
    id: number;
    time: string;
    receivedBitsPerSecond: number;
    protocol: "tcp" | "udp";
    direction: RunDirection;
    parallel: number;
    imported: boolean;
    offLink: boolean;
  }>;
  hints: Hint[];
}): LinkHistoryPostSource {
  return {
    kind: "link-history",
    linkId,
    link,
    total: points.length,
    points: points.slice(-HISTORY_POST_POINTS).map((point) => ({
      id: point.id,
      time: point.time,
      receivedBitsPerSecond: point.receivedBitsPerSecond,
      test: { protocol: point.protocol, parallel: point.parallel, direction: point.direction },
      imported: point.imported,
      offLink: point.offLink,
    })),
    hints,
  };
}

/** A link page's compare of runs (getRunComparison), with what changed in the ends' environment between them. */
export function runComparePostSource({
  link,
  runs,
  environments,
}: {
  link: PostLink;
  runs: ReadonlyArray<{
    run: {
      id: number;
      createdAt: string;
      status: string;
      options: { protocol: "tcp" | "udp"; parallel: number; duration?: number; bytes?: number; bitrate?: number };
      direction: RunDirection;
      receivedBitsPerSecond: number | null;
      lineRatePercent: number | null;
      retransmits: number | null;
      jitterMs: number | null;
      lostPercent: number | null;
    };
  }>;
  environments: ReadonlyMap<number, RunEnvironment | null>;
}): RunComparePostSource {
  return {
    kind: "run-compare",
    link,
    runs: runs.map(({ run }) => ({
      id: run.id,
      createdAt: run.createdAt,
      status: run.status,
      test: postTestOf(run.options, run.direction),
      receivedBitsPerSecond: run.receivedBitsPerSecond,
      lineRatePercent: run.lineRatePercent,
      retransmits: run.retransmits,
      jitterMs: run.jitterMs,
      lostPercent: run.lostPercent,
    })),
    changes: environmentChanges(
      runs.map(({ run }) => ({ runId: run.id, environment: environments.get(run.id) ?? null })),
    ),
  };
}
