import { invalidInput } from "@/lib/errors";

/** A whole number from the query string within [min, max], or the default when absent; else a 400 naming it. */
export function queryInteger(
  url: URL,
  field: string,
  { min, max, fallback }: { min: number; max: number; fallback: number },
): number {
  const raw = url.searchParams.get(field);
  if (raw === null || raw === "") return fallback;
  if (/^\d{1,10}$/.test(raw)) {
    const value = Number(raw);
    if (value >= min && value <= max) return value;
  }
  throw invalidInput([{ field, message: `must be a whole number from ${min} to ${max}` }]);
}

/**
 * An id filter from the query string (`?linkId=3`): undefined when absent; present, a whole number from 1
 * (an empty value is 0, which matches nothing); else a 400 naming it.
 */
export function queryId(url: URL, field: string): number | undefined {
  return url.searchParams.has(field)
    ? queryInteger(url, field, { min: 1, max: 2_147_483_647, fallback: 0 })
    : undefined;
}

/** `?page=` (from 1) and `?pageSize=` (1-500, default 50). */
export function pageParams(request: Request): { page: number; pageSize: number } {
  const url = new URL(request.url);
  return {
    page: queryInteger(url, "page", { min: 1, max: 1_000_000, fallback: 1 }),
    pageSize: queryInteger(url, "pageSize", { min: 1, max: 500, fallback: 50 }),
  };
}
