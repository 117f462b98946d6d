import { Breadcrumb } from "@/components/PageHeader";
import { ShareButton } from "@/components/shares/ShareButton";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { formatLinkSpeedCompact } from "@/lib/format";
import type { LinkEnds } from "@/lib/runs/link-reads";

/** The top of a link's page: its name, its two ends (host, NIC, address, MTU), its nominal speed and the rate unit. */
export function LinkHeader({ ends }: { ends: LinkEnds }) {
  const { a, b } = ends;
  const mtuMismatch = a.mtu !== null && b.mtu !== null && a.mtu !== b.mtu;
  return (
    <>
      <Breadcrumb href="/links" label="Links" />
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight">{ends.name}</h1>
          <p
            className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700 dark:text-slate-300"
            data-testid="link-ends"
          >
            {[a, b].map((end, index) => (
              <span key={end.hostId} className="inline-flex flex-wrap items-center gap-x-2">
                {index === 1 ? (
                  <span aria-label="to" className="text-slate-400">
                    ⇄
                  </span>
                ) : null}
                <span>
                  <span className="font-medium">{end.hostName}</span> ·{" "}
                  <span className="font-mono text-xs">{end.nicName}</span>
                  <span className="text-slate-600 dark:text-slate-400">
                    {end.address ? ` ${end.address}` : ""}
                    {end.mtu ? ` · MTU ${end.mtu}` : ""}
                  </span>
                </span>
              </span>
            ))}
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Nominal speed{" "}
            <span className="font-semibold text-slate-900 dark:text-slate-100" data-testid="link-speed">
              {formatLinkSpeedCompact(ends.speedMbps)}
            </span>{" "}
            ({ends.speedMbps.toLocaleString("en")} Mbit/s)
            {mtuMismatch ? (
              <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">
                MTU mismatch
              </span>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <RateUnitSwitch />
          <ShareButton kind="link" id={ends.id} />
        </div>
      </div>
    </>
  );
}
