// Figures as people read them: bit rates, link speeds, sizes, percentages, durations and dates, for pages,
// API messages and event streams alike. Pure and browser-safe: no I/O, no server-only imports.
//
// One rounding rule for every number with a unit: three significant digits the way iperf3 prints them
// (2 decimals below 9.995, 1 below 99.95, none above; 2 decimals below 1), in the largest unit that keeps
// the rounded number under 1000 (999.6 Mbit/s is "1.00 Gbit/s", never "1000 Mbit/s").
//
// Each figure comes in at most two forms that differ only in how they print that same rounding:
//   - the table form keeps trailing zeros ("4.70 Gbit/s", "94.3 %") so that a column of figures lines up;
//   - the word form drops them ("4.7 Gbit/s", "71%") because it sits inside a sentence (hints, alerts, plans).

// ---------------------------------------------------------------- the rounding rule

/** How many decimals a number keeps: 2 below 9.995, 1 below 99.95, none above (three significant digits). */
export function decimalsOf(value: number): number {
  const magnitude = Math.abs(value);
  return magnitude < 9.995 ? 2 : magnitude < 99.95 ? 1 : 0;
}

/** 4.7 → "4.70", 12.34 → "12.3", 941.2 → "941": three significant digits, trailing zeros kept (tables, axes). */
export function formatNumber(value: number): string {
  return value.toFixed(decimalsOf(value));
}

/** 4.7 → "4.7", 12.34 → "12.3", 10 → "10": the same rounding without trailing zeros (sentences). */
export function formatFigure(value: number): string {
  return String(Number(formatNumber(value)));
}

// ---------------------------------------------------------------- bit rates

export type RateUnit = "bits" | "bytes";

export type RateScale = { divisor: number; label: string };

const BIT_SCALES: RateScale[] = [
  { divisor: 1, label: "bit/s" },
  { divisor: 1e3, label: "kbit/s" },
  { divisor: 1e6, label: "Mbit/s" },
  { divisor: 1e9, label: "Gbit/s" },
  { divisor: 1e12, label: "Tbit/s" },
];

// Bytes/s in decimal units, as iperf3's -f M and most file-copy dialogs print them.
const BYTE_SCALES: RateScale[] = [
  { divisor: 8, label: "B/s" },
  { divisor: 8e3, label: "kB/s" },
  { divisor: 8e6, label: "MB/s" },
  { divisor: 8e9, label: "GB/s" },
  { divisor: 8e12, label: "TB/s" },
];

// Below this a number rounds to less than 1000 under the rule above.
const ROUNDS_BELOW_1000 = 999.5;

/** The largest unit that keeps `bitsPerSecond` at or above 1 and, rounded, below 1000 (Mbit/s for 0). */
export function rateScale(bitsPerSecond: number, unit: RateUnit = "bits"): RateScale {
  const scales = unit === "bits" ? BIT_SCALES : BYTE_SCALES;
  const magnitude = Math.abs(bitsPerSecond);
  if (magnitude === 0) return scales[2]!;
  let chosen = scales[0]!;
  for (const scale of scales.slice(1)) if (magnitude >= (scale.divisor * ROUNDS_BELOW_1000) / 1000) chosen = scale;
  return chosen;
}

/** Table form: 985e6 → "985 Mbit/s" or "123 MB/s", 4.7e9 → "4.70 Gbit/s"; null → "–". `scale` fixes the unit (a chart's axis). */
export function formatRate(
  bitsPerSecond: number | null | undefined,
  unit: RateUnit = "bits",
  scale?: RateScale,
): string {
  if (bitsPerSecond == null || !Number.isFinite(bitsPerSecond)) return "–";
  const chosen = scale ?? rateScale(bitsPerSecond, unit);
  return `${formatNumber(bitsPerSecond / chosen.divisor)} ${chosen.label}`;
}

/** Word form: 4.7e9 → "4.7 Gbit/s", 941e6 → "941 Mbit/s", 1e9 → "1 Gbit/s", 0 → "0 bit/s". */
export function formatBitRate(bitsPerSecond: number): string {
  const scale = bitsPerSecond === 0 ? BIT_SCALES[0]! : rateScale(bitsPerSecond, "bits");
  return `${formatFigure(bitsPerSecond / scale.divisor)} ${scale.label}`;
}

