// What a post is made from: the figures the pages already read, cut down to what a reader of a
// forum post needs (never a raw output, a credential or an id that means nothing outside). Each page
// hands one of these to its "Copy as post" control, which builds the post in the browser, with or
// without the lab's names. Pure: no I/O, safe in the browser.
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
export function postLinkOf(ends: {
  name: string;
  speedMbps: number;
  a: PostEnd & Record<string, unknown>;
  b: PostEnd & Record<string, unknown>;
}): PostLink {
  const end = (value: PostEnd): PostEnd => ({
    hostName: value.hostName,
    nicName: value.nicName,
    address: value.address,
    nicSpeedMbps: value.nicSpeedMbps,
    mtu: value.mtu,
  });
  return { name: ends.name, speedMbps: ends.speedMbps, a: end(ends.a), b: end(ends.b) };
}
