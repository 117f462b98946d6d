"use client";

import type { ReactNode } from "react";
import { formatBytes, formatNumber, formatPercent, formatRate } from "@/lib/format";
import { useRateUnit } from "@/components/units/useRateUnit";
import type { PathCheck, PathVerdict } from "@/lib/runs/contract";
import { describePathCheck, PATH_VERDICT_LABELS } from "@/lib/runs/describe";
import type { RunSummaryJson } from "@/lib/runs/serialize";
import type { StreamStat } from "@/lib/runs/series-reads";
import { ColumnHeader, RUN_TABLE_HEAD } from "./ColumnHeader";

function Card({
  label,
  value,
  detail,
  testId,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
      {detail ? <dd className="text-xs text-slate-600 dark:text-slate-400">{detail}</dd> : null}
    </div>
  );
}

function shareTone(percent: number | null): string {
  if (percent == null) return "";
  if (percent < 70) return "text-red-700 dark:text-red-300";
  if (percent < 90) return "text-amber-700 dark:text-amber-300";
  return "text-emerald-700 dark:text-emerald-300";
}

const VERDICT_TONES: Record<PathVerdict, string> = {
  "on-link": "text-emerald-700 dark:text-emerald-300",
  unclear: "text-amber-700 dark:text-amber-300",
  "off-link": "text-red-700 dark:text-red-300",
  unknown: "text-slate-700 dark:text-slate-300",
};

/** iperf3 prints one decimal: keep it where it tells something (4.2 %), not on a busy core (87 %). */
function formatCpu(percent: number | null): string {
  return formatPercent(percent, percent != null && percent < 10 ? 1 : 0);
}

/**
 * The figures of a finished run as cards: sent, received, share of line rate (with the result
 * against the link's baseline for this test, when there is one), quality, CPU.
 */
export function RunSummaryCards({
  summary,
  protocol,
  clientHost,
  serverHost,
  againstBaseline = null,
  pathCheck = null,
}: {
  summary: RunSummaryJson;
  protocol: "tcp" | "udp";
  clientHost: string;
  serverHost: string;
  /** "−23% against the baseline of 940 Mbit/s" */
  againstBaseline?: string | null;
  /** where the bytes went (lib/runs/path-check.ts); null for a run that was not checked */
  pathCheck?: PathCheck | null;
}) {
  const [unit] = useRateUnit();
  const reverse = summary.reverse;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Summary">
      <Card
        label="Received"
        value={formatRate(summary.receivedBitsPerSecond, unit)}
        detail={formatBytes(summary.receivedBytes)}
        testId="summary-received"
      />
      <Card label="Sent" value={formatRate(summary.sentBitsPerSecond, unit)} detail={formatBytes(summary.sentBytes)} />
      <Card
        label="Line rate"
        value={<span className={shareTone(summary.lineRatePercent)}>{formatPercent(summary.lineRatePercent)}</span>}
        detail={
          <>
            received ÷ nominal speed
            {againstBaseline ? (
              <span
                className="mt-0.5 block font-medium text-slate-800 dark:text-slate-200"
                data-testid="summary-baseline"
              >
                {againstBaseline}
              </span>
            ) : null}
          </>
        }
        testId="summary-line-rate"
      />
      {pathCheck ? (
        <Card
          label="Path"
          value={<span className={VERDICT_TONES[pathCheck.verdict]}>{PATH_VERDICT_LABELS[pathCheck.verdict]}</span>}
          detail={describePathCheck(pathCheck, { client: clientHost, server: serverHost })}
          testId="summary-path"
        />
      ) : null}
      {protocol === "tcp" ? (
        <Card label="Retransmits" value={summary.retransmits ?? "–"} detail="TCP segments sent again" />
      ) : (
        <>
          <Card label="Jitter" value={summary.jitterMs == null ? "–" : `${formatNumber(summary.jitterMs)} ms`} />
          <Card
            label="Loss"
            value={formatPercent(summary.lostPercent, 2)}
            detail={
              summary.lostPackets == null ? undefined : `${summary.lostPackets} of ${summary.packets ?? "?"} datagrams`
            }
          />
        </>
      )}
      <Card
        label="CPU"
        value={
          summary.clientCpuPercent == null && summary.serverCpuPercent == null
            ? "–"
            : `${formatCpu(summary.clientCpuPercent)} / ${formatCpu(summary.serverCpuPercent)}`
        }
        detail={
          summary.clientCpuPercent == null && summary.serverCpuPercent == null
            ? "not reported by iperf3"
            : `iperf3 on ${clientHost} (client) / ${serverHost} (server), % of one core`
        }
        testId="summary-cpu"
      />
      {reverse ? (
        <Card
          label="Reverse received"
          value={formatRate(reverse.receivedBitsPerSecond, unit)}
          detail={`${formatPercent(reverse.lineRatePercent)} of line rate · ${reverse.retransmits ?? "–"} retransmits`}
        />
      ) : null}
    </dl>
  );
}

