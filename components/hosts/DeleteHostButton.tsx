"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { deleteHostAction } from "@/lib/inventory/actions/delete-host";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { Button, Notice } from "@/components/ui/ui";

type Impact = { nics: number; links: number; runs: number; activeRun: { id: number; status: string } | null };

function count(value: number, one: string, many: string): string {
  return `${value} ${value === 1 ? one : many}`;
}

/** Delete with a confirmation that names what goes with the host; refused while one of its runs is active. */
export function DeleteHostButton({ hostId, hostName, impact }: { hostId: number; hostName: string; impact: Impact }) {
  const [isOpen, setIsOpen] = useState(false);
  const router = useRouter();
  const { isPending, message: failure, reset, submit } = useActionForm();

  function remove() {
    submit(() => deleteHostAction({ hostId }), {
      onSuccess: () => {
        setIsOpen(false);
        router.push("/hosts");
        router.refresh();
      },
    });
  }

  const what = `its ${count(impact.nics, "NIC", "NICs")}, ${count(impact.links, "link", "links")} and ${count(impact.runs, "run", "runs")}`;
  return (
    <>
      <Button
        type="button"
        variant="danger"
        onClick={() => {
          reset();
          setIsOpen(true);
        }}
      >
        Delete host…
      </Button>
      <ModalDialog
        open={isOpen}
        onClose={() => setIsOpen(false)}
        titleId="delete-host-title"
        describedById="delete-host-what"
      >
        <h2 id="delete-host-title" className="text-lg font-semibold">
          Delete {hostName}?
        </h2>
        <p id="delete-host-what" className="text-sm" data-testid="delete-impact">
          This deletes <strong>{hostName}</strong> with {what}
          {impact.runs > 0 ? ", including their measured samples" : ""}. It cannot be undone.
        </p>
        {impact.activeRun ? (
          <Notice tone="warning" title="A run is still going">
            Run #{impact.activeRun.id} on one of its links is {impact.activeRun.status}: cancel it or wait for it to
            end, then delete.
          </Notice>
        ) : null}
        {failure ? (
          <Notice tone="error" title="Not deleted">
            {failure}
          </Notice>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" data-autofocus onClick={() => setIsOpen(false)} disabled={isPending}>
            Keep it
          </Button>
          <Button
            type="button"
            variant="danger"
            onClick={remove}
            isPending={isPending}
            pendingLabel="Deleting…"
            disabled={impact.activeRun !== null}
          >
            Delete {hostName}
          </Button>
        </div>
      </ModalDialog>
    </>
  );
}
