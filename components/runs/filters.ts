// Run filters as URL search parameters, so that a filtered page can be linked and reloaded.
import { RUN_DIRECTIONS, type RunDirection } from "@/lib/runs/request";
import { RUN_STATUSES, type RunStatus } from "@/lib/runs/serialize";

export type SearchParams = Record<string, string | string[] | undefined>;

export type RunFilterValues = { protocol?: "tcp" | "udp"; direction?: RunDirection; parallel?: number; status?: RunStatus; linkId?: number; page: number };

function single(params: SearchParams, key: string): string | undefined {
  const value = params[key];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads filters from search params, ignoring values that are not allowed (a stale link still opens). */
export function parseRunFilters(params: SearchParams): RunFilterValues {
  const protocol = single(params, "protocol");
  const direction = single(params, "direction");
  const parallel = Number(single(params, "streams"));
  const status = single(params, "status");
  const linkId = Number(single(params, "link"));
  const page = Number(single(params, "page"));
  return {
    protocol: protocol === "tcp" || protocol === "udp" ? protocol : undefined,
    direction: (RUN_DIRECTIONS as readonly string[]).includes(direction ?? "") ? (direction as RunDirection) : undefined,
    parallel: Number.isInteger(parallel) && parallel >= 1 && parallel <= 128 ? parallel : undefined,
    status: (RUN_STATUSES as readonly string[]).includes(status ?? "") ? (status as RunStatus) : undefined,
    linkId: Number.isInteger(linkId) && linkId >= 1 ? linkId : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 1_000_000 ? page : 1,
  };
}

/** The query string of filters (and anything else given), without empty values. */
export function filterQuery(values: Partial<RunFilterValues> & { compare?: string }): string {
  const params = new URLSearchParams();
  if (values.protocol) params.set("protocol", values.protocol);
  if (values.direction) params.set("direction", values.direction);
  if (values.parallel) params.set("streams", String(values.parallel));
  if (values.status) params.set("status", values.status);
  if (values.linkId) params.set("link", String(values.linkId));
  if (values.page && values.page > 1) params.set("page", String(values.page));
  if (values.compare) params.set("compare", values.compare);
  const text = params.toString();
  return text ? `?${text}` : "";
}
