"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { useCan } from "@/components/auth/ViewerContext";
import { Button, CheckboxField, TextField } from "@/components/ui/ui";
import { setBaselineRunsAction } from "@/lib/alerts/actions/set-baseline-runs";

/**
 * A link's baseline settings: N, how many of its latest successful runs of a test make that test's
 * baseline, and whether imported runs count (saved as soon as it is ticked). Shown as text to those
 * who cannot change links.
 */
export function BaselineRunsForm({
  linkId,
  baselineRuns,
  importsInBaseline,
}: {
  linkId: number;
  baselineRuns: number;
  importsInBaseline: boolean;
}) {
  const router = useRouter();
  const mayChange = useCan("inventory");
  const [value, setValue] = useState(String(baselineRuns));
  const imports = useActionForm();
  const runs = useActionForm();
  const isPending = imports.isPending || runs.isPending;
  // Each field shows its own refusal: the field's error, else the action's message.
  const importsError = imports.fieldErrors.importsInBaseline ?? imports.message ?? undefined;
  const error = runs.fieldErrors.baselineRuns ?? runs.message ?? undefined;
  const importsText = importsInBaseline
    ? "Imported runs count toward them."
    : "Imported runs do not count toward them.";
  if (!mayChange) {
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Each baseline is the median of the link&apos;s last {baselineRuns} successful runs of that test. {importsText}
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <CheckboxField
        label="Count imported runs toward the baselines"
        hint={
          "Runs read from iperf3 outputs brought in with Import results. Their text figures carry 3 " +
          "significant digits, and the set-up they ran on may have changed since."
        }
        checked={importsInBaseline}
        error={importsError}
        onChange={(checked) =>
          imports.submit(() => setBaselineRunsAction({ linkId, importsInBaseline: checked }), {
            onSuccess: () => router.refresh(),
          })
        }
      />
      <form
        aria-label="Baseline runs"
        className="flex flex-wrap items-start gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = value.trim();
          runs.submit(
            () => setBaselineRunsAction({ linkId, baselineRuns: /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed }),
            { onSuccess: () => router.refresh() },
          );
        }}
      >
        <TextField
          label="Runs per baseline"
          name="baselineRuns"
          inputMode="numeric"
          className="w-40"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          hint="The median of this many latest runs, 1 to 100"
          error={error}
        />
        <Button
          type="submit"
          className="mt-6"
          isPending={isPending}
          pendingLabel="Saving…"
          disabled={value.trim() === String(baselineRuns)}
        >
          Save
        </Button>
      </form>
    </div>
  );
}
