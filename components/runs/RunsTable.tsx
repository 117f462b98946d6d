"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { LocalTime } from "@/components/units/LocalTime";
import { formatPercent, formatRate } from "@/lib/format";
import { useRateUnit } from "@/components/units/useRateUnit";
import { lineRateLevel } from "@/components/overview/LineRateBar";
import type { LineRateThresholds } from "@/lib/overview/reads";
import type { RunRow } from "@/lib/runs/lists";
import { isActiveStatus } from "@/lib/runs/contract";
import { describeOptions } from "@/lib/runs/describe";
import { NoteLine } from "@/components/notes/NoteLine";
import { ColumnHeader, RUN_TABLE_HEAD } from "./ColumnHeader";
import { RerunButton } from "./RerunButton";
import { ImportedTag, OffLinkTag, StatusBadge } from "./StatusBadge";

/** What a row shows: the table takes a run row of lib/runs/lists.ts as it is. */
export type RunsTableRow = Pick<
  RunRow,
  | "id"
  | "linkId"
  | "linkName"
  | "status"
  | "source"
  | "createdAt"
  | "options"
  | "direction"
  | "receivedBitsPerSecond"
  | "reverseReceivedBitsPerSecond"
  | "lineRatePercent"
  | "retransmits"
  | "jitterMs"
  | "lostPercent"
  | "errorKind"
  | "queuePosition"
> &
  Partial<Pick<RunRow, "pathVerdict">> &
  Partial<Pick<RunRow, "device">> &
  Partial<Pick<RunRow, "note" | "labels">>;

const SHARE_CLASSES = {
  good: "",
  warn: "text-amber-700 dark:text-amber-300",
  bad: "text-red-700 dark:text-red-300",
} as const;

// The overview's thresholds (WIRESPEED_WARN_PERCENT / WIRESPEED_BAD_PERCENT), so a share reads the same everywhere.
function shareClass(percent: number | null, thresholds: LineRateThresholds): string {
  return percent == null ? "" : SHARE_CLASSES[lineRateLevel(percent, thresholds)];
}

/** The run's number, opening its page. */
function RunLink({ runId }: { runId: number }) {
  return (
    <Link href={`/runs/${runId}`} className="font-medium text-sky-700 hover:underline dark:text-sky-300">
      #{runId}
    </Link>
  );
}

/** The box that selects a run to compare. */
function CompareBox({
  runId,
  isSelected,
  onToggle,
}: {
  runId: number;
  isSelected: boolean;
  onToggle: (runId: number) => void;
}) {
  return (
    <input
      type="checkbox"
      aria-label={`Select run #${runId} to compare`}
      checked={isSelected}
      onChange={() => onToggle(runId)}
      className="h-4 w-4 accent-sky-600"
    />
  );
}

/**
 * A page of runs: time, options in short form, result, share of line rate, retransmits,
 * status, and Run again. With `compareBaseHref` (the page with its filters), rows can be selected to compare.
 */
