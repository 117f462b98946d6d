import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { PageSection } from "@/components/PageSection";
import { LinkHistoryChart } from "@/components/charts/LinkHistoryChart";
import { TEXT_LINK } from "@/components/ui/styles";
import { formatLinkSpeed, formatPercent, formatRate } from "@/lib/format";
import type { DeviceNicRuns } from "@/lib/runs/device-reads";
import { nicMediumLabel } from "@/lib/inventory/schemas";

/**
 * A device's runs by NIC, side by side (its Wi-Fi next to its Ethernet): each NIC's links with
 * their newest result and their history, drawn as on a link's page.
 */
export function DeviceRuns({ nics }: { nics: DeviceNicRuns[] }) {
  return (
    <PageSection name="device-runs" title="Runs by NIC" className="mb-8" testId="device-runs">
      {nics.length === 0 ? (
        <EmptyState title="No NICs yet">
          Add the device&apos;s Wi-Fi or Ethernet NIC below, link it to a NIC of a host Wirespeed logs in to, then open
          the link and listen for the device.
        </EmptyState>
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {nics.map((nic) => (
            <section
              key={nic.nicId}
              aria-labelledby={`device-nic-${nic.nicId}`}
              className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
            >
              <h3 id={`device-nic-${nic.nicId}`} className="mb-2 font-semibold">
                {nic.name}
                {nic.medium && nicMediumLabel(nic.medium) !== nic.name ? ` (${nicMediumLabel(nic.medium)})` : ""}{" "}
                <span className="font-mono text-xs font-normal text-slate-600 dark:text-slate-400">
                  {nic.address ?? "address not set"}
                </span>
              </h3>
              {nic.links.length === 0 ? (
                <p className="text-sm text-slate-600 dark:text-slate-400">No link yet: this NIC has not been tested.</p>
              ) : (
                nic.links.map((link) => (
                  <div key={link.linkId} className="mt-3">
                    <p className="mb-1 flex flex-wrap items-baseline justify-between gap-2 text-sm">
                      <Link href={`/links/${link.linkId}`} className={TEXT_LINK}>
                        {link.name}
                      </Link>
                      <span className="text-slate-600 dark:text-slate-400">
                        with {link.otherHostName}, {formatLinkSpeed(link.speedMbps)}
                      </span>
                    </p>
                    {link.latest ? (
                      <p className="mb-2 text-sm tabular-nums">
                        Latest{" "}
                        <Link href={`/runs/${link.latest.runId}`} className={TEXT_LINK}>
                          run {link.latest.runId}
                        </Link>
                        : <span className="font-semibold">{formatRate(link.latest.receivedBitsPerSecond)}</span> (
                        {formatPercent(link.latest.lineRatePercent)} of the line rate)
                      </p>
                    ) : null}
                    {link.points.length > 0 ? (
                      <LinkHistoryChart
                        points={link.points}
                        lineRateBitsPerSecond={link.speedMbps * 1e6}
                        aName={link.aName}
                        bName={link.bName}
                      />
                    ) : (
                      <p className="text-sm text-slate-600 dark:text-slate-400">
                        No runs yet: open the link and listen for the device.
                      </p>
                    )}
                  </div>
                ))
              )}
            </section>
          ))}
        </div>
      )}
    </PageSection>
  );
}
