"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { Button } from "@/components/ui/ui";

export type PickerChoice = { id: number; label: string; group: string };

/**
 * Picks the experiment to compare with `baseId` (or, without one, the first of the two) and
 * opens the comparison: `?ids=A,B` is the page's one address, so a pick is a navigation.
 */
export function ExperimentPicker({
  baseId,
  choices,
  label,
}: {
  baseId: number | null;
  choices: PickerChoice[];
  label: string;
}) {
  const router = useRouter();
  const id = useId();
  const [chosen, setChosen] = useState<string>(choices[0] ? String(choices[0].id) : "");
  if (choices.length === 0) return null;
  const groups = [...new Set(choices.map((choice) => choice.group))];
  return (
    <form
      className="flex flex-wrap items-end gap-2"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        if (chosen) router.push(`/experiments/compare?ids=${baseId === null ? chosen : `${baseId},${chosen}`}`);
      }}
    >
      <div className="min-w-0 flex-1 basis-64">
        <label htmlFor={id} className="mb-1 block text-sm font-medium">
          {label}
        </label>
        <select
          id={id}
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className={
            "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 " +
            "outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-slate-600 " +
            "dark:bg-slate-900 dark:text-slate-100"
          }
        >
          {groups.map((group) => (
            <optgroup key={group} label={group}>
              {choices
                .filter((choice) => choice.group === group)
                .map((choice) => (
                  <option key={choice.id} value={choice.id}>
                    {choice.label}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </div>
      <Button type="submit" variant="primary">
        {baseId === null ? "Choose" : "Compare"}
      </Button>
    </form>
  );
}
