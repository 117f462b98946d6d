import { formatLinkSpeed } from "@/components/format";
import type { HostDetail } from "@/lib/queries/hosts";

const TH = "px-4 py-2 font-semibold";
const MUTED = "text-slate-600 dark:text-slate-400";

function pcieOf(nic: { pcieLinkWidth: number | null; pcieLinkSpeed: string | null }): string | null {
  if (nic.pcieLinkWidth === null && nic.pcieLinkSpeed === null) return null;
  return [nic.pcieLinkWidth !== null ? `x${nic.pcieLinkWidth}` : null, nic.pcieLinkSpeed].filter(Boolean).join(" · ");
}

/** A host's NICs: name, model, speed, MTU, addresses and PCIe link. */
export function NicTable({ nics }: { nics: HostDetail["nics"] }) {
  return (
    <>
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white md:hidden dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900" aria-label="NICs">
        {nics.map((nic) => {
          const pcie = pcieOf(nic);
          return (
            <li key={nic.id} className="px-4 py-3 text-sm" data-testid={`nic-card-${nic.name}`}>
              <div className="flex items-start justify-between gap-3">
                <span className="font-mono font-medium break-all">{nic.name}</span>
                <span className="whitespace-nowrap text-slate-700 dark:text-slate-300">
                  {nic.speedMbps === null ? "speed unknown" : formatLinkSpeed(nic.speedMbps)} · MTU {nic.mtu ?? "–"}
                </span>
              </div>
              {nic.model ? <p className="mt-0.5 text-slate-700 dark:text-slate-300">{nic.model}</p> : null}
              <p className="mt-1 font-mono text-xs break-all text-slate-600 dark:text-slate-400">{nic.addresses.length > 0 ? nic.addresses.join(", ") : "no address"}</p>
              {pcie || nic.linkCount > 0 ? (
                <p className={`mt-1 text-xs ${MUTED}`}>
                  {[pcie ? `PCIe ${pcie}` : null, nic.linkCount > 0 ? (nic.linkCount === 1 ? "1 link" : `${nic.linkCount} links`) : null].filter(Boolean).join(" · ")}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block dark:border-slate-800 dark:bg-slate-900">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">NICs</caption>
        <thead className="bg-slate-100 text-xs uppercase tracking-wide text-slate-700 dark:bg-slate-800 dark:text-slate-300">
          <tr>
            <th scope="col" className={TH}>Name</th>
            <th scope="col" className={TH}>Model</th>
            <th scope="col" className={`${TH} text-right`}>Speed</th>
            <th scope="col" className={`${TH} text-right`}>MTU</th>
            <th scope="col" className={TH}>Addresses</th>
            <th scope="col" className={TH}>PCIe</th>
          </tr>
        </thead>
        <tbody>
          {nics.map((nic) => {
            const pcie = pcieOf(nic);
            return (
              <tr key={nic.id} data-testid={`nic-row-${nic.name}`} className="border-t border-slate-200 align-top dark:border-slate-800">
                <th scope="row" className="px-4 py-2 font-mono font-medium whitespace-nowrap">
                  {nic.name}
                  {nic.linkCount > 0 ? (
                    <span className="ml-2 rounded-full bg-sky-100 px-2 py-0.5 font-sans text-xs font-medium text-sky-900 dark:bg-sky-900 dark:text-sky-100">
                      {nic.linkCount === 1 ? "1 link" : `${nic.linkCount} links`}
                    </span>
                  ) : null}
                </th>
                <td className="min-w-40 px-4 py-2">
                  {nic.model ?? <span className={MUTED}>–</span>}
                  {nic.driver ? <div className={`text-xs ${MUTED}`}>driver {nic.driver}</div> : null}
                </td>
                <td className="px-4 py-2 text-right tabular-nums whitespace-nowrap">{nic.speedMbps === null ? <span className={MUTED}>unknown</span> : formatLinkSpeed(nic.speedMbps)}</td>
                <td className="px-4 py-2 text-right tabular-nums" data-testid="nic-mtu">{nic.mtu ?? <span className={MUTED}>–</span>}</td>
                <td className="px-4 py-2 font-mono text-xs" data-testid="nic-addresses">
                  {nic.addresses.length > 0 ? (
                    <ul>
                      {nic.addresses.map((address) => (
                        <li key={address} className="whitespace-nowrap">{address}</li>
                      ))}
                    </ul>
                  ) : (
                    <span className={`font-sans text-sm ${MUTED}`}>none</span>
                  )}
                </td>
                <td className="px-4 py-2 whitespace-nowrap">{pcie ?? <span className={MUTED}>–</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      </div>
    </>
  );
}
