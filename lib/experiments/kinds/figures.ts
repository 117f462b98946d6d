// Figures and words the kinds share: medians, percents, sizes, field names,
// and the one link of a single-link plan. Pure.
import { z } from "zod";
import { fieldErrorsFromZod, type FieldError } from "@/lib/errors";
import { DIRECTION_ARROWS } from "@/lib/runs/describe";
import type { ClientSide, RunDirection } from "@/lib/runs/contract";
import type { PlanLink, RunOutcome, StepOutcome } from "../contract";

/** The numbers that are there; null, undefined and NaN are "not measured". */
export function present(values: readonly (number | null | undefined)[]): number[] {
  return values.filter((value): value is number => typeof value === "number" && Number.isFinite(value));
}

export function median(values: readonly (number | null | undefined)[]): number | null {
  const sorted = present(values).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function sum(values: readonly (number | null | undefined)[]): number | null {
  const numbers = present(values);
  return numbers.length === 0 ? null : numbers.reduce((total, value) => total + value, 0);
}

export function mean(values: readonly (number | null | undefined)[]): number | null {
  const numbers = present(values);
  return numbers.length === 0 ? null : numbers.reduce((total, value) => total + value, 0) / numbers.length;
}

/** `part` in % of `whole`, to 0.1; null when either is missing or the whole is not positive. */
export function percentOf(part: number | null, whole: number | null): number | null {
  if (part === null || whole === null || !(whole > 0)) return null;
  return Math.round((part / whole) * 1000) / 10;
}

/** The link's line rate in bits/s, or null when its speed is unknown. */
export function lineRateOf(link: PlanLink | undefined): number | null {
  return link && link.speedMbps > 0 ? link.speedMbps * 1e6 : null;
}

/** 262144 → "256 KiB", 1048576 → "1 MiB", 1500 → "1500 bytes": sizes as iperf3's -w and -l take them. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 2 && bytes % 1024 ** 2 === 0) return `${bytes / 1024 ** 2} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

/** 2 → "two", 12 → "12". */
export function numberWord(count: number): string {
  return NUMBER_WORDS[count] ?? String(count);
}

/** "a→b", "b→a", "a⇄b". */
export function directionWord(direction: RunDirection): string {
  if (direction === "bidir") return `a${DIRECTION_ARROWS.bidir}b`;
  return direction === "a-to-b" ? "a→b" : "b→a";
}

export function otherSide(side: ClientSide): ClientSide {
  return side === "a" ? "b" : "a";
}

/** `values.2` → `values[2]`: experiment fields name list items with brackets. */
export function bracketIndexes(field: string): string {
  return field.replace(/\.(\d+)(?=\.|$)/g, "[$1]");
}

/**
 * The field errors of a failed zod parse, list items named `values[2]`, and a message that
 * starts with its own field's name said once ("repeats must be …" under `repeats`).
 */
export function fieldErrorsOf(error: z.ZodError, prefix = ""): FieldError[] {
  return fieldErrorsFromZod(error, prefix).map(({ field, message }) => {
    const bare = prefix && field.startsWith(`${prefix}.`) ? field.slice(prefix.length + 1) : field;
    return {
      field: bracketIndexes(field),
      message: message.startsWith(`${bare} `) ? message.slice(bare.length + 1) : message,
    };
  });
}

/** The plan's link, found by id among those given. */
export function linkOf(links: readonly PlanLink[], id: number | undefined): PlanLink | undefined {
  return links.find((link) => link.id === id);
}

/** Kinds that measure one link: any other count is a 400 naming `linkIds`. */
export function exactlyOneLink(linkIds: readonly number[], kindWords: string): FieldError[] {
  if (linkIds.length === 1) return [];
  return [
    { field: "linkIds", message: `a ${kindWords} measures one link: give exactly one (${linkIds.length} given)` },
  ];
}

/** Every run of the steps done, in order. */
export function runsOf(done: readonly StepOutcome[]): RunOutcome[] {
  return done.flatMap((step) => step.runs);
}

/** A whole number within bounds, with one message that says what is allowed. */
export function wholeNumber(field: string, min: number, max: number, unit = "") {
  const allowed = `${field} must be a whole number from ${min} to ${max}${unit}`;
  return z.number({ error: allowed }).int({ error: allowed }).min(min, { error: allowed }).max(max, { error: allowed });
}

/** A number (not necessarily whole) within bounds. */
export function numberBetween(field: string, min: number, max: number, unit = "") {
  const allowed = `${field} must be a number from ${min} to ${max}${unit}`;
  return z.number({ error: allowed }).min(min, { error: allowed }).max(max, { error: allowed });
}
