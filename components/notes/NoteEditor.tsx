"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCan } from "@/components/auth/ViewerContext";
import { useActionForm } from "@/components/forms/use-action-form";
import { NoteLine } from "@/components/notes/NoteLine";
import { Button, TextAreaField, TextField, WithRefusal } from "@/components/ui/ui";
import { splitLabels, type NoteTarget } from "@/lib/notes/contract";
import { updateNoteAction } from "@/lib/notes/actions/update-note";

const WHAT: Record<NoteTarget, string> = { run: "this run", experiment: "this experiment", link: "this link" };

/**
 * A run's, an experiment's or a link's note and labels, as everyone reads them, with an editor for
 * those who may change them (operators and admins): "after moving the card to slot 2", "dac".
 */
export function NoteEditor({
  kind,
  id,
  note,
  labels,
}: {
  kind: NoteTarget;
  id: number;
  note: string;
  labels: string[];
}) {
  const router = useRouter();
  const mayEdit = useCan(kind === "link" ? "inventory" : "run");
  // What is saved: the props at first, then what the last save answered (a live view's props may lag).
  const [saved, setSaved] = useState({ note, labels });
  const [isEditing, setEditing] = useState(false);
  const [draftNote, setDraftNote] = useState(note);
  const [draftLabels, setDraftLabels] = useState(labels.join(" "));
  const { isPending, message, fieldErrors, submit, reset } = useActionForm();
  const isEmpty = !saved.note && saved.labels.length === 0;
  if (!mayEdit && isEmpty) return null;
  if (!isEditing) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="note">
        {isEmpty ? null : <NoteLine note={saved.note} labels={saved.labels} className="max-w-none" />}
        {mayEdit ? (
          <button
            type="button"
            onClick={() => {
              setDraftNote(saved.note);
              setDraftLabels(saved.labels.join(" "));
              reset();
              setEditing(true);
            }}
            className="text-xs text-sky-700 underline hover:text-sky-900 dark:text-sky-300 dark:hover:text-sky-100"
          >
            {isEmpty ? "Add a note or labels" : "Edit note"}
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <form
      aria-label={`Note on ${WHAT[kind]}`}
      className="max-w-xl space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-700"
      onSubmit={(event) => {
        event.preventDefault();
        submit(() => updateNoteAction({ kind, id, note: draftNote, labels: splitLabels(draftLabels) }), {
          onSuccess: (value) => {
            setSaved({ note: value.note, labels: value.labels });
            setEditing(false);
            router.refresh();
          },
        });
      }}
    >
      <TextAreaField
        label="Note"
        name="note"
        rows={2}
        maxLength={2000}
        value={draftNote}
        onChange={(event) => setDraftNote(event.target.value)}
        hint="What changed, or what this shows: “after moving the card to slot 2”."
        error={fieldErrors.note}
      />
      <TextField
        label="Labels"
        name="labels"
        value={draftLabels}
        onChange={(event) => setDraftLabels(event.target.value)}
        hint="Separated by spaces or commas: dac slot-2 jumbo. The runs list filters by one."
        error={Object.entries(fieldErrors).find(([key]) => key.startsWith("labels"))?.[1]}
        autoComplete="off"
        spellCheck={false}
      />
      <WithRefusal message={message}>
        <div className="flex gap-2">
          <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Saving…">
            Save note
          </Button>
          <Button type="button" onClick={() => setEditing(false)} disabled={isPending}>
            Cancel
          </Button>
        </div>
      </WithRefusal>
    </form>
  );
}