// ---------------------------------------------------------------- link speeds (Mbit/s as NICs report them)

/** A link speed as a rate, in words and in a NIC's details: 10000 → "10 Gbit/s", 2500 → "2.5 Gbit/s"; null → "unknown". */
export function formatLinkSpeed(speedMbps: number | null | undefined): string {
  return speedMbps == null ? "unknown" : formatBitRate(speedMbps * 1e6);
}

/**
 * A link speed as homelab users name their gear: 1000 → "1G", 2500 → "2.5G", 100 → "100M"; null → "unknown".
 * Kept apart from formatLinkSpeed because lists, cards and pickers show it in a narrow column or beside a
 * link's name ("ab-1g · 1G"), where "10 Gbit/s" does not fit and reads as a measurement, not a port's class.
 */
export function formatLinkSpeedCompact(speedMbps: number | null | undefined): string {
  if (speedMbps == null) return "unknown";
  if (speedMbps >= 1000) return `${formatFigure(speedMbps / 1000)}G`;
  return `${formatFigure(speedMbps)}M`;
}

// ---------------------------------------------------------------- sizes

/** 1.2e10 → "12.0 GB": bytes with decimal prefixes, like iperf3's summaries; null → "–". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null || !Number.isFinite(bytes)) return "–";
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let value = bytes;
  let index = 0;
  while (Math.abs(value) >= ROUNDS_BELOW_1000 && index < units.length - 1) {
    value /= 1000;
    index += 1;
  }
  return `${formatNumber(value)} ${units[index]}`;
}

// ---------------------------------------------------------------- percentages

/** Table form: 94.27 → "94.3 %" (`digits` decimals, a space before the sign); null → "–". */
export function formatPercent(percent: number | null | undefined, digits = 1): string {
  if (percent == null || !Number.isFinite(percent)) return "–";
  return `${percent.toFixed(digits)} %`;
}

/**
 * Word form, in a sentence: whole numbers ("71%"), one decimal below 10 ("0.1%") and short of 100 ("99.5%"),
 * so that a small loss never reads as "0%" and a near miss never as "100%".
 */
export function formatPercentWord(percent: number): string {
  const whole = Math.round(percent);
  if (Math.abs(percent) < 10 || (whole === 100 && percent < 100)) return `${Number(percent.toFixed(1))}%`;
  return `${whole}%`;
}

// ---------------------------------------------------------------- durations

/** A measured time: "45 s", "3 min 20 s", "5 min", "1 h 05 min" (to the second). */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  if (total < 60) return `${total} s`;
  if (total < 3600) {
    const rest = total % 60;
    return rest ? `${Math.floor(total / 60)} min ${rest} s` : `${total / 60} min`;
  }
  const minutes = Math.floor((total % 3600) / 60);
  return `${Math.floor(total / 3600)} h ${String(minutes).padStart(2, "0")} min`;
}

/**
 * An estimate ("about 2 min 30 s" before a plan runs): rounded to 5 s, at least 5 s, and no padded minutes
 * ("1 h 5 min"), since it is read as a rough figure, never compared in a column with measured times.
 */
export function formatDurationEstimate(seconds: number): string {
  const rounded = Math.max(5, Math.round(seconds / 5) * 5);
  const hours = Math.floor(rounded / 3600);
  const minutes = Math.floor((rounded % 3600) / 60);
  const rest = rounded % 60;
  if (hours > 0) return `${hours} h${minutes ? ` ${minutes} min` : ""}`;
  if (minutes > 0) return `${minutes} min${rest ? ` ${rest} s` : ""}`;
  return `${rest} s`;
}

// ---------------------------------------------------------------- dates

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["minute", 60],
  ["hour", 3600],
  ["day", 86_400],
  ["week", 604_800],
  ["month", 2_629_800],
  ["year", 31_557_600],
];

/** "3 min ago", "in 2 h", "just now": `date` relative to `now`. */
export function formatRelativeTime(date: Date, now: Date): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const magnitude = Math.abs(seconds);
  if (magnitude < 45) return "just now";
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  let chosen = RELATIVE_STEPS[0]!;
  for (const step of RELATIVE_STEPS) if (magnitude >= step[1]) chosen = step;
  return format.format(Math.round(seconds / chosen[1]), chosen[0]);
}
