import { withApiAuth } from "@/lib/api/auth";
import { AppError } from "@/lib/errors";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { getRunDiagnosis } from "@/lib/diagnosis/reads";
import { updateRunNote } from "@/lib/notes/notes";
import { getRunDetail } from "@/lib/runs/lists";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/runs/:id: status, options, commands, summary, error and both raw outputs; both ends'
 * `environment`, the `hints` drawn from the run, and `latency` when the run measured it.
 */
export const GET = withApiAuth("read", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  const [run, diagnosis] = await Promise.all([getRunDetail(id), getRunDiagnosis(id)]);
  if (!run || !diagnosis) throw new AppError("not-found", `Run ${id} does not exist.`);
  return Response.json({
    ...run,
    environment: diagnosis.environment ?? { client: null, server: null },
    hints: diagnosis.hints,
    ...(diagnosis.latency
      ? {
          latency: {
            idleMedianMs: diagnosis.latency.idleMedianMs,
            idleP95Ms: diagnosis.latency.idleP95Ms,
            loadedMedianMs: diagnosis.latency.loadedMedianMs,
            loadedP95Ms: diagnosis.latency.loadedP95Ms,
            grade: diagnosis.latency.grade,
            sent: diagnosis.latency.sent,
            lost: diagnosis.latency.lost,
          },
        }
      : {}),
  });
});

/** PATCH /api/runs/:id `{ note, labels }`: what an operator writes down about a run (either or both). */
export const PATCH = withApiAuth("run", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  return Response.json(await updateRunNote(id, await readJsonBody(request)));
});
