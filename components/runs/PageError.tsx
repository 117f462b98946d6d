"use client";

/** The error boundary of the run pages: what failed, and a way to try again. */
export function PageError({
  error,
  reset,
  what,
}: {
  error: Error & { digest?: string };
  reset: () => void;
  what: string;
}) {
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-6 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <h1 className="text-lg font-semibold">Could not load {what}</h1>
      <p className="mt-1 text-sm">
        The server could not read it{error.digest ? ` (error ${error.digest} in the server log)` : ""}. Check that the
        app and its database are running, then try again.
      </p>
      <button
        type="button"
        onClick={reset}
        className={
          "mt-4 rounded-md bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 " +
          "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-red-500 dark:bg-red-300 " +
          "dark:text-red-950 dark:hover:bg-red-200"
        }
      >
        Try again
      </button>
    </div>
  );
}
