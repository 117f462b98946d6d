import { withApiAuth } from "@/lib/api/auth";
import { invalidInput } from "@/lib/errors";
import { getOverview, TIMELINE_RANGES, type TimelineRange } from "@/lib/overview/reads";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const RANGES = Object.keys(TIMELINE_RANGES) as TimelineRange[];

/**
 * GET /api/overview: what the overview shows, `?range=6h|24h|7d` (24h) for the timeline:
 * the counts, every link's card (latest result, last and active run, sparkline) and the
 * throughput of every run in the range. Readable without an account when the overview is public.
 */
export const GET = withApiAuth(
  "read",
  async (request: Request) => {
    const url = new URL(request.url);
    for (const field of url.searchParams.keys()) {
      if (field !== "range")
        throw invalidInput([{ field, message: "is not a known query parameter (allowed: range)" }]);
    }
    const raw = url.searchParams.get("range") ?? "24h";
    if (!(RANGES as string[]).includes(raw))
      throw invalidInput([{ field: "range", message: `must be one of ${RANGES.join(", ")}` }]);
    return Response.json(await getOverview({ range: raw as TimelineRange }));
  },
  { public: true },
);
