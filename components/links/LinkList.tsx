"use client";

import Link from "next/link";
import { useState } from "react";
import { newExperimentHref } from "@/components/experiments/form/prefill";
import { formatLinkSpeedCompact } from "@/lib/format";
import { buttonClass, FOCUS_RING, TEXT_LINK } from "@/components/ui/styles";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { PORTS_AT_ONCE_PRESET_ID } from "@/lib/experiments/presets";
import type { LinkView } from "@/lib/inventory/links";

function LinkEnd({ end }: { end: LinkView["a"] }) {
  return (
    <>
      <span className="font-medium">{end.host.name}</span> <span className="font-mono text-xs">{end.nic.name}</span>
      <span className="block font-mono text-xs text-slate-600 dark:text-slate-400">
        {end.nic.address ?? "no address"}
        {end.nic.mtu !== null ? ` · MTU ${end.nic.mtu}` : ""}
      </span>
    </>
  );
}

/** MTUs differ: jumbo frames from one end are fragmented or dropped at the other. */
export function MtuMismatchBadge({ a, b }: { a: number | null; b: number | null }) {
  return (
    <span
      className={
        "inline-flex items-center whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs " +
        "font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100"
      }
      title={`MTU ${a} on one end, ${b} on the other: large frames get fragmented or dropped`}
      data-testid="mtu-mismatch"
    >
      MTU mismatch {a}/{b}
    </span>
  );
}

const COLUMNS = [
  { header: "Name" },
  { header: "A end" },
  { header: "B end" },
  { header: "Speed", className: "text-right" },
  { header: "Runs", className: "text-right" },
];
const SELECT_COLUMN = { header: <span className="sr-only">Select</span>, className: "w-10" };

type Selection = { isSelected: (id: number) => boolean; toggle: (id: number) => void };

function SelectBox({ link, selection }: { link: LinkView; selection: Selection }) {
  return (
    <input
      type="checkbox"
      aria-label={`Select ${link.name}`}
      checked={selection.isSelected(link.id)}
      onChange={() => selection.toggle(link.id)}
      className="h-4 w-4 shrink-0 accent-sky-600"
    />
  );
}

function LinkCard({ link, selection }: { link: LinkView; selection: Selection | null }) {
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <span className="flex min-w-0 items-center gap-2">
          {selection ? <SelectBox link={link} selection={selection} /> : null}
          <Link href={`/links/${link.id}`} className={`min-w-0 font-medium break-words ${TEXT_LINK}`}>
            {link.name}
          </Link>
        </span>
        <span className="whitespace-nowrap text-slate-700 dark:text-slate-300">
          {formatLinkSpeedCompact(link.speedMbps)} · {link.runCount === 1 ? "1 run" : `${link.runCount} runs`}
        </span>
      </div>
      {link.mtuMismatch ? (
        <div className="mt-1">
          <MtuMismatchBadge a={link.a.nic.mtu} b={link.b.nic.mtu} />
        </div>
      ) : null}
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-slate-600 dark:text-slate-400">A</dt>
        <dd className="min-w-0">
          <LinkEnd end={link.a} />
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">B</dt>
        <dd className="min-w-0">
          <LinkEnd end={link.b} />
        </dd>
      </dl>
    </>
  );
}

function LinkCells({ link, selection }: { link: LinkView; selection: Selection | null }) {
  return (
    <>
      {selection ? (
        <td className="px-4 py-2">
          <SelectBox link={link} selection={selection} />
        </td>
      ) : null}
      <th scope="row" className="px-4 py-2 font-medium">
        <Link href={`/links/${link.id}`} className={TEXT_LINK}>
          {link.name}
        </Link>
        {link.mtuMismatch ? (
          <div className="mt-1">
            <MtuMismatchBadge a={link.a.nic.mtu} b={link.b.nic.mtu} />
          </div>
        ) : null}
      </th>
      <td className="px-4 py-2 whitespace-nowrap">
        <LinkEnd end={link.a} />
      </td>
      <td className="px-4 py-2 whitespace-nowrap">
        <LinkEnd end={link.b} />
      </td>
      <td className="px-4 py-2 text-right tabular-nums">{formatLinkSpeedCompact(link.speedMbps)}</td>
      <td className="px-4 py-2 text-right tabular-nums">{link.runCount}</td>
    </>
  );
}

/** Select two or more links, then open the New experiment form that runs them at the same time. */
function RunTogetherBar({ linkIds, onClear }: { linkIds: number[]; onClear: () => void }) {
  const count = linkIds.length;
  return (
    <div className="mb-3 flex flex-wrap items-center gap-3 text-sm" data-testid="run-together">
      {count >= 2 ? (
        <Link
          href={newExperimentHref({ presetId: PORTS_AT_ONCE_PRESET_ID, linkIds })}
          className={buttonClass("primary")}
        >
          Run together ({count} links)
        </Link>
      ) : (
        <button type="button" disabled className={buttonClass("primary")}>
          Run together
        </button>
      )}
      <span className="text-slate-600 dark:text-slate-400">
        {count >= 2
          ? "Each link alone first, then all of them at the same time."
          : "Select two or more links to measure them at the same time."}
      </span>
      {count > 0 ? (
        <button
          type="button"
          onClick={onClear}
          className={`rounded text-slate-600 underline hover:text-slate-900 dark:text-slate-400 dark:hover:text-white ${FOCUS_RING}`}
        >
          Clear selection
        </button>
      ) : null}
    </div>
  );
}

/**
 * Every link with both ends, nominal speed, MTU mismatch and run count; the name opens the link page.
 * With `canRunTogether` (a role that starts tests), links can be selected to run at the same time.
 */
export function LinkList({ links, canRunTogether = false }: { links: LinkView[]; canRunTogether?: boolean }) {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const selection: Selection | null = canRunTogether
    ? {
        isSelected: (id) => selected.has(id),
        toggle: (id) =>
          setSelected((previous) => {
            const next = new Set(previous);
            if (!next.delete(id)) next.add(id);
            return next;
          }),
      }
    : null;
  // In the list's order, whatever order they were ticked in.
  const selectedIds = links.filter((link) => selected.has(link.id)).map((link) => link.id);
  return (
    <>
      {selection ? <RunTogetherBar linkIds={selectedIds} onClear={() => setSelected(new Set())} /> : null}
      <TableOrCards
        items={links}
        label="Links"
        columns={selection ? [SELECT_COLUMN, ...COLUMNS] : COLUMNS}
        keyOf={(link) => link.id}
        row={(link) => <LinkCells link={link} selection={selection} />}
        rowTestId={(link) => `link-row-${link.id}`}
        card={(link) => <LinkCard link={link} selection={selection} />}
        breakpoint="md"
      />
    </>
  );
}
