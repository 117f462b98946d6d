import type { HostListItem } from "@/lib/queries/hosts";
import { formatPlatform } from "./format";

/** Hosts as a table; "this machine" is marked so users see where local runs happen. */
export function HostTable({ hosts }: { hosts: HostListItem[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-100 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-4 py-2">Name</th>
            <th scope="col" className="px-4 py-2">Address</th>
            <th scope="col" className="px-4 py-2">Platform</th>
            <th scope="col" className="px-4 py-2">iperf3</th>
            <th scope="col" className="px-4 py-2">NICs</th>
          </tr>
        </thead>
        <tbody>
          {hosts.map((host) => (
            <tr key={host.id} data-testid={`host-row-${host.id}`} className="border-t border-slate-200 dark:border-slate-800">
              <td className="whitespace-nowrap px-4 py-2 font-medium">
                {host.name}
                {host.isLocal ? (
                  <span className="ml-2 whitespace-nowrap rounded-full bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-800 dark:bg-sky-900 dark:text-sky-100">
                    this machine
                  </span>
                ) : null}
              </td>
              <td className="px-4 py-2 font-mono text-xs">
                {host.isLocal ? "local" : `${host.username}@${host.address}:${host.port}`}
              </td>
              <td className="px-4 py-2">{formatPlatform(host.platform)}</td>
              <td className="px-4 py-2">{host.iperf3Version ?? <span className="text-slate-500 dark:text-slate-400">not checked</span>}</td>
              <td className="px-4 py-2">{host.nicCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
