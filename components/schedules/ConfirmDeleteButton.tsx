"use client";

import { useId, useState, useTransition, type ReactNode } from "react";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { Button, Notice } from "@/components/ui/ui";

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
  onDelete: () => Promise<{ ok: true } | { ok: false; message: string }>;
  onDeleted: () => void;
  size?: "normal" | "small";
}) {
  const id = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  const remove = () =>
    startTransition(async () => {
      const result = await onDelete();
      if (result.ok) {
        setIsOpen(false);
        onDeleted();
      } else setFailure(result.message);
    });

  return (
    <>
      <Button
        type="button"
        variant="danger"
        className={size === "small" ? "px-2.5 py-1 text-xs" : ""}
        onClick={() => {
          setFailure(null);
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
