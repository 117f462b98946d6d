"use client";

import { useRouter } from "next/navigation";
import { DeleteDialogActions, useDeleteDialog } from "@/components/forms/DeleteDialog";
import { deleteHostAction } from "@/lib/inventory/actions/delete-host";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { Button, Notice } from "@/components/ui/ui";

type Impact = { nics: number; links: number; runs: number; activeRun: { id: number; status: string } | null };

function count(value: number, one: string, many: string): string {
  return `${value} ${value === 1 ? one : many}`;
}

/** Delete with a confirmation that names what goes with the host; refused while one of its runs is active. */
export function DeleteHostButton({ hostId, hostName, impact }: { hostId: number; hostName: string; impact: Impact }) {
  const router = useRouter();
  const dialog = useDeleteDialog(
    () => deleteHostAction({ hostId }),
    () => {
      router.push("/hosts");
      router.refresh();
    },
  );

  const what = `its ${count(impact.nics, "NIC", "NICs")}, ${count(impact.links, "link", "links")} and ${count(impact.runs, "run", "runs")}`;
  return (
    <>
      <Button type="button" variant="danger" onClick={dialog.open}>
        Delete host…
      </Button>
      <ModalDialog
        open={dialog.isOpen}
        onClose={dialog.close}
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
        <DeleteDialogActions dialog={dialog} deleteLabel={`Delete ${hostName}`} isBlocked={impact.activeRun !== null} />
      </ModalDialog>
    </>
  );
}
