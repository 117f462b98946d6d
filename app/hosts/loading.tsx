export default function HostsLoading() {
  return (
    <div role="status" aria-live="polite" className="animate-pulse space-y-4">
      <span className="sr-only">Loading…</span>
      <div className="h-8 w-40 rounded bg-slate-200 dark:bg-slate-800" />
      <div className="h-48 rounded-lg bg-slate-200 dark:bg-slate-800" />
    </div>
  );
}
