import { formatDurationEstimate } from "@/lib/format";
import type { PlanSize } from "./fields";

/** How many runs the plan takes and about how long, as the fields stand; or why it cannot start yet. */
export function PlanSummary({ size, error }: { size: PlanSize | null; error?: string }) {
  let text: string;
  let isProblem = false;
  if (size === null) {
    text = "Choose the link and fill in the fields to see how many runs the plan takes.";
  } else if ("tooLarge" in size) {
    text = `Too many runs: ${size.tooLarge}.`;
    isProblem = true;
  } else {
    const runs = `${size.isUpperBound ? "At most " : ""}${size.runs} ${size.runs === 1 ? "run" : "runs"}`;
    const steps = size.steps !== size.runs ? ` in ${size.steps} ${size.steps === 1 ? "step" : "steps"}` : "";
    const time =
      size.seconds === null ? ", as long as the byte counts take" : `, about ${formatDurationEstimate(size.seconds)}`;
    text = `${runs}${steps}${time}.`;
  }
  return (
    <div>
      <p
        className={`text-sm ${isProblem ? "font-medium text-amber-800 dark:text-amber-300" : "text-slate-700 dark:text-slate-300"}`}
        data-testid="plan-size"
        aria-live="polite"
      >
        {text}
      </p>
      {error ? (
        <p className="mt-1 text-sm text-red-700 dark:text-red-300" data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
