// The dashboard's TanStack Query keys, the API paths behind them and the one fetch helper:
// lists and history are rendered by the server first (their data handed over as
// `initialData`), then kept current by asking the same-origin REST API.
import type { QueryClient } from "@tanstack/react-query";
import { withTimelineZoom, type TimelineRange, type TimelineZoom } from "@/lib/overview/contract";
import type { Overview } from "@/lib/overview/reads";
import type { LinkHistory } from "@/lib/runs/link-reads";
import type { RunRowsPage } from "@/lib/runs/lists";
import { runListSearch, type RunListQuery } from "@/lib/runs/filters";

export type { Overview, LinkHistory, RunRowsPage };

export type { RunListQuery };

/**
 * Every key in one place. Invalidating a prefix (`queryKeys.runs()`, `queryKeys.links()`,
 * `queryKeys.overview()`) refreshes every query under it.
 */
export const queryKeys = {
  runs: () => ["runs"] as const,
  runList: (query: RunListQuery) => ["runs", "list", runListSearch(query, "api").slice(1)] as const,
  links: () => ["links"] as const,
  linkHistory: (linkId: number) => ["links", linkId, "history"] as const,
  overview: () => ["overview"] as const,
  overviewOf: (range: TimelineRange, zoom: TimelineZoom | null = null) =>
    ["overview", range, zoom?.from ?? null, zoom?.to ?? null] as const,
  experiments: () => ["experiments"] as const,
  experiment: (id: number) => ["experiments", id] as const,
};

export const apiPaths = {
  runList: (query: RunListQuery) => `/api/runs${runListSearch(query, "api")}`,
  linkHistory: (linkId: number) => `/api/links/${linkId}/history`,
  overview: (range: TimelineRange, zoom: TimelineZoom | null = null) =>
    `/api/overview?${withTimelineZoom(new URLSearchParams({ range }), zoom).toString()}`,
  experiment: (id: number) => `/api/experiments/${id}`,
  experimentEvents: (id: number) => `/api/experiments/${id}/events`,
};

/** How often a view asks again while a run in it is queued, preparing or running. */
export const ACTIVE_REFETCH_MS = 2000;
/** …and while none is: runs started elsewhere (another browser, a script) still show up. */
export const IDLE_REFETCH_MS = 30_000;

export function refetchEvery(isActive: boolean): number {
  return isActive ? ACTIVE_REFETCH_MS : IDLE_REFETCH_MS;
}

/**
 * GET of a same-origin API path (the session cookie goes along). An error answer
 * (`{ "error": { "message" } }`) becomes an Error with the API's message.
 */
export async function fetchApi<T>(path: string, { signal }: { signal?: AbortSignal } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { signal, headers: { accept: "application/json" }, credentials: "same-origin" });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error("The server did not answer: check that Wirespeed is running.");
  }
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page, say): the status says what happened.
  }
  if (!response.ok) {
    const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
    throw new Error(
      typeof message === "string" && message
        ? message
        : `The server answered ${response.status} ${response.statusText}`.trim(),
    );
  }
  return body as T;
}

/**
 * After a run was started, re-run or cancelled: every list, history and overview query
 * refetches (at once where it is on screen, on its next use otherwise).
 */
export function invalidateRunViews(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.runs() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.links() }),
    queryClient.invalidateQueries({ queryKey: queryKeys.overview() }),
  ]).then(() => undefined);
}
