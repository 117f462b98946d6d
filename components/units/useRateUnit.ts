"use client";

import { useCallback, useSyncExternalStore } from "react";
import type { RateUnit } from "@/lib/format";

// Remembered per browser: users who think in MB/s should not switch on every page.
const STORAGE_KEY = "wirespeed.rateUnit";
const CHANGE_EVENT = "wirespeed:rate-unit";

function readUnit(): RateUnit {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === "bytes" ? "bytes" : "bits";
  } catch {
    return "bits";
  }
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(CHANGE_EVENT, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(CHANGE_EVENT, onChange);
    window.removeEventListener("storage", onChange);
  };
}

/** The viewer's rate unit (bits/s or bytes/s) and a setter that every mounted component follows. */
export function useRateUnit(): [RateUnit, (unit: RateUnit) => void] {
  const unit = useSyncExternalStore(subscribe, readUnit, () => "bits" as const);
  const setUnit = useCallback((next: RateUnit) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Private mode without storage: the switch still applies to this page.
    }
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }, []);
  return [unit, setUnit];
}
