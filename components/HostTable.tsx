import type { HostView } from "@/lib/inventory/hosts";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { platformLabel } from "@/lib/platforms";
import { sshTarget } from "@/components/hosts/fields";

const COLUMNS = [
  { header: "Name" },
  { header: "Address" },
  { header: "Platform" },
  { header: "iperf3" },
  { header: "NICs" },
];

/** Hosts as a table; "this machine" is marked so users see where local runs happen. */
export function HostTable({ hosts }: { hosts: HostView[] }) {
  return (
    <TableOrCards
      items={hosts}
      label="Hosts"
      columns={COLUMNS}
      keyOf={(host) => host.id}
      rowTestId={(host) => `host-row-${host.id}`}
      row={(host) => (
        <>
          <td className="whitespace-nowrap px-4 py-2 font-medium">
            {host.name}
            {host.isLocal ? (
              <span className="ml-2 whitespace-nowrap rounded-full bg-sky-100 px-2 py-0.5 text-xs font-medium text-sky-800 dark:bg-sky-900 dark:text-sky-100">
                this machine
              </span>
            ) : null}
          </td>
          <td className="px-4 py-2 font-mono text-xs">{sshTarget(host)}</td>
          <td className="px-4 py-2">{platformLabel(host.platform)}</td>
          <td className="px-4 py-2">
            {host.iperf3Version ?? <span className="text-slate-500 dark:text-slate-400">not checked</span>}
          </td>
          <td className="px-4 py-2">{host.nicCount}</td>
        </>
      )}
    />
  );
}