export function RunsTable({
  rows,
  thresholds,
  showLink = false,
  compareBaseHref,
}: {
  rows: RunsTableRow[];
  thresholds: LineRateThresholds;
  showLink?: boolean;
  compareBaseHref?: string;
}) {
  const router = useRouter();
  const [unit] = useRateUnit();
  const [selected, setSelected] = useState<number[]>([]);
  const canCompare = compareBaseHref !== undefined;
  const compareHref = (ids: number[]) =>
    `${compareBaseHref}${compareBaseHref?.includes("?") ? "&" : "?"}compare=${ids.join(",")}#compare`;
  // A device (a phone, a TV …) gets a column of its own where the page has runs of one.
  const showDevice = rows.some((row) => row.device);
  const toggle = (id: number) =>
    setSelected((previous) => (previous.includes(id) ? previous.filter((entry) => entry !== id) : [...previous, id]));
  return (
    <div>
      {canCompare ? (
        <div className="mb-2 flex flex-wrap items-center gap-3 text-sm">
          <button
            type="button"
            disabled={selected.length < 2}
            onClick={() => router.push(compareHref([...selected].sort((a, b) => a - b)))}
            className={
              "rounded-md bg-slate-900 px-3 py-1.5 font-medium text-white hover:bg-slate-700 " +
              "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 " +
              "disabled:cursor-not-allowed disabled:opacity-40 dark:bg-slate-100 dark:text-slate-900 " +
              "dark:hover:bg-white"
            }
          >
            Compare{selected.length ? ` ${selected.length} runs` : ""}
          </button>
          <span className="text-slate-600 dark:text-slate-400">
            {selected.length < 2 ? "Select two or more runs to compare them." : ""}
          </span>
          {selected.length ? (
            <button
              type="button"
              className="text-slate-600 underline hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
              onClick={() => setSelected([])}
            >
              Clear selection
            </button>
          ) : null}
        </div>
      ) : null}
      {/* Phones: one card per run, since nine columns would leave only the first two in view. */}
      <ul
        className={
          "divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white sm:hidden " +
          "dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900"
        }
      >
        {rows.map((row) => (
          <li
            key={row.id}
            data-testid={`run-card-${row.id}`}
            className={`space-y-1.5 px-3 py-2.5 text-sm ${selected.includes(row.id) ? "bg-sky-50 dark:bg-sky-950/50" : ""}`}
          >
            <div className="flex items-center justify-between gap-2">
              <span className="flex items-center gap-2">
                {canCompare ? (
                  <CompareBox runId={row.id} isSelected={selected.includes(row.id)} onToggle={toggle} />
                ) : null}
                <RunLink runId={row.id} />
                <span className="text-xs text-slate-600 dark:text-slate-400">
                  <LocalTime iso={row.createdAt} isRelativeOnly />
                </span>
              </span>
              <span>
                <StatusBadge status={row.status} queuePosition={row.queuePosition} />
                {row.source === "imported" ? <ImportedTag /> : null}
                {row.pathVerdict === "off-link" ? <OffLinkTag /> : null}
              </span>
            </div>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 tabular-nums">
              <span className="font-mono text-xs">
                {describeOptions(row.options, row.direction)}
                <NoteLine note={row.note} labels={row.labels} />
              </span>
              {showLink ? <span className="text-xs">{row.linkName}</span> : null}
              {row.device ? <DeviceName device={row.device} /> : null}
              <span>
                <span className="font-medium">{formatRate(row.receivedBitsPerSecond, unit)}</span>
                <span className={`ml-2 text-xs ${shareClass(row.lineRatePercent, thresholds)}`}>
                  {formatPercent(row.lineRatePercent)}
                </span>
              </span>
            </div>
            {isActiveStatus(row.status) ? null : (
              <div className="flex items-center justify-between gap-2 text-xs text-slate-600 dark:text-slate-400">
                <span>
                  {row.options.protocol === "udp"
                    ? `loss ${formatPercent(row.lostPercent, 2)}`
                    : `retransmits ${row.retransmits ?? "–"}`}
                </span>
                <RerunButton runId={row.id} />
              </div>
            )}
          </li>
        ))}
      </ul>
      <div className="relative hidden overflow-x-auto rounded-lg border border-slate-200 bg-white sm:block dark:border-slate-800 dark:bg-slate-900">
        <table className="w-full text-left text-sm">
          <thead className={RUN_TABLE_HEAD}>
            <tr>
              {canCompare ? (
                <th scope="col" className="w-8 px-3 py-2">
                  <span className="sr-only">Select</span>
                </th>
              ) : null}
              <ColumnHeader>Run</ColumnHeader>
              <ColumnHeader>Time</ColumnHeader>
              {showLink ? <ColumnHeader>Link</ColumnHeader> : null}
              {showDevice ? <ColumnHeader>Device</ColumnHeader> : null}
              <ColumnHeader>Options</ColumnHeader>
              <ColumnHeader isNumeric>Result</ColumnHeader>
              <ColumnHeader isNumeric>Line rate</ColumnHeader>
              <ColumnHeader isNumeric>Retr.</ColumnHeader>
              <ColumnHeader>Status</ColumnHeader>
              <ColumnHeader>
                <span className="sr-only">Actions</span>
              </ColumnHeader>
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {rows.map((row) => (
              <tr
                key={row.id}
                data-testid={`run-row-${row.id}`}
                className={`border-t border-slate-200 dark:border-slate-800 ${selected.includes(row.id) ? "bg-sky-50 dark:bg-sky-950/50" : ""}`}
              >
                {canCompare ? (
                  <td className="px-3 py-1.5">
                    <CompareBox runId={row.id} isSelected={selected.includes(row.id)} onToggle={toggle} />
                  </td>
                ) : null}
                <td className="whitespace-nowrap px-3 py-1.5">
                  <RunLink runId={row.id} />
                </td>
                <td className="whitespace-nowrap px-3 py-1.5 text-slate-700 dark:text-slate-300">
                  <LocalTime iso={row.createdAt} />
                </td>
                {showLink ? (
                  <td className="whitespace-nowrap px-3 py-1.5">
                    <Link href={`/links/${row.linkId}`} className="hover:underline">
                      {row.linkName}
                    </Link>
                  </td>
                ) : null}
                {showDevice ? (
                  <td className="whitespace-nowrap px-3 py-1.5">
                    {row.device ? <DeviceName device={row.device} /> : "–"}
                  </td>
                ) : null}
                <td className="whitespace-nowrap px-3 py-1.5 font-mono text-xs">
                  {describeOptions({ ...row.options, bytes: row.options.bytes }, row.direction)}
                  <NoteLine note={row.note} labels={row.labels} />
                </td>
                <td className="whitespace-nowrap px-3 py-1.5 text-right font-medium">
                  {formatRate(row.receivedBitsPerSecond, unit)}
                  {row.reverseReceivedBitsPerSecond != null ? (
                    <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">
                      ⇄ {formatRate(row.reverseReceivedBitsPerSecond, unit)}
                    </span>
                  ) : null}
                </td>
                <td
                  className={`whitespace-nowrap px-3 py-1.5 text-right ${shareClass(row.lineRatePercent, thresholds)}`}
                >
                  {formatPercent(row.lineRatePercent)}
                </td>
                <td className="px-3 py-1.5 text-right">
                  {row.options.protocol === "udp" ? (
                    row.lostPercent == null ? (
                      "–"
                    ) : (
                      <span title="UDP loss">{formatPercent(row.lostPercent, 2)} lost</span>
                    )
                  ) : (
                    (row.retransmits ?? "–")
                  )}
                </td>
                <td className="whitespace-nowrap px-3 py-1.5">
                  <StatusBadge status={row.status} queuePosition={row.queuePosition} />
                  {row.source === "imported" ? <ImportedTag /> : null}
                  {row.pathVerdict === "off-link" ? <OffLinkTag /> : null}
                  {row.errorKind && row.status !== "cancelled" ? (
                    <span className="ml-1 font-mono text-xs text-red-700 dark:text-red-300">{row.errorKind}</span>
                  ) : null}
                </td>
                <td className="px-3 py-1.5 text-right">
                  {isActiveStatus(row.status) ? null : <RerunButton runId={row.id} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** A device's name, linked to its page, with its kind in words. */
function DeviceName({ device }: { device: NonNullable<RunRow["device"]> }) {
  return (
    <Link href={`/hosts/${device.id}`} className="text-xs hover:underline">
      {device.name} <span className="text-slate-600 dark:text-slate-400">({device.kind})</span>
    </Link>
  );
}
