"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { ACTIVE_REFETCH_MS, fetchApi } from "@/components/queries";
import type { LatencySample } from "@/lib/diagnosis/contract";

// Under ["runs", …]: invalidateRunViews, which runs when a run ends, asks for the last pings too.
const runLatencyKey = (runId: number) => ["runs", runId, "latency"] as const;
const runLatencyPath = (runId: number) => `/api/runs/${runId}/latency`;

const NO_SAMPLES: LatencySample[] = [];

/**
 * The pings of a run that measures latency (`GET /api/runs/:id/latency`): asked every 2 s while
 * the run is active, once more when it ends, then kept.
 */
export function useRunLatency(runId: number, { isMeasured, isActive }: { isMeasured: boolean; isActive: boolean }) {
  const query = useQuery({
    queryKey: runLatencyKey(runId),
    queryFn: ({ signal }) => fetchApi<{ samples: LatencySample[] }>(runLatencyPath(runId), { signal }),
    enabled: isMeasured,
    refetchInterval: isActive ? ACTIVE_REFETCH_MS : false,
    // An ended run's pings never change.
    staleTime: isActive ? 0 : Infinity,
  });
  const { refetch } = query;
  const wasActive = useRef(isActive);
  useEffect(() => {
    // The page re-renders with the final status: the last pings were stored with it.
    if (wasActive.current && !isActive && isMeasured) void refetch();
    wasActive.current = isActive;
  }, [isActive, isMeasured, refetch]);
  const samples = query.data?.samples;
  return { samples: Array.isArray(samples) ? samples : NO_SAMPLES, error: query.error, refetch };
}
