// The timeline's zoom without a pointer: + and - on the focused chart, and a From/To form.
// Pure: the browser loads it.

import { checkTimelineZoom, zoomOfDrag, type TimelineZoom } from "@/lib/overview/contract";

/** The middle half of what the chart shows: what + zooms to. */
export function zoomedIn([from, to]: [number, number]): TimelineZoom | null {
  const quarter = (to - from) / 4;
  return zoomOfDrag(from + quarter, to - quarter, [from, to]);
}

/**
 * Twice what the chart shows, about its middle, kept within the range (`rangeMs` back from `now`):
 * what - zooms to; null, no zoom, once it would be as wide as the range.
 */
export function zoomedOut([from, to]: [number, number], rangeMs: number, now: number): TimelineZoom | null {
  const width = 2 * (to - from);
  if (!Number.isFinite(width) || width >= rangeMs) return null;
  let start = Math.floor((from + to) / 2 - width / 2);
  start = Math.max(now - rangeMs, Math.min(start, now - width));
  return { from: start, to: start + width };
}

/** A time as a datetime-local field shows it, to the second, in the browser's time zone: "2026-12-08T01:05:09". */
export function localInputValue(ms: number): string {
  const time = new Date(ms);
  const two = (value: number) => String(value).padStart(2, "0");
  return (
    `${time.getFullYear()}-${two(time.getMonth() + 1)}-${two(time.getDate())}` +
    `T${two(time.getHours())}:${two(time.getMinutes())}:${two(time.getSeconds())}`
  );
}

export type ZoomFormField = "from" | "to";
const LABELS: Record<ZoomFormField, string> = { from: "From", to: "To" };

/**
 * The zoom of the form's two datetime-local values (the browser's time zone), with the URL's rules
 * (checkTimelineZoom); or what is wrong, naming the field by its label.
 */
export function zoomOfForm(
  fromText: string,
  toText: string,
): { zoom: TimelineZoom } | { field: ZoomFormField; message: string } {
  const times: Record<ZoomFormField, number> = { from: new Date(fromText).getTime(), to: new Date(toText).getTime() };
  for (const field of ["from", "to"] as const) {
    const text = field === "from" ? fromText : toText;
    if (text === "" || !Number.isFinite(times[field]) || times[field] < 0)
      return { field, message: `${LABELS[field]} needs a date and a time.` };
  }
  const { zoom, problems } = checkTimelineZoom(String(times.from), String(times.to));
  const problem = problems[0];
  if (!zoom || problem)
    return {
      field: problem?.field ?? "to",
      message: `${LABELS[problem?.field ?? "to"]} ${problem?.message.replace(/\bfrom\b/, "From") ?? "is not a time"}.`,
    };
  return { zoom };
}
