import "server-only";
import { recordAudit } from "@/lib/auth/audit";
import { db } from "@/lib/db";
import { AppError, parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { NoteUpdateSchema, labelsOf } from "@/lib/notes/contract";

// Notes and labels on runs and experiments: written by an operator (PATCH /api/runs/:id,
// /api/experiments/:id, and the note editor of their pages), read with the run or experiment.
// A link's note and labels are link fields (lib/inventory/links.ts updateLink), checked by the
// same schemas. A run's labels are rows of RunLabel, so that the runs list filters on one
// through an index; an experiment's and a link's are a JSON list.

export type NoteJson = { id: number; note: string; labels: string[] };

/** Sets a run's note, labels or both; answers what the run now has. */
export async function updateRunNote(id: number, input: unknown): Promise<NoteJson> {
  const runId = parseInput(IdSchema, id, "id");
  const body = parseInput(NoteUpdateSchema, input);
  const run = await db.$transaction(async (tx) => {
    const found = await tx.run.findUnique({ where: { id: runId }, select: { id: true } });
    if (!found) return null;
    if (body.labels !== undefined) {
      await tx.runLabel.deleteMany({ where: { runId } });
      if (body.labels.length > 0) {
        await tx.runLabel.createMany({ data: body.labels.map((label) => ({ runId, label })) });
      }
    }
    return tx.run.update({
      where: { id: runId },
      data: body.note === undefined ? {} : { note: body.note },
      select: { id: true, note: true, labels: { select: { label: true }, orderBy: { label: "asc" } } },
    });
  });
  if (!run) throw new AppError("not-found", `Run ${runId} does not exist.`);
  await recordAudit("run.note", "run", runId, changedFields(body));
  return { id: run.id, note: run.note, labels: run.labels.map(({ label }) => label) };
}

/** Sets an experiment's note, labels or both; answers what the experiment now has. */
export async function updateExperimentNote(id: number, input: unknown): Promise<NoteJson> {
  const experimentId = parseInput(IdSchema, id, "id");
  const body = parseInput(NoteUpdateSchema, input);
  const updated = await db.experiment.updateMany({
    where: { id: experimentId },
    data: { note: body.note, labels: body.labels },
  });
  if (updated.count === 0) throw new AppError("not-found", `Experiment ${experimentId} does not exist.`);
  const experiment = await db.experiment.findUniqueOrThrow({
    where: { id: experimentId },
    select: { id: true, note: true, labels: true },
  });
  await recordAudit("experiment.note", "experiment", experimentId, changedFields(body));
  return { id: experiment.id, note: experiment.note, labels: labelsOf(experiment.labels) };
}

/** The audit line: which fields changed, and the labels (never the note's text, which may be long). */
function changedFields(body: { note?: string; labels?: string[] }): string {
  return [
    ...(body.note === undefined ? [] : ["note"]),
    ...(body.labels === undefined ? [] : [`labels: ${body.labels.join(", ") || "none"}`]),
  ].join("; ");
}
