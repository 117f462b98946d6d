// The alerts' TanStack Query keys and the API path behind them: the nav's count of firing
// alerts asks the REST API, and whatever changes an alert (acknowledge) invalidates it.
import type { QueryClient } from "@tanstack/react-query";

export const alertQueryKeys = {
  all: () => ["alerts"] as const,
  firing: () => ["alerts", "firing"] as const,
};

// One row is enough: the count is the answer's total.
export const FIRING_ALERTS_PATH = "/api/alerts?status=firing&pageSize=1";

/** After an alert changed: the nav's count (and any alert list in the cache) asks again. */
export function invalidateAlertViews(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: alertQueryKeys.all() });
}
