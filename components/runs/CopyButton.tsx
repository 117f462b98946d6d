"use client";

import { useState } from "react";

/** Copies a text (a command) to the clipboard and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <button
      type="button"
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setState("copied");
        } catch {
          // Plain http (not localhost) has no clipboard API: the text stays selectable.
          setState("failed");
        }
        setTimeout(() => setState("idle"), 2000);
      }}
      className={
        "shrink-0 rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium " +
        "text-slate-800 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 " +
        "focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 " +
        "dark:hover:bg-slate-700"
      }
    >
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : "Copy"}</span>
    </button>
  );
}
