"use client";

/**
 * A list or chart that could not be refreshed: what the server said and a way to try again.
 * What was shown before stays on the page below it.
 */
export function QueryError({ what, error, onRetry }: { what: string; error: Error; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className={
        "mb-3 flex flex-wrap items-center justify-between gap-2 rounded-md border border-red-300 " +
        "bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 " +
        "dark:text-red-100"
      }
    >
      <span>
        Could not refresh {what}: {error.message}
      </span>
      <button
        type="button"
        onClick={onRetry}
        className={
          "rounded-md bg-red-700 px-2.5 py-1 text-xs font-medium text-white hover:bg-red-800 " +
          "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500 dark:bg-red-300 " +
          "dark:text-red-950 dark:hover:bg-red-200"
        }
      >
        Try again
      </button>
    </div>
  );
}
