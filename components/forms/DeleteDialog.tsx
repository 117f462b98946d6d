"use client";

import { useState } from "react";
import { Button, Notice } from "@/components/ui/ui";
import type { ActionResult } from "@/lib/action";
import { useActionForm } from "./use-action-form";

/**
 * A delete behind a confirmation dialog: opening it clears the last refusal; `remove` runs the
 * delete, which closes the dialog and calls `onDeleted` when done, and keeps it open with the
 * server's message when refused.
 */
export function useDeleteDialog(onDelete: () => Promise<ActionResult<unknown>>, onDeleted: () => void) {
  const [isOpen, setIsOpen] = useState(false);
  const { isPending, message: failure, reset, submit } = useActionForm();
  return {
    isOpen,
    isPending,
    failure,
    open: () => {
      reset();
      setIsOpen(true);
    },
    close: () => setIsOpen(false),
    remove: () =>
      submit(onDelete, {
        onSuccess: () => {
          setIsOpen(false);
          onDeleted();
        },
      }),
  };
}

/** The foot of a delete dialog: the refusal, if any, then Keep it (where focus starts) and the delete button. */
export function DeleteDialogActions({
  dialog,
  deleteLabel,
  isBlocked = false,
}: {
  dialog: ReturnType<typeof useDeleteDialog>;
  deleteLabel: string;
  /** the delete cannot be done now (the dialog says why) */
  isBlocked?: boolean;
}) {
  return (
    <>
      {dialog.failure ? (
        <Notice tone="error" title="Not deleted">
          {dialog.failure}
        </Notice>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" data-autofocus onClick={dialog.close} disabled={dialog.isPending}>
          Keep it
        </Button>
        <Button
          type="button"
          variant="danger"
          onClick={dialog.remove}
          isPending={dialog.isPending}
          pendingLabel="Deleting…"
          disabled={isBlocked}
        >
          {deleteLabel}
        </Button>
      </div>
    </>
  );
}
