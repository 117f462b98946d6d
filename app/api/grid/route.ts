import { withApiAuth } from "@/lib/api/auth";
import { invalidInput } from "@/lib/errors";
import { getGrid } from "@/lib/grid/reads";
import { readGridQuery } from "@/lib/grid/schemas";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/grid: the lab as a grid, `?hostIds=1,2,3` or `?tag=rack1` for its hosts (default: every host
 * a link joins) and `?staleDays=` (default 7) for the age past which a result is stale. Viewers may read it.
 */
export const GET = withApiAuth("read", async (request: Request) => {
  const { query, errors } = readGridQuery(new URL(request.url).searchParams);
  if (errors.length > 0) throw invalidInput(errors);
  return Response.json(await getGrid(query));
});
