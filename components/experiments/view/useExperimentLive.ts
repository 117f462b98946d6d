"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { apiPaths, invalidateRunViews, queryKeys } from "@/components/queries";
import { isActiveExperimentStatus, type ExperimentStepJson } from "@/lib/experiments/contract";
import { ExperimentSampleEventSchema, LiveExperimentSeries, type LiveStep } from "./live-series";
import { onStreamAccessEnded } from "@/components/runs/stream-access";

// Redraw at most this often: a step of 16 channels at 0.1 s intervals sends 160 samples a second.
const REDRAW_MS = 250;
// Rows and steps come in bursts when a step ends: one refetch for the burst.
const REFETCH_DELAY_MS = 150;

/**
 * Follows a running experiment over server-sent events: the current step's samples make the
 * live chart; a step, row or status event refetches the experiment, so the table fills in
 * row by row. Once the status is final the stream closes and the views that list runs refresh.
 */
export function useExperimentLive(
  experimentId: number,
  isActive: boolean,
  steps: ExperimentStepJson[],
): LiveStep | null {
  const queryClient = useQueryClient();
  const router = useRouter();
  const [live, setLive] = useState<LiveStep | null>(null);
  const seriesRef = useRef<LiveExperimentSeries | null>(null);
  const stepsRef = useRef(steps);

  // What the experiment says of its steps tells which run belongs to which step.
  useEffect(() => {
    stepsRef.current = steps;
    for (const step of steps) seriesRef.current?.noteStep(step);
  }, [steps]);

  useEffect(() => {
    if (!isActive) return;
    const series = new LiveExperimentSeries();
    seriesRef.current = series;
    for (const step of stepsRef.current) series.noteStep(step);
    let redraw: ReturnType<typeof setTimeout> | null = null;
    let refetch: ReturnType<typeof setTimeout> | null = null;
    const scheduleRedraw = () => {
      redraw ??= setTimeout(() => {
        redraw = null;
        setLive(series.snapshot());
      }, REDRAW_MS);
    };
    const scheduleRefetch = () => {
      refetch ??= setTimeout(() => {
        refetch = null;
        void queryClient.invalidateQueries({ queryKey: queryKeys.experiment(experimentId) });
      }, REFETCH_DELAY_MS);
    };
    // Same-origin GET: the session cookie goes along. EventSource resumes by itself with Last-Event-ID.
    const source = new EventSource(apiPaths.experimentEvents(experimentId));
    source.addEventListener("sample", (event) => {
      const parsed = ExperimentSampleEventSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (parsed.success && series.add(parsed.data)) scheduleRedraw();
    });
    source.addEventListener("step", (event) => {
      const step = JSON.parse((event as MessageEvent<string>).data) as ExperimentStepJson;
      if (typeof step?.index === "number" && Array.isArray(step.runIds)) series.noteStep(step);
      scheduleRedraw();
      scheduleRefetch();
    });
    source.addEventListener("row", scheduleRefetch);
    // Access ended (signed out, token revoked): the page re-renders, which asks to sign in again.
    onStreamAccessEnded(source, () => router.refresh());
    source.addEventListener("status", (event) => {
      const { status } = JSON.parse((event as MessageEvent<string>).data) as { status: string };
      scheduleRefetch();
      if (!isActiveExperimentStatus(status)) {
        source.close();
        // Its runs belong in the run lists, the links' history and the overview now.
        void invalidateRunViews(queryClient);
        void queryClient.invalidateQueries({ queryKey: queryKeys.experiments() });
      }
    });
    return () => {
      source.close();
      if (redraw) clearTimeout(redraw);
      if (refetch) clearTimeout(refetch);
      seriesRef.current = null;
    };
  }, [experimentId, isActive, queryClient, router]);

  return isActive ? live : null;
}
