"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** Re-renders the page every few seconds while one of its runs is still queued or running. */
export function RefreshWhileActive({ isActive, everyMs = 3000 }: { isActive: boolean; everyMs?: number }) {
  const router = useRouter();
  useEffect(() => {
    if (!isActive) return;
    const timer = setInterval(() => router.refresh(), everyMs);
    return () => clearInterval(timer);
  }, [isActive, everyMs, router]);
  return null;
}
