import { PageSection } from "@/components/PageSection";
import { commandParts } from "./command-parts";
import { CopyButton } from "./CopyButton";

type Ends = { server: string; client: string };

/**
 * The iperf3 commands a run started on its hosts, each with its host's iperf3 version and a copy
 * button; or why there are none (not started yet, imported, never started).
 */
export function RunCommands({
  hosts,
  commands,
  versions,
  isActive,
  isImported,
}: {
  hosts: Ends;
  commands: { server: string | null; client: string | null };
  versions: { server: string | null; client: string | null };
  isActive: boolean;
  isImported: boolean;
}) {
  return (
    <PageSection name="commands" title="Commands" className="mb-6">
      {commands.server || commands.client ? (
        <div className="space-y-3">
          {(["server", "client"] as const).map((role) => {
            const command = commands[role];
            return command ? (
              <div
                key={role}
                className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
              >
                <div className="mb-2 flex items-center justify-between gap-2">
                  <h3 className="text-sm font-medium">
                    {role === "server" ? "Server" : "Client"} on {hosts[role]}
                    {versions[role] ? (
                      <span className="font-normal text-slate-600 dark:text-slate-400"> · iperf3 {versions[role]}</span>
                    ) : null}
                  </h3>
                  <CopyButton text={command} label={`Copy the ${role} command`} />
                </div>
                {/* Wraps between arguments only: each (an option with its value) never breaks; one longer than the block scrolls. */}
                <pre
                  className={
                    "overflow-x-auto whitespace-pre-wrap rounded bg-slate-100 p-2 font-mono text-xs " +
                    "text-slate-900 dark:bg-slate-950 dark:text-slate-100"
                  }
                  data-testid={`command-${role}`}
                >
                  {commandParts(command).map((part, index) =>
                    part.isSpace ? (
                      part.text
                    ) : (
                      <span key={index} className="whitespace-nowrap">
                        {part.text}
                      </span>
                    ),
                  )}
                </pre>
              </div>
            ) : null;
          })}
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {isActive
            ? "The commands appear once iperf3 starts on both ends."
            : isImported
              ? "Imported from an iperf3 output: Wirespeed started no command. The output is under Raw output."
              : "No command was started on the hosts."}
        </p>
      )}
    </PageSection>
  );
}

/** What iperf3 printed on each host, folded (open when the run failed), with its number of lines. */
export function RunRawOutput({ hosts, output, isOpen }: { hosts: Ends; output: Ends; isOpen: boolean }) {
  return (
    <PageSection name="output" title="Raw output" className="mb-6">
      <div className="grid gap-3 lg:grid-cols-2">
        {(["server", "client"] as const).map((role) => (
          <details
            key={role}
            className="rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
            open={isOpen}
          >
            <summary className="cursor-pointer text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500">
              {role === "server" ? "Server" : "Client"} output on {hosts[role]} (
              {output[role].split("\n").filter(Boolean).length} lines)
            </summary>
            <pre className="mt-2 max-h-96 overflow-auto rounded bg-slate-100 p-2 font-mono text-xs text-slate-900 dark:bg-slate-950 dark:text-slate-100">
              {output[role] || "(nothing)"}
            </pre>
          </details>
        ))}
      </div>
    </PageSection>
  );
}

const DOWNLOAD_LINK =
  "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium " +
  "hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 " +
  "focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-800 dark:hover:bg-slate-700";

/** A finished run's downloads, CSV and JSON, and what they hold. */
export function RunExport({
  runId,
  sampleCount,
  pointCount,
  isCompacted,
}: {
  runId: number;
  sampleCount: number;
  pointCount: number;
  isCompacted: boolean;
}) {
  return (
    <PageSection name="export" title="Export" className="mb-6">
      <div className="flex flex-wrap gap-3">
        {(["csv", "json"] as const).map((format) => (
          <a
            key={format}
            href={`/runs/${runId}/export?format=${format}`}
            download={`wirespeed-run-${runId}.${format}`}
            className={DOWNLOAD_LINK}
          >
            Download {format.toUpperCase()}
          </a>
        ))}
        <p className="self-center text-xs text-slate-600 dark:text-slate-400">
          {isCompacted
            ? `The chart's ${pointCount} points and each stream's totals: the ${sampleCount} intervals were compacted.`
            : `Every interval (${sampleCount}), not the thinned chart.`}
        </p>
      </div>
    </PageSection>
  );
}
