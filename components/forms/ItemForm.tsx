"use client";

import { useRouter } from "next/navigation";
import type { ReactNode } from "react";
import { Button, Notice } from "@/components/ui/ui";
import type { ActionResult } from "@/lib/action";
import { asSent, formFailureMessage, useActionForm, type FieldPlacement } from "./use-action-form";

/**
 * The save of an ItemForm: `save` runs the action; done, it calls `onSaved` and refreshes the
 * page; refused, its message lists the errors of fields the form does not place (`placedKeys`).
 */
export function useItemSave(placedKeys: ReadonlySet<string>, place: FieldPlacement = asSent) {
  const router = useRouter();
  const form = useActionForm(place);
  const save = (action: () => Promise<ActionResult<unknown>>, onSaved: () => void) =>
    form.submit(action, {
      onSuccess: () => {
        onSaved();
        router.refresh();
      },
      onFailure: (result, byField) => form.setMessage(formFailureMessage(result, byField, placedKeys)),
    });
  return { ...form, save };
}

/**
 * The form of an item of a list edited in place (an alert rule, a notification channel): titled
 * "New <noun>" or "Edit <name>", its fields, the message of a refused save, then Create or Save
 * changes, and Cancel when editing.
 */
export function ItemForm({
  noun,
  editedName,
  isPending,
  message,
  onSubmit,
  onCancel,
  children,
}: {
  noun: string;
  /** the name of the item being edited; none for a new one */
  editedName?: string;
  isPending: boolean;
  message: string | null;
  onSubmit: () => void;
  onCancel?: () => void;
  children: ReactNode;
}) {
  const isEdit = editedName !== undefined;
  return (
    <form
      aria-label={isEdit ? `Edit ${noun} ${editedName}` : `New ${noun}`}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h2 className="text-base font-semibold">{isEdit ? `Edit ${editedName}` : `New ${noun}`}</h2>
      {children}
      {message ? <Notice tone="error" title={message} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Saving…">
          {isEdit ? "Save changes" : `Create ${noun}`}
        </Button>
        {isEdit ? (
          <Button type="button" onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
