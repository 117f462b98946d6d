import type { CartesianGridProps, ReferenceLineProps, XAxisProps, YAxisProps } from "recharts";
import { formatNumber, rateScale, type RateUnit } from "@/lib/format";
import { useRateUnit } from "@/components/units/useRateUnit";

// The axes of the time charts (link history, overview timeline, compared runs), set up once:
// props to spread on Recharts' own <XAxis>/<YAxis>, which must stay direct children of the chart.

/** Ticks, axis line and labels in the text colour, so both themes read them. */
export const AXIS_STYLE = {
  tick: { fill: "currentColor", fontSize: 12 },
  stroke: "currentColor",
  strokeOpacity: 0.4,
} satisfies Partial<XAxisProps & YAxisProps>;

export const GRID_PROPS = { stroke: "currentColor", strokeOpacity: 0.15 } satisfies CartesianGridProps;

/** The dashed line of the line rate across a rate chart (its `y`, or `x` on bars, set where it is drawn). */
export const LINE_RATE_LINE = {
  stroke: "currentColor",
  strokeDasharray: "6 4",
  strokeOpacity: 0.6,
} satisfies ReferenceLineProps;

/**
 * A second axis, on the right, in the colour of the line it measures (retransmits, jitter, loss,
 * latency), `width` wide, with `label` written along it.
 */
export function rightAxisProps(color: string, width: number, label?: string): YAxisProps {
  return {
    orientation: "right",
    width,
    tick: { fill: color, fontSize: 12 },
    stroke: color,
    strokeOpacity: 0.6,
    ...(label === undefined
      ? {}
      : { label: { value: label, angle: 90, position: "insideRight", fill: color, fontSize: 12 } }),
  };
}

type RateScale = ReturnType<typeof rateScale>;

/** The rate axis: values in the viewer's unit, scaled to the chart's peak, the unit written along it. */
export function rateAxisProps(scale: RateScale, domain: YAxisProps["domain"]): YAxisProps {
  return {
    ...AXIS_STYLE,
    width: 56,
    domain,
    tickFormatter: (value: number) => formatNumber(value / scale.divisor),
    label: { value: scale.label, angle: -90, position: "insideLeft", fill: "currentColor", fontSize: 12, dx: 4 },
  };
}

/** The viewer's rate unit and a rate axis scaled to `peak` (bit/s). */
export function useRateAxis(peak: number, domain: YAxisProps["domain"]): { unit: RateUnit; rateAxis: YAxisProps } {
  const [unit] = useRateUnit();
  return { unit, rateAxis: rateAxisProps(rateScale(peak, unit), domain) };
}

const DATE_FORMAT = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric" });
const WEEKDAY_FORMAT = new Intl.DateTimeFormat(undefined, { weekday: "short", day: "numeric" });
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const SECONDS_FORMAT = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
const FULL_FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** The tick label for a span: dates over a week, weekdays over a day and a half, times over an hour, else seconds too. */
export function clockTickFormat(spanMs: number): Intl.DateTimeFormat {
  if (spanMs > 8 * DAY) return DATE_FORMAT;
  if (spanMs > 36 * HOUR) return WEEKDAY_FORMAT;
  if (spanMs > HOUR) return TIME_FORMAT;
  return SECONDS_FORMAT;
}

/** A wall-clock axis over `spanMs` (x: milliseconds since the epoch); the chart sets the domain. */
export function clockAxisProps(spanMs: number): XAxisProps {
  const format = clockTickFormat(spanMs);
  return {
    ...AXIS_STYLE,
    dataKey: "x",
    type: "number",
    scale: "time",
    tickFormatter: (value: number) => format.format(new Date(value)),
  };
}

/** The label of `ticks` over `spanMs`: as clockTickFormat says, but no seconds when every tick is on a whole minute. */
export function clockTicksFormat(ticks: number[], spanMs: number): Intl.DateTimeFormat {
  const format = clockTickFormat(spanMs);
  return format === SECONDS_FORMAT && ticks.length > 0 && ticks.every((tick) => tick % 60_000 === 0)
    ? TIME_FORMAT
    : format;
}

/** A moment in full, for a tooltip: "Mar 3, 2026, 14:05:30". */
export function formatClockTime(ms: number): string {
  return FULL_FORMAT.format(new Date(ms));
}

/** Steps of a short span's ticks (a zoomed timeline, the last hour): whole seconds and minutes. */
const CLOCK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800].map((seconds) => seconds * 1000);

/**
 * Ticks on whole local hours (every hour up to 8 h, then every 4) or local midnights (over 36 h);
 * within 3 hours on whole local seconds or minutes, at most 6 steps apart (every 10 minutes of an hour).
 */
export function clockTicks(from: number, to: number): number[] {
  const span = to - from;
  const ticks: number[] = [];
  const step = span <= 3 * HOUR ? CLOCK_STEPS.find((candidate) => span / candidate <= 6) : undefined;
  if (step !== undefined) {
    // Local time is UTC moved by whole minutes (quarter hours at worst): steps counted from the local midnight.
    const offset = -new Date(from).getTimezoneOffset() * 60_000;
    for (let tick = Math.ceil((from + offset) / step) * step - offset; tick <= to; tick += step) ticks.push(tick);
    return ticks;
  }
  if (span > 36 * HOUR) {
    const day = new Date(from);
    day.setHours(24, 0, 0, 0);
    for (; day.getTime() <= to; day.setDate(day.getDate() + 1)) ticks.push(day.getTime());
    return ticks;
  }
  const stepHours = span > 8 * HOUR ? 4 : 1;
  const tick = new Date(from);
  tick.setMinutes(0, 0, 0);
  tick.setHours(Math.ceil((tick.getHours() + (tick.getTime() < from ? 1 : 0)) / stepHours) * stepHours);
  for (; tick.getTime() <= to; tick.setHours(tick.getHours() + stepHours)) ticks.push(tick.getTime());
  return ticks;
}

const SECOND_STEPS = [0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 21_600, 43_200];

/**
 * Ticks on round seconds into a run, at most `most` of them, 0 among them when the domain holds it:
 * two charts on one time axis (throughput, and latency from -5 s) then tick at the same places.
 */
export function secondsTicks([from, to]: [number, number], most = 8): number[] {
  const span = Math.max(to - from, 0.5);
  const step = SECOND_STEPS.find((candidate) => span / candidate <= most) ?? Math.ceil(span / most / 3600) * 3600;
  const ticks: number[] = [];
  for (let tick = Math.ceil(from / step) * step; tick <= to + 1e-9; tick += step) ticks.push(Number(tick.toFixed(3)));
  return ticks;
}

/**
 * An axis of the steps of a result (the swept values, the bitrates tried): their labels (`label`
 * of each point) in the text colour, `title` written under them.
 */
export function categoryAxisProps(title: string): XAxisProps {
  return {
    ...AXIS_STYLE,
    dataKey: "label",
    type: "category",
    label: { value: title, position: "insideBottom", offset: -12, fill: "currentColor", fontSize: 12 },
  };
}

/** A tooltip's title at a moment of a run: "at 2.5 s", seconds to a tenth. */
export function atSeconds(t: number): string {
  return `at ${Number(t.toFixed(1))} s`;
}

/** "2.5s": seconds into a run, to a tenth. */
export function formatSecondsTick(value: number): string {
  return `${Number(value.toFixed(1))}s`;
}

/** The axis of seconds into a run (t), from 0 to `end`. */
export function secondsAxisProps(end: number): XAxisProps {
  return { ...AXIS_STYLE, dataKey: "t", type: "number", domain: [0, end], tickFormatter: formatSecondsTick };
}
