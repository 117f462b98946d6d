"use client";

import type { ReactElement } from "react";
import { ResponsiveContainer } from "recharts";

// Whole class names, one per size: Tailwind finds only what is written out.
const SIZES = {
  small: "h-48 w-full overflow-hidden text-slate-600 sm:h-56 dark:text-slate-300",
  medium: "h-56 w-full overflow-hidden text-slate-600 sm:h-64 dark:text-slate-300",
  large: "h-64 w-full overflow-hidden text-slate-600 sm:h-72 dark:text-slate-300",
  tall: "h-72 w-full overflow-hidden text-slate-600 sm:h-80 dark:text-slate-300",
  /** as high as `height` says */
  fitted: "w-full overflow-hidden text-slate-600 dark:text-slate-300",
} as const;

/**
 * The box every chart draws in: its size, the text colour its axes and grid take, and one name for
 * screen readers (role img, `label`), the chart filling it. `data-*` attributes go on the box.
 */
export function ChartFrame({
  size,
  height,
  label,
  children,
  ...data
}: {
  size: keyof typeof SIZES;
  /** in pixels, with the "fitted" size */
  height?: number;
  label: string;
  children: ReactElement;
} & { [attribute: `data-${string}`]: string | number | undefined }) {
  return (
    <div
      className={SIZES[size]}
      style={height === undefined ? undefined : { height }}
      role="img"
      aria-label={label}
      {...data}
    >
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}
