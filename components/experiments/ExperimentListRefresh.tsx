"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { ACTIVE_REFETCH_MS } from "@/components/queries";

/**
 * Renders nothing: while an experiment in the list is queued or running, asks the server for
 * the page again as often as the run tables ask for their rows, so its status, steps and
 * answer fill in without a reload.
 */
export function ExperimentListRefresh({ isActive }: { isActive: boolean }) {
  const router = useRouter();
  useEffect(() => {
    if (!isActive) return;
    const timer = setInterval(() => router.refresh(), ACTIVE_REFETCH_MS);
    return () => clearInterval(timer);
  }, [isActive, router]);
  return null;
}
