import { withApiAuth } from "@/lib/api/auth";
import { invalidRequest } from "@/lib/api/errors";
import { queryInteger } from "@/lib/api/pagination";
import { parseId } from "@/lib/api/request";
import type { FieldError } from "@/lib/inventory/errors";
import { listRunRows, RUN_PAGE_SIZE, type RunFilters } from "@/lib/queries/runs";
import { RUN_DIRECTIONS } from "@/lib/runs/request";
import { RUN_STATUSES } from "@/lib/runs/serialize";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const QUERY_FIELDS = ["linkId", "status", "protocol", "direction", "parallel", "page", "pageSize"];

function oneOf<T extends string>(url: URL, field: string, allowed: readonly T[], errors: FieldError[]): T | undefined {
  const raw = url.searchParams.get(field);
  if (raw === null || raw === "") return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  errors.push({ field, message: `must be one of ${allowed.join(", ")}` });
  return undefined;
}

/** `?linkId=&status=&protocol=&direction=&parallel=&page=&pageSize=`; every bad parameter is named in one 400. */
function runListQueryOf(url: URL): { filters: RunFilters; page: number; pageSize: number } {
  const errors: FieldError[] = [];
  for (const field of url.searchParams.keys()) {
    if (!QUERY_FIELDS.includes(field)) errors.push({ field, message: `is not a known query parameter (allowed: ${QUERY_FIELDS.join(", ")})` });
  }
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      const fields = (error as { fields?: FieldError[] }).fields;
      if (!fields) throw error;
      errors.push(...fields);
      return undefined;
    }
  };
  const rawLinkId = url.searchParams.get("linkId");
  const filters: RunFilters = {
    linkId: rawLinkId === null || rawLinkId === "" ? undefined : attempt(() => parseId(rawLinkId, "linkId")),
    status: oneOf(url, "status", RUN_STATUSES, errors),
    protocol: oneOf(url, "protocol", ["tcp", "udp"] as const, errors),
    direction: oneOf(url, "direction", RUN_DIRECTIONS, errors),
    parallel: url.searchParams.has("parallel") ? attempt(() => queryInteger(url, "parallel", { min: 1, max: 128, fallback: 1 })) : undefined,
  };
  const page = attempt(() => queryInteger(url, "page", { min: 1, max: 1_000_000, fallback: 1 }));
  // 25 by default: a page of a dashboard table.
  const pageSize = attempt(() => queryInteger(url, "pageSize", { min: 1, max: 500, fallback: RUN_PAGE_SIZE }));
  if (errors.length > 0 || page === undefined || pageSize === undefined) throw invalidRequest(errors);
  return { filters, page, pageSize };
}

/**
 * GET /api/runs: runs across all links, newest first, one page at a time, filtered by
 * `linkId`, `status`, `protocol`, `direction` and `parallel`. The dashboard's run tables
 * read it; each row has its options, result, share of line rate and place in its queue.
 */
export const GET = withApiAuth("read", async (request: Request) => {
  return Response.json(await listRunRows(runListQueryOf(new URL(request.url))));
});
