// Unit math for iperf3's text output: byte counts are 1024-based, bit rates 1000-based,
// and `-f K|M|G|T` prints rates as 1024-based bytes per second (e.g. `1350 MBytes/sec`).

const BINARY_PREFIX: Record<string, number> = {
  "": 1,
  K: 1024,
  M: 1024 ** 2,
  G: 1024 ** 3,
  T: 1024 ** 4,
};

const DECIMAL_PREFIX: Record<string, number> = {
  "": 1,
  K: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
};

// lookup tables, not regexes: the parser asks for every line of a million-line log
const BYTES_UNITS = new Map<string, number>(
  Object.entries(BINARY_PREFIX).map(([prefix, factor]) => [`${prefix}Bytes`, factor]),
);
const RATE_UNITS = new Map<string, number>([
  ...Object.entries(DECIMAL_PREFIX).map(([prefix, factor]): [string, number] => [`${prefix}bits/sec`, factor]),
  ...Object.entries(BINARY_PREFIX).map(([prefix, factor]): [string, number] => [`${prefix}Bytes/sec`, factor * 8]),
]);

/** Multiplier of a byte unit such as `MBytes` (1024-based), or undefined if it is not one. */
export function bytesUnitFactor(unit: string): number | undefined {
  return BYTES_UNITS.get(unit);
}

/** bits/s per unit of a rate unit such as `Mbits/sec` or `MBytes/sec`, or undefined. */
export function rateUnitFactor(unit: string): number | undefined {
  return RATE_UNITS.get(unit);
}

const QUANTITY_PATTERN = /^\s*(-?\d+(?:\.\d+)?)\s*(\S+)\s*$/;

/** `"1000 MBytes"` → 1048576000. Throws on anything that is not an iperf3 byte count. */
export function parseBytes(text: string): number {
  const match = QUANTITY_PATTERN.exec(text);
  const factor = match ? bytesUnitFactor(match[2]!) : undefined;
  if (!match || factor === undefined) throw new Error(`not an iperf3 byte count: "${text}"`);
  // Math.round: a printed "1.36 GBytes" times 1024^3 is not a whole number of bytes
  return Math.round(Number(match[1]) * factor);
}

/** `"923 Mbits/sec"` → 923e6; `"1350 MBytes/sec"` (from `-f M`) → 1350 × 1048576 × 8. */
export function parseRate(text: string): number {
  const match = QUANTITY_PATTERN.exec(text);
  const factor = match ? rateUnitFactor(match[2]!) : undefined;
  if (!match || factor === undefined) throw new Error(`not an iperf3 rate: "${text}"`);
  return Math.round(Number(match[1]) * factor);
}

/**
 * The largest error of a number iperf3 printed in text (`%4.2f`, `%4.1f` or `%4.0f`,
 * so about 3 significant digits): half a unit of its last printed digit, in base units.
 */
export function printedUncertainty(text: string): number {
  const match = QUANTITY_PATTERN.exec(text);
  if (!match) throw new Error(`not an iperf3 quantity: "${text}"`);
  const factor = bytesUnitFactor(match[2]!) ?? rateUnitFactor(match[2]!);
  if (factor === undefined) throw new Error(`not an iperf3 unit: "${text}"`);
  const decimals = match[1]!.split(".")[1]?.length ?? 0;
  return 0.5 * 10 ** -decimals * factor;
}

/**
 * A UDP receiver's loss in percent, as iperf3 computes it (`100.0 * lost / total`, the same
 * operations in the same order, so a -J document's `lost_percent` to the last bit); undefined
 * without datagrams (iperf3 prints `0/0 (nan%)`). Its text prints the result with `%.2g` ("36%" for
 * 35.77%), while the two counts are exact: every loss Wirespeed keeps or derives comes from here.
 */
export function lossPercent(lostPackets: number, packets: number): number | undefined {
  return packets > 0 ? (100 * lostPackets) / packets : undefined;
}

/** `1048576000` → `"1000 MBytes"`, the way iperf3 prints byte counts (for messages and tests). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let prefix = "";
  for (const next of ["K", "M", "G", "T"]) {
    if (Math.abs(value) < 1024) break;
    value /= 1024;
    prefix = next;
  }
  return `${formatSignificant(value)} ${prefix}Bytes`;
}

/** `923e6` → `"923 Mbits/sec"`, the way iperf3 prints bit rates. */
export function formatRate(bitsPerSecond: number): string {
  let value = bitsPerSecond;
  let prefix = "";
  for (const next of ["K", "M", "G", "T"]) {
    if (Math.abs(value) < 1000) break;
    value /= 1000;
    prefix = next;
  }
  return `${formatSignificant(value)} ${prefix}bits/sec`;
}

// iperf3's unit_snprintf: 2 decimals below 9.995, 1 below 99.95, none above
function formatSignificant(value: number): string {
  if (Math.abs(value) < 9.995) return value.toFixed(2);
  if (Math.abs(value) < 99.95) return value.toFixed(1);
  return value.toFixed(0);
}
