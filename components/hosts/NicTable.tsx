import { formatLinkSpeedCompact } from "@/lib/format";
import { nicMediumLabel } from "@/lib/inventory/schemas";
import { TableOrCards } from "@/components/ui/TableOrCards";
import type { HostDetail } from "@/lib/inventory/host-reads";

const MUTED = "text-slate-600 dark:text-slate-400";

function pcieOf(nic: { pcieLinkWidth: number | null; pcieLinkSpeed: string | null }): string | null {
  if (nic.pcieLinkWidth === null && nic.pcieLinkSpeed === null) return null;
  return [nic.pcieLinkWidth !== null ? `x${nic.pcieLinkWidth}` : null, nic.pcieLinkSpeed].filter(Boolean).join(" · ");
}

type Nic = HostDetail["nics"][number];

const COLUMNS = [
  { header: "Name" },
  { header: "Model" },
  { header: "Speed", className: "text-right" },
  { header: "MTU", className: "text-right" },
  { header: "Addresses" },
  { header: "PCIe" },
];

function linkCountText(count: number): string {
  return count === 1 ? "1 link" : `${count} links`;
}

/** Wi-Fi or Ethernet, where the NIC says which. */
function MediumTag({ medium }: { medium: string | null | undefined }) {
  if (!medium) return null;
  return <span className={`ml-2 font-sans text-xs font-normal ${MUTED}`}>{nicMediumLabel(medium)}</span>;
}

function NicCard({ nic }: { nic: Nic }) {
  const pcie = pcieOf(nic);
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <span className="font-mono font-medium break-all">
          {nic.name}
          <MediumTag medium={nic.medium} />
        </span>
        <span className="whitespace-nowrap text-slate-700 dark:text-slate-300">
          {nic.speedMbps === null ? "speed unknown" : formatLinkSpeedCompact(nic.speedMbps)} · MTU {nic.mtu ?? "–"}
        </span>
      </div>
      {nic.model ? <p className="mt-0.5 text-slate-700 dark:text-slate-300">{nic.model}</p> : null}
      <p className="mt-1 font-mono text-xs break-all text-slate-600 dark:text-slate-400">
        {nic.addresses.length > 0 ? nic.addresses.join(", ") : "no address"}
      </p>
      {pcie || nic.linkCount > 0 ? (
        <p className={`mt-1 text-xs ${MUTED}`}>
          {[pcie ? `PCIe ${pcie}` : null, nic.linkCount > 0 ? linkCountText(nic.linkCount) : null]
            .filter(Boolean)
            .join(" · ")}
        </p>
      ) : null}
    </>
  );
}

function NicCells({ nic }: { nic: Nic }) {
  const pcie = pcieOf(nic);
  return (
    <>
      <th scope="row" className="px-4 py-2 font-mono font-medium whitespace-nowrap">
        {nic.name}
        <MediumTag medium={nic.medium} />
        {nic.linkCount > 0 ? (
          <span className="ml-2 rounded-full bg-sky-100 px-2 py-0.5 font-sans text-xs font-medium text-sky-900 dark:bg-sky-900 dark:text-sky-100">
            {linkCountText(nic.linkCount)}
          </span>
        ) : null}
      </th>
      <td className="min-w-40 px-4 py-2">
        {nic.model ?? <span className={MUTED}>–</span>}
        {nic.driver ? <div className={`text-xs ${MUTED}`}>driver {nic.driver}</div> : null}
      </td>
      <td className="px-4 py-2 text-right tabular-nums whitespace-nowrap">
        {nic.speedMbps === null ? <span className={MUTED}>unknown</span> : formatLinkSpeedCompact(nic.speedMbps)}
      </td>
      <td className="px-4 py-2 text-right tabular-nums" data-testid="nic-mtu">
        {nic.mtu ?? <span className={MUTED}>–</span>}
      </td>
      <td className="px-4 py-2 font-mono text-xs" data-testid="nic-addresses">
        {nic.addresses.length > 0 ? (
          <ul>
            {nic.addresses.map((address) => (
              <li key={address} className="whitespace-nowrap">
                {address}
              </li>
            ))}
          </ul>
        ) : (
          <span className={`font-sans text-sm ${MUTED}`}>none</span>
        )}
      </td>
      <td className="px-4 py-2 whitespace-nowrap">{pcie ?? <span className={MUTED}>–</span>}</td>
    </>
  );
}

/** A host's NICs: name, model, speed, MTU, addresses and PCIe link. */
export function NicTable({ nics }: { nics: HostDetail["nics"] }) {
  return (
    <TableOrCards
      items={nics}
      label="NICs"
      columns={COLUMNS}
      keyOf={(nic) => nic.id}
      row={(nic) => <NicCells nic={nic} />}
      rowTestId={(nic) => `nic-row-${nic.name}`}
      card={(nic) => <NicCard nic={nic} />}
      cardTestId={(nic) => `nic-card-${nic.name}`}
      breakpoint="md"
    />
  );
}
