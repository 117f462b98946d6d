// Words for schedules that the pages and the form share. Pure: no React, no I/O.
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";
import { EXPERIMENT_KINDS, type ExperimentKind } from "@/lib/experiments/contract";
import type { ScheduleJson } from "@/lib/schedules/contract";

/**
 * A start time in the schedule's own zone, "Mon 2 Dec 2026, 03:00" (seconds for a cron of 6
 * fields), in one fixed locale so that the server's render and the browser's agree. An
 * unknown zone gives the ISO time.
 */
export function formatStartIn(iso: string, timeZone: string, withSeconds = false): string {
  try {
    return new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      ...(withSeconds ? { second: "2-digit" } : {}),
      hourCycle: "h23",
    }).format(new Date(iso));
  } catch {
    return iso;
  }
}

/** Whether a cron expression has a seconds field (6 fields). */
export function hasSecondsField(cron: string | null): boolean {
  return cron !== null && cron.trim().split(/\s+/).length >= 6;
}

function isKind(value: unknown): value is ExperimentKind {
  return typeof value === "string" && (EXPERIMENT_KINDS as readonly string[]).includes(value);
}

/** What a schedule repeats: "test on nas-10g" or the experiment's kind ("Stream sweep"). */
export function describeTarget(schedule: Pick<ScheduleJson, "kind" | "link" | "experimentPlan">): string {
  if (schedule.kind === "test") return schedule.link ? `Test on ${schedule.link.name}` : "Test on a deleted link";
  const kind = schedule.experimentPlan?.kind;
  return isKind(kind) ? `Experiment: ${KIND_DEFINITIONS[kind].title}` : "Experiment";
}
