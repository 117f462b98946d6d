// Chart colours, shared by the history, overview and compare charts.

/** Series colours that read on white and on slate-950: one per protocol and direction. */
export const SERIES_COLORS = {
  "tcp:a-to-b": "#0284c7",
  "tcp:b-to-a": "#7c3aed",
  "tcp:bidir": "#0d9488",
  "udp:a-to-b": "#ea580c",
  "udp:b-to-a": "#db2777",
  "udp:bidir": "#ca8a04",
} as const;

/** Distinct colours for runs compared side by side. */
export const COMPARE_COLORS = [
  "#0284c7",
  "#ea580c",
  "#16a34a",
  "#9333ea",
  "#dc2626",
  "#0d9488",
  "#ca8a04",
  "#db2777",
] as const;
