"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useActionForm } from "@/components/forms/use-action-form";
import { useCan } from "@/components/auth/ViewerContext";
import { Button, WithRefusal } from "@/components/ui/ui";
import { ackAlertAction } from "@/lib/alerts/actions/ack-alert";
import { invalidateAlertViews } from "./queries";

/** Acknowledge: someone has seen the alert (it stays firing until its runs recover). Operators only. */
export function AcknowledgeButton({ alertId, title }: { alertId: number; title: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const mayAck = useCan("monitor");
  const { isPending, message: error, submit } = useActionForm();
  if (!mayAck) return null;
  return (
    <WithRefusal message={error}>
      <Button
        type="button"
        className="px-2.5 py-1 text-xs"
        aria-label={`Acknowledge ${title}`}
        isPending={isPending}
        pendingLabel="Acknowledging…"
        onClick={() =>
          submit(() => ackAlertAction({ alertId }), {
            onSuccess: () => {
              void invalidateAlertViews(queryClient);
              router.refresh();
            },
          })
        }
      >
        Acknowledge
      </Button>
    </WithRefusal>
  );
}
