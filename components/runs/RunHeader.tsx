import Link from "next/link";
import { Breadcrumb } from "@/components/PageHeader";
import { RateUnitSwitch } from "@/components/units/RateUnitSwitch";
import { LocalTime } from "@/components/units/LocalTime";
import type { IperfOptions } from "@/lib/iperf/options";
import type { RunDirection } from "@/lib/runs/contract";
import { describeDirection, describeOptions } from "@/lib/runs/describe";
import type { RunJson } from "@/lib/runs/serialize";
import { ShareButton } from "@/components/shares/ShareButton";
import { RerunButton } from "./RerunButton";
import { ImportedTag, StatusBadge } from "./StatusBadge";

/**
 * The top of a run's page: where it sits (runs, its link), its number and status, the test in
 * short form with its direction and client, when it started and how long it took, where it came
 * from (an import, an experiment), how many tries a busy iperf3 server took, the rate unit and Run again.
 */
export function RunHeader({
  run,
  options,
  direction,
  aName,
  bName,
  clientName,
  isActive,
}: {
  run: RunJson;
  options: IperfOptions;
  direction: RunDirection;
  aName: string;
  bName: string;
  clientName: string;
  isActive: boolean;
}) {
  return (
    <>
      <Breadcrumb href="/runs" label="Runs">
        {" "}
        /{" "}
        <Link href={`/links/${run.linkId}`} className="hover:underline">
          {run.linkName}
        </Link>
      </Breadcrumb>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
            Run #{run.id} {isActive ? null : <StatusBadge status={run.status} />}
            {run.source === "imported" ? <ImportedTag name={run.importName} /> : null}
          </h1>
          <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
            {run.listen && isActive ? (
              // A device's run: the device chooses its test, which its end tells once the test is over.
              <>Test chosen by {clientName}: protocol, streams and direction show when it ends</>
            ) : (
              <>
                <span className="font-mono">{describeOptions(options, direction)}</span> ·{" "}
                {describeDirection(direction, aName, bName)} · client on {clientName}
              </>
            )}
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Started <LocalTime iso={run.startedAt ?? run.createdAt} />
            {run.endedAt && run.startedAt
              ? ` · took ${Math.round((Date.parse(run.endedAt) - Date.parse(run.startedAt)) / 1000)} s`
              : ""}
            {/* An iperf3 server Wirespeed does not manage answered busy before it took this run's test. */}
            {run.serverTries !== null && run.serverTries > 1 ? (
              <span data-testid="run-server-tries">{` · ${run.serverTries} tries`}</span>
            ) : null}
            {run.source === "imported" ? (
              <span data-testid="run-import-name">
                {" · imported"}
                {run.importName ? (
                  <>
                    {" "}
                    from <span className="font-mono">{run.importName}</span>
                  </>
                ) : null}
              </span>
            ) : null}
            {run.experimentId ? (
              <>
                {" · part of "}
                <Link
                  href={`/experiments/${run.experimentId}`}
                  className="text-sky-700 hover:underline dark:text-sky-300"
                  data-testid="run-experiment"
                >
                  experiment #{run.experimentId}
                </Link>
                {run.channel ? `, channel ${run.channel}` : ""}
              </>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <RateUnitSwitch />
          {!isActive ? <RerunButton runId={run.id} /> : null}
          <ShareButton kind="run" id={run.id} isCompact />
        </div>
      </div>
    </>
  );
}
