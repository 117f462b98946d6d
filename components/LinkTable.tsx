import type { LinkListItem } from "@/lib/queries/links";
import { formatLinkSpeed } from "./format";

export function LinkTable({ links }: { links: LinkListItem[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <thead className="bg-slate-100 text-xs uppercase tracking-wide text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <tr>
            <th scope="col" className="px-4 py-2">Name</th>
            <th scope="col" className="px-4 py-2">A end</th>
            <th scope="col" className="px-4 py-2">B end</th>
            <th scope="col" className="px-4 py-2">Speed</th>
            <th scope="col" className="px-4 py-2">Runs</th>
          </tr>
        </thead>
        <tbody>
          {links.map((link) => (
            <tr key={link.id} className="border-t border-slate-200 dark:border-slate-800">
              <td className="px-4 py-2 font-medium">{link.name}</td>
              <td className="px-4 py-2">{link.a.host.name} · <span className="font-mono text-xs">{link.a.nic.name}</span></td>
              <td className="px-4 py-2">{link.b.host.name} · <span className="font-mono text-xs">{link.b.nic.name}</span></td>
              <td className="px-4 py-2">{formatLinkSpeed(link.speedMbps)}</td>
              <td className="px-4 py-2">{link.runCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
