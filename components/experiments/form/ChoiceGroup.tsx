"use client";

import { useId, type ReactNode } from "react";
import { FieldMessages } from "@/components/ui/ui";

export type Choice<T extends string> = { value: T; label: ReactNode; hint?: ReactNode; unavailable?: string | null };

const LEGEND = "text-sm font-medium text-slate-800 dark:text-slate-200";

/**
 * A fieldset of checkboxes (`multiple`) or radio buttons, with its hint and the server's
 * message for the field; a choice an end's iperf3 lacks is disabled with the reason.
 */
export function ChoiceGroup<T extends string>({
  legend,
  choices,
  selected,
  onChange,
  multiple = false,
  hint,
  error,
  isStacked = false,
  testId,
}: {
  legend: string;
  choices: readonly Choice<T>[];
  selected: readonly T[];
  onChange: (selected: T[]) => void;
  multiple?: boolean;
  hint?: ReactNode;
  error?: string;
  /** one choice a line, each with its hint under it (the kinds); otherwise side by side */
  isStacked?: boolean;
  testId?: string;
}) {
  const id = useId();
  const toggle = (value: T, isChecked: boolean) => {
    if (!multiple) return onChange([value]);
    // In the order the choices are listed, whatever order they were ticked in.
    onChange(
      choices.map((choice) => choice.value).filter((entry) => (entry === value ? isChecked : selected.includes(entry))),
    );
  };
  const unavailable = choices.filter((choice) => choice.unavailable);
  return (
    <fieldset
      aria-describedby={[hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined}
      data-testid={testId}
    >
      <legend className={LEGEND}>{legend}</legend>
      <div
        className={isStacked ? "mt-2 grid gap-2 sm:grid-cols-2 lg:grid-cols-3" : "mt-1 flex flex-wrap gap-x-4 gap-y-1"}
      >
        {choices.map((choice) => {
          const isChecked = selected.includes(choice.value);
          return (
            <label
              key={choice.value}
              title={choice.unavailable ? `Unavailable: ${choice.unavailable}` : undefined}
              className={
                isStacked
                  ? `flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-500 ${
                      isChecked
                        ? "border-sky-600 bg-sky-50 dark:border-sky-400 dark:bg-sky-950/60"
                        : "border-slate-300 bg-white dark:border-slate-600 dark:bg-slate-900"
                    }`
                  : `inline-flex items-center gap-2 text-sm ${choice.unavailable ? "text-slate-500" : ""}`
              }
            >
              <input
                // A card's name is its title; its hint describes it.
                aria-labelledby={isStacked ? `${id}-${choice.value}-label` : undefined}
                aria-describedby={isStacked && choice.hint ? `${id}-${choice.value}-hint` : undefined}
                type={multiple ? "checkbox" : "radio"}
                name={id}
                value={choice.value}
                checked={isChecked}
                disabled={Boolean(choice.unavailable)}
                onChange={(event) => toggle(choice.value, event.target.checked)}
                className={`h-4 w-4 shrink-0 accent-sky-600 ${isStacked ? "mt-0.5" : ""}`}
              />
              {isStacked ? (
                <span className="min-w-0">
                  <span id={`${id}-${choice.value}-label`} className="block font-medium">
                    {choice.label}
                  </span>
                  {choice.hint ? (
                    <span
                      id={`${id}-${choice.value}-hint`}
                      className="block text-xs text-slate-600 dark:text-slate-400"
                    >
                      {choice.hint}
                    </span>
                  ) : null}
                </span>
              ) : (
                choice.label
              )}
            </label>
          );
        })}
      </div>
      {unavailable.map((choice) => (
        <p key={choice.value} className="mt-1 text-xs text-amber-800 dark:text-amber-300">
          {choice.label} unavailable: {choice.unavailable}
        </p>
      ))}
      <FieldMessages id={id} hint={hint} error={error} />
    </fieldset>
  );
}
