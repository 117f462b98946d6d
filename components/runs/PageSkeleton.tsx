/** What a run or link page shows while its data loads: the shape of the page, quietly pulsing. */
export function PageSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-6">
      <span className="sr-only">{label}</span>
      <div className="space-y-2">
        <div className="h-7 w-56 rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-4 w-80 max-w-full rounded bg-slate-200 dark:bg-slate-800" />
      </div>
      <div className="h-40 rounded-lg bg-slate-200 dark:bg-slate-800" />
      <div className="h-72 rounded-lg bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}
