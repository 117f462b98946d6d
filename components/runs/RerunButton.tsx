"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useActionForm } from "@/components/forms/use-action-form";
import { invalidateRunViews } from "@/components/queries";
import { useCan } from "@/components/auth/ViewerContext";
import { WithRefusal } from "@/components/ui/ui";
import { rerunRunAction } from "@/lib/runs/actions/rerun-run";

/** Repeats a run (same link, options and client side) and opens the new run's page. */
export function RerunButton({
  runId,
  label = "Run again",
  className = "",
}: {
  runId: number;
  label?: string;
  className?: string;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const mayRun = useCan("run");
  const { isPending, message: error, submit } = useActionForm();
  // Viewers start nothing: the button is not shown to them (the server refuses them anyway).
  if (!mayRun) return null;
  return (
    <WithRefusal message={error}>
      <button
        type="button"
        disabled={isPending}
        aria-label={label === "Run again" ? `Run again (run #${runId})` : undefined}
        onClick={() =>
          submit(() => rerunRunAction({ runId }), {
            onSuccess: (value) => {
              // Lists, history and the overview show the new run when they are next on screen.
              void invalidateRunViews(queryClient);
              router.push(`/runs/${value.id}`);
            },
          })
        }
        className={
          "whitespace-nowrap rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-800 " +
          "hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 " +
          "disabled:opacity-60 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 " +
          `dark:hover:bg-slate-700 ${className}`
        }
      >
        {isPending ? "Starting…" : label}
      </button>
    </WithRefusal>
  );
}
