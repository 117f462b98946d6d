"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { deleteHostAction } from "@/lib/actions/delete-host";
import { Button, Notice } from "@/components/ui/ui";

type Impact = { nics: number; links: number; runs: number; activeRun: { id: number; status: string } | null };

function count(value: number, one: string, many: string): string {
  return `${value} ${value === 1 ? one : many}`;
}

/** Delete with a confirmation that names what goes with the host; refused while one of its runs is active. */
export function DeleteHostButton({ hostId, hostName, impact }: { hostId: number; hostName: string; impact: Impact }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const router = useRouter();
  const [failure, setFailure] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();

  function remove() {
    startTransition(async () => {
      const result = await deleteHostAction({ hostId });
      if (result.ok) {
        dialogRef.current?.close();
        router.push("/hosts");
        router.refresh();
      } else {
        setFailure(result.message);
      }
    });
  }

  const what = `its ${count(impact.nics, "NIC", "NICs")}, ${count(impact.links, "link", "links")} and ${count(impact.runs, "run", "runs")}`;
  return (
    <>
      <Button
        type="button"
        variant="danger"
        onClick={() => {
          setFailure(null);
          dialogRef.current?.showModal();
        }}
      >
        Delete host…
      </Button>
      <dialog
        ref={dialogRef}
        aria-labelledby="delete-host-title"
        aria-describedby="delete-host-what"
        className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-0 text-slate-900 shadow-xl backdrop:bg-slate-950/60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="space-y-4 p-5">
          <h2 id="delete-host-title" className="text-lg font-semibold">
            Delete {hostName}?
          </h2>
          <p id="delete-host-what" className="text-sm" data-testid="delete-impact">
            This deletes <strong>{hostName}</strong> with {what}
            {impact.runs > 0 ? ", including their measured samples" : ""}. It cannot be undone.
          </p>
          {impact.activeRun ? (
            <Notice tone="warning" title="A run is still going">
              Run #{impact.activeRun.id} on one of its links is {impact.activeRun.status}: cancel it or wait for it to end, then delete.
            </Notice>
          ) : null}
          {failure ? <Notice tone="error" title="Not deleted">{failure}</Notice> : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" autoFocus onClick={() => dialogRef.current?.close()} disabled={isPending}>
              Keep it
            </Button>
            <Button type="button" variant="danger" onClick={remove} isPending={isPending} pendingLabel="Deleting…" disabled={impact.activeRun !== null}>
              Delete {hostName}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
