import { withApiAuth } from "@/lib/api/auth";
import { idFromParams, readJsonBody } from "@/lib/api/request";
import { AppError } from "@/lib/errors";
import { getExperiment } from "@/lib/experiments/reads";
import { updateExperimentNote } from "@/lib/notes/notes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/experiments/:id: plan, steps, result (rates in bits/s) and the answer. */
export const GET = withApiAuth("read", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  const experiment = await getExperiment(id);
  if (!experiment) throw new AppError("not-found", `Experiment ${id} does not exist.`);
  return Response.json(experiment);
});

/** PATCH /api/experiments/:id `{ note, labels }`: what an operator writes down about an experiment. */
export const PATCH = withApiAuth("run", async (request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  return Response.json(await updateExperimentNote(id, await readJsonBody(request)));
});
