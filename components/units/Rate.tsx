"use client";

import { formatRate } from "@/lib/format";
import { useRateUnit } from "./useRateUnit";

/** A rate in the viewer's unit (bit/s or MB/s), scaled to the value. */
export function Rate({ bitsPerSecond, className }: { bitsPerSecond: number | null | undefined; className?: string }) {
  const [unit] = useRateUnit();
  return <span className={className}>{formatRate(bitsPerSecond, unit)}</span>;
}
