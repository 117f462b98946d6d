// Rate and size formatting for both unit systems users quote: bits/s (Mbit/s, Gbit/s) and bytes/s (MB/s).

export type RateUnit = "bits" | "bytes";

type Scale = { divisor: number; label: string };

const BIT_SCALES: Scale[] = [
  { divisor: 1, label: "bit/s" },
  { divisor: 1e3, label: "kbit/s" },
  { divisor: 1e6, label: "Mbit/s" },
  { divisor: 1e9, label: "Gbit/s" },
  { divisor: 1e12, label: "Tbit/s" },
];

// Bytes/s in decimal units, as iperf3's -f M and most file-copy dialogs print them.
const BYTE_SCALES: Scale[] = [
  { divisor: 8, label: "B/s" },
  { divisor: 8e3, label: "kB/s" },
  { divisor: 8e6, label: "MB/s" },
  { divisor: 8e9, label: "GB/s" },
  { divisor: 8e12, label: "TB/s" },
];

/** The largest unit that keeps `bitsPerSecond` at or above 1 (Mbit/s for 0). */
export function rateScale(bitsPerSecond: number, unit: RateUnit): Scale {
  const scales = unit === "bits" ? BIT_SCALES : BYTE_SCALES;
  const magnitude = Math.abs(bitsPerSecond);
  if (magnitude === 0) return scales[2]!;
  let chosen = scales[0]!;
  for (const scale of scales) if (magnitude >= scale.divisor) chosen = scale;
  return chosen;
}

export function formatNumber(value: number): string {
  const magnitude = Math.abs(value);
  return value.toFixed(magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2);
}

/** 985e6 → "985 Mbit/s" or "123 MB/s"; null → "–". */
export function formatRate(bitsPerSecond: number | null | undefined, unit: RateUnit = "bits", scale?: Scale): string {
  if (bitsPerSecond == null || !Number.isFinite(bitsPerSecond)) return "–";
  const chosen = scale ?? rateScale(bitsPerSecond, unit);
  return `${formatNumber(bitsPerSecond / chosen.divisor)} ${chosen.label}`;
}

/** 1.2e10 → "12.0 GB": bytes with decimal prefixes, like iperf3's summaries. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null || !Number.isFinite(bytes)) return "–";
  const units = ["B", "kB", "MB", "GB", "TB", "PB"];
  let value = bytes;
  let index = 0;
  while (Math.abs(value) >= 1000 && index < units.length - 1) {
    value /= 1000;
    index += 1;
  }
  return `${formatNumber(value)} ${units[index]}`;
}

/** 94.27 → "94.3 %"; null → "–". */
export function formatPercent(percent: number | null | undefined, digits = 1): string {
  if (percent == null || !Number.isFinite(percent)) return "–";
  return `${percent.toFixed(digits)} %`;
}

/** Seconds as "45 s", "3 min 20 s", "1 h 05 min". */
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

/** "3 min ago", "in 2 h", "just now": relative to `now`. */
export function formatRelativeTime(date: Date, now: Date): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  const magnitude = Math.abs(seconds);
  if (magnitude < 45) return "just now";
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ["minute", 60],
    ["hour", 3600],
    ["day", 86_400],
    ["week", 604_800],
    ["month", 2_629_800],
    ["year", 31_557_600],
  ];
  let chosen = steps[0]!;
  for (const step of steps) if (magnitude >= step[1]) chosen = step;
  return format.format(Math.round(seconds / chosen[1]), chosen[0]);
}
