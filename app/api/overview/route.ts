import { withApiAuth } from "@/lib/api/auth";
import { invalidInput } from "@/lib/errors";
import { checkTimelineZoom, isTimelineRange, TIMELINE_RANGES } from "@/lib/overview/contract";
import { getOverview } from "@/lib/overview/reads";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const RANGES = Object.keys(TIMELINE_RANGES);
const PARAMETERS = ["range", "from", "to"];

/**
 * GET /api/overview: what the overview shows, `?range=1h|6h|24h|7d` (24h) for the timeline, and
 * `from` and `to` (ms since 1970) to zoom it into a span: the counts, every link's card (latest
 * result, last and active run, sparkline) and the throughput of every run in the range or span.
 * Readable without an account when the overview is public.
 */
export const GET = withApiAuth(
  "read",
  async (request: Request) => {
    const url = new URL(request.url);
    for (const field of url.searchParams.keys()) {
      if (!PARAMETERS.includes(field))
        throw invalidInput([{ field, message: `is not a known query parameter (allowed: ${PARAMETERS.join(", ")})` }]);
    }
    const range = url.searchParams.get("range") ?? "24h";
    if (!isTimelineRange(range))
      throw invalidInput([{ field: "range", message: `must be one of ${RANGES.join(", ")}` }]);
    const { zoom, problems } = checkTimelineZoom(url.searchParams.get("from"), url.searchParams.get("to"));
    if (problems.length > 0) throw invalidInput(problems);
    return Response.json(await getOverview({ range, zoom }));
  },
  { public: true },
);
