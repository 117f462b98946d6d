import Link from "next/link";
import { platformLabel } from "@/lib/platforms";
import { TEXT_LINK } from "@/components/ui/styles";
import { TableOrCards } from "@/components/ui/TableOrCards";
import type { HostView } from "@/lib/inventory/hosts";
import { HostStatusBadge, LastSeen } from "./HostStatus";
import { TagList } from "./TagList";
import { accessLabel, sshTarget } from "./fields";

const COLUMNS = [
  { header: "Name" },
  { header: "Address", className: "hidden lg:table-cell" },
  { header: "Access" },
  { header: "Platform" },
  { header: "iperf3" },
  { header: "Status" },
  { header: "Last seen" },
  { header: "NICs", className: "text-right" },
];

/** "via gamma", "via bastion → gamma": the jump hosts SSH goes through, the first hop first. */
function viaText(host: HostView): string | null {
  return host.jumpChain.length > 0 ? `via ${host.jumpChain.map((hop) => hop.name).join(" → ")}` : null;
}

/** The host's access, and the jump hosts it is reached through. */
function AccessCell({ host }: { host: HostView }) {
  const via = viaText(host);
  return (
    <>
      <span data-testid="host-access">{accessLabel(host)}</span>
      {via ? (
        <span className="block text-xs text-slate-600 dark:text-slate-400" data-testid="host-via">
          {via}
        </span>
      ) : null}
    </>
  );
}

/** Platform and iperf3 are detected only on a host Wirespeed logs in to. */
const isDetected = (host: HostView) => host.access === "ssh";

function HostCard({ host }: { host: HostView }) {
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <Link href={`/hosts/${host.id}`} className={`min-w-0 font-medium break-words ${TEXT_LINK}`}>
          {host.name}
        </Link>
        <HostStatusBadge host={host} />
      </div>
      {host.tags.length > 0 ? (
        <div className="mt-1">
          <TagList tags={host.tags} />
        </div>
      ) : null}
      <p className="mt-0.5 font-mono text-xs break-all text-slate-600 dark:text-slate-400">{sshTarget(host)}</p>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        {accessLabel(host)}
        {viaText(host) ? ` ${viaText(host)}` : ""} ·{" "}
        {isDetected(host) ? (
          <>
            {platformLabel(host.platform)} · iperf3 {host.iperf3Version ?? "–"} ·{" "}
          </>
        ) : null}
        {host.nicCount === 1 ? "1 NIC" : `${host.nicCount} NICs`}
        {isDetected(host) ? (
          <>
            {" "}
            · seen <LastSeen date={host.lastSeenAt} />
          </>
        ) : null}
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
          {host.isLocal ? "local" : host.address || "no address"}
        </div>
        {host.tags.length > 0 ? (
          <div className="mt-1" data-testid="host-tags">
            <TagList tags={host.tags} />
          </div>
        ) : null}
      </th>
      <td className="hidden px-4 py-2 font-mono text-xs lg:table-cell">{sshTarget(host)}</td>
      <td className="px-4 py-2">
        <AccessCell host={host} />
      </td>
      <td className="px-4 py-2">{isDetected(host) ? platformLabel(host.platform) : <NotApplicable />}</td>
      <td className="px-4 py-2">{(isDetected(host) && host.iperf3Version) || <NotApplicable />}</td>
      <td className="px-4 py-2">
        <HostStatusBadge host={host} />
      </td>
      <td className="px-4 py-2 whitespace-nowrap">
        {isDetected(host) ? <LastSeen date={host.lastSeenAt} /> : <NotApplicable />}
      </td>
      <td className="px-4 py-2 text-right tabular-nums">{host.nicCount}</td>
    </>
  );
}

function NotApplicable() {
  return <span className="text-slate-600 dark:text-slate-400">–</span>;
}

/** Every host with its access (and jump hosts), platform, iperf3, reachability, last seen and NIC count; the name opens the host. */
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
