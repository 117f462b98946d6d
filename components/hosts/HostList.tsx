import Link from "next/link";
import { platformLabel } from "@/lib/platforms";
import { TEXT_LINK } from "@/components/ui/styles";
import { TableOrCards } from "@/components/ui/TableOrCards";
import type { HostView } from "@/lib/inventory/hosts";
import { HostStatusBadge, LastSeen } from "./HostStatus";
import { sshTarget } from "./fields";

const COLUMNS = [
  { header: "Name" },
  { header: "Address", className: "hidden lg:table-cell" },
  { header: "Platform" },
  { header: "iperf3" },
  { header: "Status" },
  { header: "Last seen" },
  { header: "NICs", className: "text-right" },
];

function HostCard({ host }: { host: HostView }) {
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <Link href={`/hosts/${host.id}`} className={`min-w-0 font-medium break-words ${TEXT_LINK}`}>
          {host.name}
        </Link>
        <HostStatusBadge host={host} />
      </div>
      <p className="mt-0.5 font-mono text-xs break-all text-slate-600 dark:text-slate-400">{sshTarget(host)}</p>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        {platformLabel(host.platform)} · iperf3 {host.iperf3Version ?? "–"} ·{" "}
        {host.nicCount === 1 ? "1 NIC" : `${host.nicCount} NICs`} · seen <LastSeen date={host.lastSeenAt} />
      </p>
    </>
  );
}

function HostCells({ host }: { host: HostView }) {
  return (
    <>
      <th scope="row" className="px-4 py-2 font-medium">
        <Link href={`/hosts/${host.id}`} className={TEXT_LINK}>
          {host.name}
        </Link>
        <div className="mt-0.5 font-mono text-xs font-normal break-all text-slate-600 lg:hidden dark:text-slate-400">
          {host.isLocal ? "local" : host.address}
        </div>
      </th>
      <td className="hidden px-4 py-2 font-mono text-xs lg:table-cell">{sshTarget(host)}</td>
      <td className="px-4 py-2">{platformLabel(host.platform)}</td>
      <td className="px-4 py-2">
        {host.iperf3Version ?? <span className="text-slate-600 dark:text-slate-400">–</span>}
      </td>
      <td className="px-4 py-2">
        <HostStatusBadge host={host} />
      </td>
      <td className="px-4 py-2 whitespace-nowrap">
        <LastSeen date={host.lastSeenAt} />
      </td>
      <td className="px-4 py-2 text-right tabular-nums">{host.nicCount}</td>
    </>
  );
}

/** Every host with platform, iperf3, reachability, last seen and NIC count; the name opens the host. */
export function HostList({ hosts }: { hosts: HostView[] }) {
  return (
    <TableOrCards
      items={hosts}
      label="Hosts"
      columns={COLUMNS}
      keyOf={(host) => host.id}
      row={(host) => <HostCells host={host} />}
      rowTestId={(host) => `host-row-${host.id}`}
      card={(host) => <HostCard host={host} />}
    />
  );
}
