// Class names shared by server and client components (no "use client": server pages call these).

const BUTTON_VARIANTS = {
  primary:
    "bg-sky-700 text-white hover:bg-sky-800 disabled:bg-sky-700/60 dark:bg-sky-500 dark:text-slate-950 dark:hover:bg-sky-400 dark:disabled:bg-sky-500/60",
  secondary:
    "border border-slate-300 bg-white text-slate-900 hover:bg-slate-100 disabled:text-slate-500 " +
    "dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800 " +
    "dark:disabled:text-slate-400",
  danger:
    "bg-red-700 text-white hover:bg-red-800 disabled:bg-red-700/60 dark:bg-red-500 dark:text-slate-950 dark:hover:bg-red-400",
} as const;

export const FOCUS_RING =
  "outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 " +
  "focus-visible:ring-offset-white dark:focus-visible:ring-offset-slate-950";

// A link among text or in a table cell: always underlined, so it is told from the text around it
// by more than its colour (axe's link-in-text-block); the underline darkens on hover.
export const TEXT_LINK =
  "rounded text-sky-800 underline decoration-sky-800/40 underline-offset-2 hover:decoration-current " +
  `dark:text-sky-300 dark:decoration-sky-300/50 ${FOCUS_RING}`;

export type ButtonVariant = keyof typeof BUTTON_VARIANTS;

export function buttonClass(variant: ButtonVariant = "secondary"): string {
  return (
    "inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 " +
    `text-sm font-medium disabled:cursor-not-allowed ${FOCUS_RING} ${BUTTON_VARIANTS[variant]}`
  );
}
