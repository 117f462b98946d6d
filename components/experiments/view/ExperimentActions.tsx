"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { useCan } from "@/components/auth/ViewerContext";
import { invalidateRunViews, queryKeys } from "@/components/queries";
import { Button, buttonClass } from "@/components/ui/ui";
import { rerunExperimentAction } from "@/lib/actions/rerun-experiment";

/** Run again (the whole plan, as a new experiment), Compare, and the exports. */
export function ExperimentActions({ experimentId, isActive }: { experimentId: number; isActive: boolean }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const mayRun = useCan("run");
  const [isPending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
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
              startTransition(async () => {
                setError(null);
                const result = await rerunExperimentAction({ experimentId });
                if (result.ok) {
                  void queryClient.invalidateQueries({ queryKey: queryKeys.experiments() });
                  void invalidateRunViews(queryClient);
                  router.push(`/experiments/${result.value.id}`);
                } else setError(result.message);
              })
            }
          >
            Run again
          </Button>
        ) : null}
        <Link href={`/experiments/compare?ids=${experimentId}`} className={buttonClass("secondary")}>
          Compare
        </Link>
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
