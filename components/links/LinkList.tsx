import Link from "next/link";
import { formatLinkSpeed } from "@/components/format";
import { FOCUS_RING } from "@/components/ui/styles";
import { TableOrCards } from "@/components/ui/TableOrCards";
import type { LinkListItem } from "@/lib/queries/links";

function LinkEnd({ end }: { end: LinkListItem["a"] }) {
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
      className="inline-flex items-center whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100"
      title={`MTU ${a} on one end, ${b} on the other: large frames get fragmented or dropped`}
      data-testid="mtu-mismatch"
    >
      MTU mismatch {a}/{b}
    </span>
  );
}

const COLUMNS = [{ header: "Name" }, { header: "A end" }, { header: "B end" }, { header: "Speed", className: "text-right" }, { header: "Runs", className: "text-right" }];

function LinkCard({ link }: { link: LinkListItem }) {
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <Link href={`/links/${link.id}`} className={`min-w-0 rounded font-medium break-words text-sky-800 underline-offset-2 hover:underline dark:text-sky-300 ${FOCUS_RING}`}>
          {link.name}
        </Link>
        <span className="whitespace-nowrap text-slate-700 dark:text-slate-300">
          {formatLinkSpeed(link.speedMbps)} · {link.runCount === 1 ? "1 run" : `${link.runCount} runs`}
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

function LinkCells({ link }: { link: LinkListItem }) {
  return (
    <>
      <th scope="row" className="px-4 py-2 font-medium">
        <Link href={`/links/${link.id}`} className={`rounded text-sky-800 underline-offset-2 hover:underline dark:text-sky-300 ${FOCUS_RING}`}>
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
      <td className="px-4 py-2 text-right tabular-nums">{formatLinkSpeed(link.speedMbps)}</td>
      <td className="px-4 py-2 text-right tabular-nums">{link.runCount}</td>
    </>
  );
}

/** Every link with both ends, nominal speed, MTU mismatch and run count; the name opens the link page. */
export function LinkList({ links }: { links: LinkListItem[] }) {
  return (
    <TableOrCards
      items={links}
      label="Links"
      columns={COLUMNS}
      keyOf={(link) => link.id}
      row={(link) => <LinkCells link={link} />}
      rowTestId={(link) => `link-row-${link.id}`}
      card={(link) => <LinkCard link={link} />}
      breakpoint="md"
    />
  );
}
