import { environmentRows, UNKNOWN } from "@/lib/diagnosis/format";
import type { EnvironmentSnapshot, RunEnvironment } from "@/lib/diagnosis/contract";
import { pairEnvironmentRows } from "./environment-table";
import { PageSection } from "@/components/PageSection";

// No "use client": the run page renders it on the server.

/** A value, muted when the end could not read it or was not read at all. */
function Cell({ value }: { value: string | null }) {
  return (
    <td className="min-w-40 px-3 py-2 break-words">
      {value === null || value === UNKNOWN ? (
        <span className="text-slate-500 dark:text-slate-400">{value ?? "not read"}</span>
      ) : (
        value
      )}
    </td>
  );
}

function MissingList({ host, snapshot }: { host: string; snapshot: EnvironmentSnapshot | null }) {
  if (!snapshot || snapshot.missing.length === 0) return null;
  return (
    <div className="text-xs text-slate-600 dark:text-slate-400" data-testid="environment-missing">
      <p className="font-medium text-slate-700 dark:text-slate-300">Not read on {host}:</p>
      <ul className="mt-0.5 list-disc space-y-0.5 pl-5 break-words">
        {snapshot.missing.map((entry) => (
          <li key={entry}>{entry}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * What the two ends looked like when the run started: the client and the server side by side
 * (their host names as column heads), a row marked where they differ, then what could not be
 * read on each. A run from before snapshots says so.
 */
export function EnvironmentSection({
  environment,
  clientHost,
  serverHost,
  isActive,
  hasStopped,
  isImported = false,
}: {
  environment: RunEnvironment | null;
  clientHost: string;
  serverHost: string;
  isActive: boolean;
  /** the run failed, was cancelled or interrupted: it may have stopped before the snapshot */
  hasStopped: boolean;
  /** read from an iperf3 output a user brought: nobody read its ends */
  isImported?: boolean;
}) {
  const rows = environment
    ? pairEnvironmentRows(
        environment.client ? environmentRows(environment.client) : null,
        environment.server ? environmentRows(environment.server) : null,
      )
    : [];
  const differing = rows.filter((row) => row.isDifferent).length;
  return (
    <PageSection name="environment" title="Environment" headingClassName="mb-1" className="mb-6" testId="environment">
      {!environment ? (
        <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="environment-none">
          {isImported
            ? "No snapshot: this run was imported from an iperf3 output, and Wirespeed did not see its ends."
            : isActive
              ? "Both ends are read when the run starts."
              : hasStopped
                ? "No snapshot: this run stopped before its ends were read, or is older than environment snapshots."
                : "No snapshot: this run is older than environment snapshots."}
        </p>
      ) : (
        <>
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
            Each end as it was when the run started.
            {differing > 0
              ? ` ${differing} ${differing === 1 ? "row differs" : "rows differ"} between the ends, marked ≠.`
              : rows.length > 0
                ? " The two ends agree on every row both could read."
                : ""}
          </p>
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
            <table className="w-full text-left text-sm" data-testid="environment-table">
              <caption className="sr-only">
                Environment of the client, {clientHost}, and the server, {serverHost}, at the start of the run; rows
                marked differs are not the same on both ends
              </caption>
              <thead className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-300">
                <tr className="border-b border-slate-200 dark:border-slate-800">
                  <th scope="col" className="px-3 py-2">
                    <span className="sr-only">What</span>
                  </th>
                  <th scope="col" className="px-3 py-2 normal-case tracking-normal">
                    <span className="block text-sm font-semibold text-slate-900 dark:text-slate-100">{clientHost}</span>
                    <span className="text-xs font-normal">client</span>
                  </th>
                  <th scope="col" className="px-3 py-2 normal-case tracking-normal">
                    <span className="block text-sm font-semibold text-slate-900 dark:text-slate-100">{serverHost}</span>
                    <span className="text-xs font-normal">server</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr
                    key={row.key}
                    data-testid="environment-row"
                    data-key={row.key}
                    data-differs={row.isDifferent || undefined}
                    className={`border-t border-slate-200 align-top dark:border-slate-800 ${row.isDifferent ? "bg-amber-50 dark:bg-amber-950/50" : ""}`}
                  >
                    <th scope="row" className="whitespace-nowrap px-3 py-2 font-medium">
                      {row.label}
                      {row.isDifferent ? (
                        <span
                          className="ml-2 rounded bg-amber-200 px-1 py-0.5 text-xs font-semibold text-amber-950 dark:bg-amber-800 dark:text-amber-50"
                          title="Not the same on both ends"
                        >
                          ≠ differs
                        </span>
                      ) : null}
                    </th>
                    <Cell value={row.client} />
                    <Cell value={row.server} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {environment.client?.missing.length ||
          environment.server?.missing.length ||
          !environment.client ||
          !environment.server ? (
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              {environment.client ? (
                <MissingList host={clientHost} snapshot={environment.client} />
              ) : (
                <p className="text-xs text-slate-600 dark:text-slate-400">{clientHost} (client) was not read.</p>
              )}
              {environment.server ? (
                <MissingList host={serverHost} snapshot={environment.server} />
              ) : (
                <p className="text-xs text-slate-600 dark:text-slate-400">{serverHost} (server) was not read.</p>
              )}
            </div>
          ) : null}
        </>
      )}
    </PageSection>
  );
}
