"use client";

import { useId, useState, type ReactNode } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { Button, Notice } from "@/components/ui/ui";
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
  const [isOpen, setIsOpen] = useState(false);
  const { isPending, message: failure, reset, submit } = useActionForm();

  const remove = () =>
    submit(onDelete, {
      onSuccess: () => {
        setIsOpen(false);
        onDeleted();
      },
    });

  return (
    <>
      <Button
        type="button"
        variant="danger"
        className={size === "small" ? "px-2.5 py-1 text-xs" : ""}
        onClick={() => {
          reset();
          setIsOpen(true);
        }}
      >
        {/* "Delete <name>…" to a screen reader, starting with the word on the button for voice control */}
        Delete<span className="sr-only"> {name}</span>…
      </Button>
      <ModalDialog open={isOpen} onClose={() => setIsOpen(false)} titleId={`${id}-title`} describedById={`${id}-what`}>
        <h2 id={`${id}-title`} className="text-lg font-semibold break-words">
          Delete {name}?
        </h2>
        <p id={`${id}-what`} className="text-sm">
          {what} It cannot be undone.
        </p>
        {failure ? (
          <Notice tone="error" title="Not deleted">
            {failure}
          </Notice>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" data-autofocus onClick={() => setIsOpen(false)} disabled={isPending}>
            Keep it
          </Button>
          <Button type="button" variant="danger" onClick={remove} isPending={isPending} pendingLabel="Deleting…">
            Delete
          </Button>
        </div>
      </ModalDialog>
    </>
  );
}
