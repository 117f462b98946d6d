"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useActionForm } from "@/components/forms/use-action-form";
import { useCan } from "@/components/auth/ViewerContext";
import { Button } from "@/components/ui/ui";
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
    <span className="inline-flex flex-col items-start">
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
      {error ? (
        <span role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">
          {error}
        </span>
      ) : null}
    </span>
  );
}
