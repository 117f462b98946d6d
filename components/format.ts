// Display formatting shared by pages. Pure functions: no React, no I/O.

/** 1000 → "1G", 2500 → "2.5G", 100 → "100M": how homelab users name link speeds. */
export function formatLinkSpeed(speedMbps: number | null | undefined): string {
  if (speedMbps == null) return "unknown";
  if (speedMbps >= 1000) return `${Number((speedMbps / 1000).toFixed(1))}G`;
  return `${speedMbps}M`;
}

/** Bits per second in the largest unit that keeps the number above 1. */
export function formatBitsPerSecond(bitsPerSecond: number | null | undefined): string {
  if (bitsPerSecond == null) return "–";
  const units = ["bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"];
  let value = bitsPerSecond;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value >= 100 ? 0 : value >= 10 ? 1 : 2)} ${units[unit]}`;
}

export { platformLabel as formatPlatform } from "@/lib/platforms";
