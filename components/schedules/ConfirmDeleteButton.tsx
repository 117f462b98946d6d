"use client";

import { useId, type ReactNode } from "react";
import { DeleteDialogActions, useDeleteDialog } from "@/components/forms/DeleteDialog";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { Button } from "@/components/ui/ui";
import type { ActionResult } from "@/lib/action";

/**
 * Delete behind a confirmation dialog that says what goes (schedules, rules, channels): the
 * dialog stays open with the server's message when it refuses.
 */
export function ConfirmDeleteButton({
  name,
  what,
  onDelete,
  onDeleted,
  size = "normal",
}: {
  /** the thing's name, in the button and the question */
  name: string;
  /** what deleting it does, in a sentence */
  what: ReactNode;
  onDelete: () => Promise<ActionResult<unknown>>;
  onDeleted: () => void;
  size?: "normal" | "small";
}) {
  const id = useId();
  const dialog = useDeleteDialog(onDelete, onDeleted);

  return (
    <>
      <Button
        type="button"
        variant="danger"
        className={size === "small" ? "px-2.5 py-1 text-xs" : ""}
        onClick={dialog.open}
      >
        {/* "Delete <name>…" to a screen reader, starting with the word on the button for voice control */}
        Delete<span className="sr-only"> {name}</span>…
      </Button>
      <ModalDialog open={dialog.isOpen} onClose={dialog.close} titleId={`${id}-title`} describedById={`${id}-what`}>
        <h2 id={`${id}-title`} className="text-lg font-semibold break-words">
          Delete {name}?
        </h2>
        <p id={`${id}-what`} className="text-sm">
          {what} It cannot be undone.
        </p>
        <DeleteDialogActions dialog={dialog} deleteLabel="Delete" />
      </ModalDialog>
    </>
  );
}
