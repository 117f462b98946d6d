import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { AppError } from "@/lib/errors";
import { deleteSchedule, getSchedule, updateSchedule } from "@/lib/schedules/store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

/** GET /api/schedules/:id: the schedule with `nextRuns` (its next 5 starts) and `lastRuns` (its latest 20 starts, newest first). */
export const GET = withApiAuth("read", async (_request: Request, { params }: Context) => {
  const id = await idFromParams(params);
  const schedule = await getSchedule(id);
  if (!schedule) throw new AppError("not-found", `Schedule ${id} does not exist.`);
  return Response.json(schedule);
});

/** PATCH /api/schedules/:id: any subset of the fields; the whole schedule is validated again. */
export const PATCH = withApiAuth("monitor", async (request: Request, { params }: Context) => {
  const id = await idFromParams(params);
  return Response.json(await updateSchedule(id, await readJsonBody(request)));
});

/** DELETE /api/schedules/:id: 204; the runs it started stay. */
export const DELETE = withApiAuth("monitor", async (_request: Request, { params }: Context) => {
  await deleteSchedule(await idFromParams(params));
  return new Response(null, { status: 204 });
});
