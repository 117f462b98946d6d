// Run filters as URL search parameters, so that a filtered page can be linked and reloaded.
import { RUN_DIRECTIONS, type RunDirection } from "@/lib/runs/request";
import { RUN_STATUSES, type RunStatus } from "@/lib/runs/serialize";

export type SearchParams = Record<string, string | string[] | undefined>;

export type RunFilterValues = { protocol?: "tcp" | "udp"; direction?: RunDirection; parallel?: number; status?: RunStatus; linkId?: number; page: number };

// Prisma's Int is 32-bit: a larger id cannot exist, and passing one to a query throws.
const MAX_ID = 2_147_483_647;

function single(params: SearchParams, key: string): string | undefined {
  const value = params[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A whole number in plain decimal within [min, max], else undefined. Number() alone would take
 * "1e12", "0x10", " 5 " and "" (as 0), and an id beyond 32 bits made the page's query throw.
 */
function wholeNumber(text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined || !/^[0-9]{1,10}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

function oneOf<T extends string>(text: string | undefined, allowed: readonly T[]): T | undefined {
  return (allowed as readonly string[]).includes(text ?? "") ? (text as T) : undefined;
}

/** Reads filters from search params, ignoring values that are not allowed (a stale link still opens). */
export function parseRunFilters(params: SearchParams): RunFilterValues {
  return {
    protocol: oneOf(single(params, "protocol"), ["tcp", "udp"] as const),
    direction: oneOf(single(params, "direction"), RUN_DIRECTIONS),
    parallel: wholeNumber(single(params, "streams"), 1, 128),
    status: oneOf(single(params, "status"), RUN_STATUSES),
    linkId: wholeNumber(single(params, "link"), 1, MAX_ID),
    page: wholeNumber(single(params, "page"), 1, 1_000_000) ?? 1,
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

/**
 * What a run table asks for: a link page's table fixes its link and offers protocol, direction
 * and streams; the runs list offers link, status and protocol. The server's first render and
 * the browser's later reads take the URL through this one function, so they ask the same.
 */
export function runTableQuery(filters: RunFilterValues, linkId?: number): RunFilterValues {
  return linkId === undefined
    ? { protocol: filters.protocol, status: filters.status, linkId: filters.linkId, page: filters.page }
    : { protocol: filters.protocol, direction: filters.direction, parallel: filters.parallel, linkId, page: filters.page };
}
