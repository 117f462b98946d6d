import type { ShareKind } from "./schemas";
import type { RunDirection, RunStatus } from "@/lib/runs/contract";
import type { RunSummaryJson } from "@/lib/runs/serialize";
import type { SeriesPoint } from "@/lib/runs/series";
import type { LinkHistoryPoint } from "@/lib/runs/link-reads";
import type { ExperimentStatus, ResultTable } from "@/lib/experiments/contract";

// What a share link is, as the API answers it, and what its page shows: only what these types
// name reaches a visitor (no commands, outputs, environments, NICs or other links). Types only.

/** `POST /api/shares` answers `{ share }`: exactly these fields. */
export type ShareJson = {
  id: number;
  /** absolute: WIRESPEED_PUBLIC_URL (or the request's origin) + /s/TOKEN */
  url: string;
  kind: ShareKind;
  expiresAt: string | null;
  hideAddresses: boolean;
};

/**
 * One share in `GET /api/shares` and on /shares: the answer of POST but its URL (only the share's
 * creation knows its token: the database keeps its hash), and what it shows and who made it.
 */
export type ShareListItem = Omit<ShareJson, "url"> & {
  targetId: number;
  /** the run's, experiment's or link's name as its page titles it; null when it was deleted since */
  title: string | null;
  createdAt: string;
  createdBy: string;
  /** true once expiresAt has passed: the link answers 404 */
  isExpired: boolean;
};

export type SharedRun = {
  kind: "run";
  id: number;
  title: string;
  linkName: string;
  aName: string;
  bName: string;
  clientName: string;
  serverName: string;
  speedMbps: number;
  status: RunStatus;
  protocol: "tcp" | "udp";
  isBidir: boolean;
  direction: RunDirection;
  /** "TCP ×4 30s →" */
  optionsText: string;
  createdAt: string;
  endedAt: string | null;
  summary: RunSummaryJson | null;
  series: { points: SeriesPoint[]; streamCount: number; sampleCount: number };
  /** what went wrong, in a sentence (addresses and names hidden when the share hides them) */
  errorMessage: string | null;
};

export type SharedLinkRun = {
  id: number;
  createdAt: string;
  status: RunStatus;
  optionsText: string;
  receivedBitsPerSecond: number | null;
  lineRatePercent: number | null;
  retransmits: number | null;
};

export type SharedLink = {
  kind: "link";
  id: number;
  title: string;
  aName: string;
  bName: string;
  speedMbps: number;
  points: LinkHistoryPoint[];
  /** the newest runs, newest first */
  runs: SharedLinkRun[];
};

export type SharedExperiment = {
  kind: "experiment";
  id: number;
  title: string;
  kindTitle: string;
  status: ExperimentStatus;
  linkNames: string[];
  answer: string | null;
  /** the result table without its columns of run ids (they would lead to pages a visitor cannot open) */
  table: ResultTable | null;
  createdAt: string;
  endedAt: string | null;
  errorMessage: string | null;
};

export type SharedContent = SharedRun | SharedLink | SharedExperiment;

/** A share's page: what it shows and until when. */
export type SharedPage = { content: SharedContent; hideAddresses: boolean; expiresAt: string | null };
