import { withApiAuth } from "@/lib/api/auth";
import { queryId } from "@/lib/api/pagination";
import { readJsonBody } from "@/lib/api/request";
import { createSchedule, listSchedules } from "@/lib/schedules/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/schedules: `{ schedules }` in the order they were made; `?linkId=` those whose test or plan runs on that link. */
export const GET = withApiAuth("read", async (request: Request) => {
  const url = new URL(request.url);
  const linkId = queryId(url, "linkId");
  return Response.json({ schedules: await listSchedules({ linkId }) });
});

/**
 * POST /api/schedules: `{ name, linkId | experimentPlan, options, direction, clientSide, cron | everyMinutes, timezone,
 * slipSeconds, enabled }`; 201 with the schedule.
 */
export const POST = withApiAuth("monitor", async (request: Request) => {
  const schedule = await createSchedule(await readJsonBody(request));
  return Response.json(schedule, { status: 201, headers: { Location: `/api/schedules/${schedule.id}` } });
});
