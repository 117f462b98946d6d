import { STATUS_LABELS } from "@/lib/runs/describe";

const STATUS_STYLES: Record<string, string> = {
  queued: "bg-slate-100 text-slate-800 ring-slate-300 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600",
  preparing: "bg-sky-50 text-sky-800 ring-sky-300 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-800",
  running: "bg-sky-100 text-sky-900 ring-sky-400 dark:bg-sky-900 dark:text-sky-100 dark:ring-sky-600",
  succeeded:
    "bg-emerald-50 text-emerald-800 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800",
  failed: "bg-red-50 text-red-800 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800",
  cancelled: "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800",
  interrupted: "bg-amber-50 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800",
};

/** A run's status as a coloured pill; queued runs say their place in the queue. */
export function StatusBadge({ status, queuePosition }: { status: string; queuePosition?: number | null }) {
  const label = (STATUS_LABELS as Record<string, string | undefined>)[status] ?? status;
  const place =
    status === "queued" && queuePosition != null && queuePosition > 0 ? ` · #${queuePosition} in queue` : "";
  return (
    <span
      data-testid="run-status"
      data-status={status}
      className={
        "inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium " +
        `ring-1 ring-inset ${STATUS_STYLES[status] ?? STATUS_STYLES.queued}`
      }
    >
      {status === "running" || status === "preparing" ? (
        <span aria-hidden className="h-1.5 w-1.5 animate-pulse rounded-full bg-current" />
      ) : null}
      {label}
      {place}
    </span>
  );
}

/** Beside the status of a run read from an iperf3 output a user brought, rather than run by Wirespeed. */
/** A run whose bytes took another route than the link (its path check's verdict): in words, not a colour alone. */
export function OffLinkTag() {
  return (
    <span
      data-testid="run-off-link"
      title="Its bytes went through another NIC than the link's: not in the baseline"
      className={
        "ml-1 inline-flex items-center whitespace-nowrap rounded-full bg-red-50 px-2 py-0.5 " +
        "text-xs font-medium text-red-900 ring-1 ring-inset ring-red-300 dark:bg-red-950 " +
        "dark:text-red-100 dark:ring-red-700"
      }
    >
      Off the link
    </span>
  );
}

export function ImportedTag({ name }: { name?: string | null }) {
  return (
    <span
      data-testid="run-imported"
      title={name ? `Imported from ${name}` : "Imported from an iperf3 output"}
      className={
        "ml-1 inline-flex items-center whitespace-nowrap rounded-full bg-violet-50 px-2 py-0.5 " +
        "text-xs font-medium text-violet-900 ring-1 ring-inset ring-violet-300 dark:bg-violet-950 " +
        "dark:text-violet-100 dark:ring-violet-700"
      }
    >
      Imported
    </span>
  );
}
