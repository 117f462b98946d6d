"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useActionForm } from "@/components/forms/use-action-form";
import { useCan } from "@/components/auth/ViewerContext";
import { invalidateRunViews, queryKeys } from "@/components/queries";
import { ShareButton } from "@/components/shares/ShareButton";
import { Button, buttonClass } from "@/components/ui/ui";
import { rerunExperimentAction } from "@/lib/experiments/actions/rerun-experiment";

/** Run again (the whole plan, as a new experiment), Compare, and the exports. */
export function ExperimentActions({ experimentId, isActive }: { experimentId: number; isActive: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const mayRun = useCan("run");
  const { isPending, message: error, submit } = useActionForm();
  return (
    <div className="flex flex-col items-start gap-1">
      <div className="flex flex-wrap items-center gap-2">
        {mayRun && !isActive ? (
          <Button
            type="button"
            variant="primary"
            isPending={isPending}
            pendingLabel="Starting…"
            onClick={() =>
              submit(() => rerunExperimentAction({ experimentId }), {
                onSuccess: (value) => {
                  void queryClient.invalidateQueries({ queryKey: queryKeys.experiments() });
                  void invalidateRunViews(queryClient);
                  router.push(`/experiments/${value.id}`);
                },
              })
            }
          >
            Run again
          </Button>
        ) : null}
        <Link href={`/experiments/compare?ids=${experimentId}`} className={buttonClass("secondary")}>
          Compare
        </Link>
        <ShareButton kind="experiment" id={experimentId} />
        <a
          href={`/experiments/${experimentId}/export?format=csv`}
          download={`wirespeed-experiment-${experimentId}.csv`}
          className={buttonClass("secondary")}
        >
          Export CSV
        </a>
        <a
          href={`/experiments/${experimentId}/export?format=json`}
          download={`wirespeed-experiment-${experimentId}.json`}
          className={buttonClass("secondary")}
        >
          Export JSON
        </a>
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}
