import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { formatBitsPerSecond } from "@/components/format";
import { listRuns } from "@/lib/queries/runs";

export const dynamic = "force-dynamic";
export const metadata = { title: "Runs" };

export default async function RunsPage() {
  const { runs, total } = await listRuns();
  return (
    <>
      <PageHeader title="Runs" description={`Every iperf3 test, newest first (${total} in all).`} />
      {runs.length === 0 ? (
        <EmptyState title="No runs yet">Runs appear here once a test has been started on a link.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
          {runs.map((run) => (
            <li key={run.id} className="flex justify-between px-4 py-2 text-sm">
              <span>
                #{run.id} · {run.link.name}
              </span>
              <span>
                {run.status} · {formatBitsPerSecond(run.receivedBitsPerSecond)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
