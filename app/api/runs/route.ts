import { withApiAuth } from "@/lib/api/auth";
import { invalidInput } from "@/lib/errors";
import { listRunRows } from "@/lib/runs/lists";
import { readRunListQuery, RUN_PAGE_SIZE } from "@/lib/runs/filters";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/runs: runs across all links, newest first, one page at a time, filtered by
 * `linkId`, `status`, `protocol`, `direction` and `parallel`. The dashboard's run tables
 * read it; each row has its options, result, share of line rate and place in its queue.
 */
export const GET = withApiAuth("read", async (request: Request) => {
  // `?linkId=&status=&protocol=&direction=&parallel=&page=&pageSize=`: every bad parameter is named in one 400.
  const { query, errors } = readRunListQuery(new URL(request.url).searchParams, "api");
  if (errors.length > 0) throw invalidInput(errors);
  const { page, pageSize = RUN_PAGE_SIZE, ...filters } = query;
  return Response.json(await listRunRows({ filters, page, pageSize }));
});
