"use client";

import { useId, useRef, useState, useTransition, type ReactNode } from "react";
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
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  const remove = () =>
    startTransition(async () => {
      const result = await onDelete();
      if (result.ok) {
        dialogRef.current?.close();
        onDeleted();
      } else setFailure(result.message);
    });

  return (
    <>
      <Button
        type="button"
        variant="danger"
        className={size === "small" ? "px-2.5 py-1 text-xs" : ""}
        aria-label={`Delete ${name}…`}
        onClick={() => {
          setFailure(null);
          dialogRef.current?.showModal();
        }}
      >
        Delete…
      </Button>
      <dialog
        ref={dialogRef}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-what`}
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="space-y-4 p-5">
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
            <Button type="button" autoFocus onClick={() => dialogRef.current?.close()} disabled={isPending}>
              Keep it
            </Button>
            <Button type="button" variant="danger" onClick={remove} isPending={isPending} pendingLabel="Deleting…">
              Delete
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
