"use client";

import dynamic from "next/dynamic";
import type { ComponentProps } from "react";
import type { TimelineChart as TimelineChartType } from "./TimelineChart";

// Recharts is about 120 kB gzipped: loaded after the page so the overview's first load stays under its 250 kB budget.
const TimelineChart = dynamic(() => import("./TimelineChart").then((module) => module.TimelineChart), {
  ssr: false,
  loading: () => (
    <div
      className="h-56 w-full animate-pulse rounded-md bg-slate-100 sm:h-64 dark:bg-slate-800"
      aria-label="Loading the timeline"
      role="status"
    />
  ),
});

/** The timeline chart, drawn once its chart library has loaded. */
export function Timeline(props: ComponentProps<typeof TimelineChartType>) {
  return <TimelineChart {...props} />;
}
