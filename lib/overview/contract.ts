// The overview timeline's window, which the page, GET /api/overview and the browser all read:
// a range back from now (?range=), optionally zoomed into a span of it (?from=&to=, ms since 1970).
// Pure: the browser loads it.

/** The timeline's ranges, in hours back from now, in the order the range switch shows them. */
export const TIMELINE_RANGES = { "1h": 1, "6h": 6, "24h": 24, "7d": 168 } as const;
export type TimelineRange = keyof typeof TIMELINE_RANGES;
export const DEFAULT_TIMELINE_RANGE: TimelineRange = "24h";

export function isTimelineRange(value: unknown): value is TimelineRange {
  return typeof value === "string" && Object.hasOwn(TIMELINE_RANGES, value);
}

/** A range from the page's URL: anything unknown is the default, never an error page. */
export function parseTimelineRange(value: unknown): TimelineRange {
  return isTimelineRange(value) ? value : DEFAULT_TIMELINE_RANGE;
}

/** A zoomed span of the timeline, in milliseconds since 1970, `from` < `to`. */
export type TimelineZoom = { from: number; to: number };

/** The narrowest zoom (a drag narrower is widened about its middle) and the widest (the longest range). */
export const TIMELINE_ZOOM_MIN_MS = 1000;
export const TIMELINE_ZOOM_MAX_MS = TIMELINE_RANGES["7d"] * 3600 * 1000;

type FieldProblem = { field: "from" | "to"; message: string };

const MS_PATTERN = /^\d{1,15}$/;

/**
 * `from` and `to` of a URL as a zoom: both absent is no zoom; otherwise both must be whole
 * milliseconds since 1970, `to` at least TIMELINE_ZOOM_MIN_MS and at most TIMELINE_ZOOM_MAX_MS
 * after `from`. The problems name the field, for a 400.
 */
export function checkTimelineZoom(
  from: string | null | undefined,
  to: string | null | undefined,
): { zoom: TimelineZoom | null; problems: FieldProblem[] } {
  if ((from === null || from === undefined) && (to === null || to === undefined)) return { zoom: null, problems: [] };
  const problems: FieldProblem[] = [];
  const read = (field: "from" | "to", value: string | null | undefined) => {
    if (value === null || value === undefined) {
      problems.push({ field, message: `is required with ${field === "from" ? "to" : "from"}` });
      return null;
    }
    if (!MS_PATTERN.test(value)) {
      problems.push({ field, message: "must be whole milliseconds since 1970" });
      return null;
    }
    return Number(value);
  };
  const start = read("from", from);
  const end = read("to", to);
  if (start === null || end === null) return { zoom: null, problems };
  if (end - start < TIMELINE_ZOOM_MIN_MS)
    return {
      zoom: null,
      problems: [{ field: "to", message: `must be at least ${TIMELINE_ZOOM_MIN_MS} ms after from` }],
    };
  if (end - start > TIMELINE_ZOOM_MAX_MS)
    return { zoom: null, problems: [{ field: "to", message: "must be at most 7 days after from" }] };
  return { zoom: { from: start, to: end }, problems: [] };
}

/** The zoom of the page's URL: anything wrong with it is no zoom, never an error page. */
export function parseTimelineZoom(from: unknown, to: unknown): TimelineZoom | null {
  const text = (value: unknown) => (typeof value === "string" ? value : value === undefined ? null : "");
  return checkTimelineZoom(text(from), text(to)).zoom;
}

/**
 * The zoom of a drag from `a` to `b` (either way) over a chart showing `domain`: clamped to the
 * domain, whole milliseconds, and at least TIMELINE_ZOOM_MIN_MS wide (widened about its middle,
 * kept inside the domain when the domain is wide enough).
 */
export function zoomOfDrag(a: number, b: number, [low, high]: [number, number]): TimelineZoom | null {
  if (![a, b, low, high].every(Number.isFinite) || high <= low) return null;
  let from = Math.floor(Math.max(low, Math.min(a, b)));
  let to = Math.ceil(Math.min(high, Math.max(a, b)));
  if (to - from < TIMELINE_ZOOM_MIN_MS) {
    const middle = (from + to) / 2;
    from = Math.floor(middle - TIMELINE_ZOOM_MIN_MS / 2);
    to = from + TIMELINE_ZOOM_MIN_MS;
    if (high - low >= TIMELINE_ZOOM_MIN_MS) {
      const shift = from < low ? Math.ceil(low) - from : to > high ? Math.floor(high) - to : 0;
      from += shift;
      to += shift;
    }
  }
  if (to - from > TIMELINE_ZOOM_MAX_MS) to = from + TIMELINE_ZOOM_MAX_MS;
  return { from, to };
}

/** The URL's search parameters with `zoom` set, or taken away when null; the range and anything else kept. */
export function withTimelineZoom(params: URLSearchParams, zoom: TimelineZoom | null): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete("from");
  next.delete("to");
  if (zoom) {
    next.set("from", String(zoom.from));
    next.set("to", String(zoom.to));
  }
  return next;
}
