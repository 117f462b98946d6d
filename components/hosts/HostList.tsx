import Link from "next/link";
import { formatPlatform } from "@/components/format";
import type { HostListItem } from "@/lib/queries/hosts";
import { HostStatusBadge, LastSeen } from "./HostStatus";
import { FOCUS_RING } from "@/components/ui/styles";

const TH = "px-4 py-2 font-semibold";

/** Every host with platform, iperf3, reachability, last seen and NIC count; the name opens the host. */
export function HostList({ hosts }: { hosts: HostListItem[] }) {
  return (
    <>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white sm:hidden dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label="Hosts">
        {hosts.map((host) => (
          <li key={host.id} className="px-4 py-3 text-sm">
            <div className="flex items-start justify-between gap-3">
              <Link href={`/hosts/${host.id}`} className={`min-w-0 rounded font-medium break-words text-sky-800 underline-offset-2 hover:underline dark:text-sky-300 ${FOCUS_RING}`}>
                {host.name}
              </Link>
              <HostStatusBadge host={host} />
            </div>
            <p className="mt-0.5 font-mono text-xs break-all text-slate-600 dark:text-slate-400">{host.isLocal ? "local" : `${host.username}@${host.address}:${host.port}`}</p>
            <p className="mt-1 text-slate-700 dark:text-slate-300">
              {formatPlatform(host.platform)} · iperf3 {host.iperf3Version ?? "–"} · {host.nicCount === 1 ? "1 NIC" : `${host.nicCount} NICs`} · seen <LastSeen date={host.lastSeenAt} />
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white sm:block dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Hosts</caption>
        <thead className="bg-slate-100 text-xs uppercase tracking-wide text-slate-700 dark:bg-slate-800 dark:text-slate-300">
          <tr>
            <th scope="col" className={TH}>Name</th>
            <th scope="col" className={`${TH} hidden lg:table-cell`}>Address</th>
            <th scope="col" className={TH}>Platform</th>
            <th scope="col" className={TH}>iperf3</th>
            <th scope="col" className={TH}>Status</th>
            <th scope="col" className={TH}>Last seen</th>
            <th scope="col" className={`${TH} text-right`}>NICs</th>
          </tr>
        </thead>
        <tbody>
          {hosts.map((host) => (
            <tr key={host.id} data-testid={`host-row-${host.id}`} className="border-t border-slate-200 align-top dark:border-slate-800">
              <th scope="row" className="px-4 py-2 font-medium">
                <Link href={`/hosts/${host.id}`} className={`rounded text-sky-800 underline-offset-2 hover:underline dark:text-sky-300 ${FOCUS_RING}`}>
                  {host.name}
                </Link>
                <div className="mt-0.5 font-mono text-xs font-normal break-all text-slate-600 lg:hidden dark:text-slate-400">
                  {host.isLocal ? "local" : host.address}
                </div>
              </th>
              <td className="hidden px-4 py-2 font-mono text-xs lg:table-cell">
                {host.isLocal ? "local" : `${host.username}@${host.address}:${host.port}`}
              </td>
              <td className="px-4 py-2">{formatPlatform(host.platform)}</td>
              <td className="px-4 py-2">{host.iperf3Version ?? <span className="text-slate-600 dark:text-slate-400">–</span>}</td>
              <td className="px-4 py-2">
                <HostStatusBadge host={host} />
              </td>
              <td className="px-4 py-2 whitespace-nowrap">
                <LastSeen date={host.lastSeenAt} />
              </td>
              <td className="px-4 py-2 text-right tabular-nums">{host.nicCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </>
  );
}