export type StreamRow = StreamStat;

/** One row per stream, like a per-channel table: its share, its retransmits or its losses. */
export function StreamTable({ streams, protocol }: { streams: StreamRow[]; protocol: "tcp" | "udp" }) {
  const [unit] = useRateUnit();
  const total = streams.reduce((sum, stream) => sum + stream.bitsPerSecond, 0);
  const hasReverse = streams.some((stream) => stream.direction === "reverse");
  return (
    <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Per-stream results</caption>
        <thead className={RUN_TABLE_HEAD}>
          <tr>
            <ColumnHeader>Stream</ColumnHeader>
            {hasReverse ? <ColumnHeader>Direction</ColumnHeader> : null}
            <ColumnHeader isNumeric>Transferred</ColumnHeader>
            <ColumnHeader isNumeric>Average</ColumnHeader>
            <ColumnHeader isNumeric>Share</ColumnHeader>
            {protocol === "tcp" ? (
              <>
                <ColumnHeader isNumeric>Retransmits</ColumnHeader>
                <ColumnHeader isNumeric>Last cwnd</ColumnHeader>
              </>
            ) : (
              <>
                <ColumnHeader isNumeric>Jitter</ColumnHeader>
                <ColumnHeader isNumeric>Lost</ColumnHeader>
              </>
            )}
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {streams.map((stream, index) => (
            <tr key={`${stream.direction}:${stream.id}`} className="border-t border-slate-200 dark:border-slate-800">
              <th scope="row" className="whitespace-nowrap px-3 py-1.5 font-medium">
                {index + 1}{" "}
                <span className="text-xs font-normal text-slate-500 dark:text-slate-400">[{stream.id}]</span>
              </th>
              {hasReverse ? <td className="px-3 py-1.5">{stream.direction}</td> : null}
              <td className="whitespace-nowrap px-3 py-1.5 text-right">{formatBytes(stream.bytes)}</td>
              <td className="whitespace-nowrap px-3 py-1.5 text-right">{formatRate(stream.bitsPerSecond, unit)}</td>
              <td className="whitespace-nowrap px-3 py-1.5 text-right">
                {total > 0 ? formatPercent((stream.bitsPerSecond / total) * 100) : "–"}
              </td>
              {protocol === "tcp" ? (
                <>
                  <td className="px-3 py-1.5 text-right">{stream.retransmits ?? "–"}</td>
                  <td className="whitespace-nowrap px-3 py-1.5 text-right">{formatBytes(stream.cwndBytes)}</td>
                </>
              ) : (
                <>
                  <td className="whitespace-nowrap px-3 py-1.5 text-right">
                    {stream.jitterMs == null ? "–" : `${formatNumber(stream.jitterMs)} ms`}
                  </td>
                  <td className="whitespace-nowrap px-3 py-1.5 text-right">
                    {stream.lostPackets == null ? "–" : `${stream.lostPackets} / ${stream.packets ?? "?"}`}
                  </td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
