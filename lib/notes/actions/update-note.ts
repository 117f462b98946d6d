"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction } from "@/lib/action";
import { parseInput } from "@/lib/errors";
import { updateLink } from "@/lib/inventory/links";
import { IdSchema } from "@/lib/inventory/schemas";
import { NOTE_TARGETS } from "@/lib/notes/contract";
import { updateExperimentNote, updateRunNote } from "@/lib/notes/notes";

const TargetSchema = z.strictObject({
  kind: z.enum(NOTE_TARGETS, { error: `must be one of ${NOTE_TARGETS.join(", ")}` }),
  id: IdSchema,
});

/**
 * The note editor of a run's, an experiment's and a link's page: the same writes as PATCH
 * /api/runs/:id, /api/experiments/:id and /api/links/:id with `{ note, labels }`. A link's note is
 * an inventory change (operators and admins, as its other fields); a run's and an experiment's
 * belong with running tests.
 */
export async function updateNoteAction(input: { kind: string; id: number; note: string; labels: string[] }) {
  return runAction("update-note", input.kind === "link" ? "inventory" : "run", async () => {
    const target = parseInput(TargetSchema, { kind: input.kind, id: input.id });
    const body = { note: input.note, labels: input.labels };
    if (target.kind === "run") {
      const saved = await updateRunNote(target.id, body);
      revalidatePath(`/runs/${target.id}`);
      return saved;
    }
    if (target.kind === "experiment") {
      const saved = await updateExperimentNote(target.id, body);
      revalidatePath(`/experiments/${target.id}`);
      return saved;
    }
    const link = await updateLink(target.id, body);
    revalidatePath(`/links/${target.id}`);
    return { id: link.id, note: link.note, labels: link.labels };
  });
}
