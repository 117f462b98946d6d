// The one JSON shape of a run, shared by the REST API, the SSE stream and pages.
import type { Run } from "@/lib/generated/prisma/client";

import { parseStoredPathCheck, type RunStatus } from "./contract";

/** Received rate as a share of the link's nominal rate, rounded to 0.1 %. */
export function lineRatePercent(bitsPerSecond: number | null, speedMbps: number): number | null {
  if (bitsPerSecond == null || speedMbps <= 0) return null;
  return Math.round((bitsPerSecond / (speedMbps * 1e6)) * 1000) / 10;
}

export type RunSummaryJson = {
  sentBitsPerSecond: number | null;
  receivedBitsPerSecond: number | null;
  sentBytes: number | null;
  receivedBytes: number | null;
  retransmits: number | null;
  jitterMs: number | null;
  lostPackets: number | null;
  packets: number | null;
  lostPercent: number | null;
  lineRatePercent: number | null;
  /** iperf3's CPU use, % of one core, on the host that ran the client and on the server's; null where iperf3 gave none */
  clientCpuPercent: number | null;
  serverCpuPercent: number | null;
  reverse: {
    sentBitsPerSecond: number | null;
    receivedBitsPerSecond: number | null;
    sentBytes: number | null;
    receivedBytes: number | null;
    retransmits: number | null;
    lineRatePercent: number | null;
  } | null;
};

export function runSummaryJson(run: Run, linkSpeedMbps: number): RunSummaryJson | null {
  if (run.receivedBitsPerSecond == null && run.sentBitsPerSecond == null) return null;
  const hasReverse = run.reverseReceivedBitsPerSecond != null || run.reverseSentBitsPerSecond != null;
  return {
    sentBitsPerSecond: run.sentBitsPerSecond,
    receivedBitsPerSecond: run.receivedBitsPerSecond,
    sentBytes: run.sentBytes,
    receivedBytes: run.receivedBytes,
    retransmits: run.retransmits,
    jitterMs: run.jitterMs,
    lostPackets: run.lostPackets,
    packets: run.packets,
    lostPercent: run.lostPercent,
    lineRatePercent: lineRatePercent(run.receivedBitsPerSecond, linkSpeedMbps),
    clientCpuPercent: run.clientCpuPercent,
    serverCpuPercent: run.serverCpuPercent,
    reverse: hasReverse
      ? {
          sentBitsPerSecond: run.reverseSentBitsPerSecond,
          receivedBitsPerSecond: run.reverseReceivedBitsPerSecond,
          sentBytes: run.reverseSentBytes,
          receivedBytes: run.reverseReceivedBytes,
          retransmits: run.reverseRetransmits,
          lineRatePercent: lineRatePercent(run.reverseReceivedBitsPerSecond, linkSpeedMbps),
        }
      : null,
  };
}

/** `iperf3 -c ADDRESS -p PORT`, the command a device runs to reach a listening run (IPv6 as it is: iperf3 takes it bare). */
export function listenCommand(address: string, port: number): string {
  return `iperf3 -c ${address} -p ${port}`;
}

function listenJson(run: Pick<Run, "listenAddress" | "listenPort" | "listenExpiresAt">) {
  if (run.listenAddress === null || run.listenPort === null || run.listenExpiresAt === null) return null;
  return {
    address: run.listenAddress,
    port: run.listenPort,
    command: listenCommand(run.listenAddress, run.listenPort),
    expiresAt: run.listenExpiresAt.toISOString(),
  };
}

/** A run's labels as a read includes them (`labels: RUN_LABELS`), lowest first; a read without them gives []. */
export const RUN_LABELS = { select: { label: true }, orderBy: { label: "asc" } } as const;

export function runJson(
  run: Run & { labels?: { label: string }[] },
  link: { id: number; name: string; speedMbps: number },
) {
  return {
    id: run.id,
    linkId: link.id,
    linkName: link.name,
    experimentId: run.experimentId,
    channel: run.channel,
    port: run.port,
    status: run.status as RunStatus,
    /** "wirespeed", or "imported" for a run read from an iperf3 output a user brought (lib/imports) */
    source: run.source === "imported" ? ("imported" as const) : ("wirespeed" as const),
    /** the name an imported run came under (its file's name); null for a run Wirespeed made */
    importName: run.importName,
    /** the instance (WIRESPEED_INSTANCE, or its host name) that runs or ran it; null for an imported run or one from before instances */
    instance: run.instance,
    clientSide: run.clientSide,
    options: run.options,
    commands: { server: run.serverCommand, client: run.clientCommand },
    versions: { server: run.serverIperfVersion, client: run.clientIperfVersion },
    createdAt: run.createdAt.toISOString(),
    startedAt: run.startedAt?.toISOString() ?? null,
    endedAt: run.endedAt?.toISOString() ?? null,
    summary: runSummaryJson(run, link.speedMbps),
    /** A device's run: where Wirespeed listens for it, the command to type there, and until when (null otherwise). */
    listen: listenJson(run),
    /** The address a device connected from (a listening run), null until it connected. */
    peerAddress: run.peerAddress,
    /** A run against an iperf3 server Wirespeed does not manage: how many tries found it free (null otherwise). */
    serverTries: run.serverTries,
    /** Where the bytes went: each end's NIC counters' rise during the test against what iperf3 sent, and the verdict (null: not checked). */
    pathCheck: parseStoredPathCheck(run.pathCheck),
    error: run.errorKind ? { kind: run.errorKind, message: run.errorMessage ?? "", hint: run.errorHint ?? "" } : null,
    /** What a user wrote down about it, and its labels (lib/notes). */
    note: run.note,
    labels: run.labels?.map(({ label }) => label) ?? [],
  };
}
export type RunJson = ReturnType<typeof runJson>;
