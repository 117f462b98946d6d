"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import type { FormLink } from "@/components/experiments/form/fields";
import { useCan } from "@/components/auth/ViewerContext";
import { Button, Notice } from "@/components/ui/ui";
import { deleteScheduleAction } from "@/lib/schedules/actions/delete-schedule";
import { setScheduleEnabledAction } from "@/lib/schedules/actions/set-schedule-enabled";
import type { ScheduleJson } from "@/lib/schedules/contract";
import { ConfirmDeleteButton } from "./ConfirmDeleteButton";
import { formFieldsOf } from "./fields";
import { ScheduleForm } from "./ScheduleForm";

/**
 * A schedule page's controls for operators: pause or resume, edit (the form, filled in, opens
 * below) and delete. Viewers see none of them; the server refuses them anyway.
 */
export function ScheduleControls({ schedule, links }: { schedule: ScheduleJson; links: FormLink[] }) {
  const router = useRouter();
  const mayChange = useCan("monitor");
  const [isEditing, setIsEditing] = useState(false);
  const { isPending, message: failure, submit } = useActionForm();
  if (!mayChange) return null;

  const toggle = () =>
    submit(() => setScheduleEnabledAction({ scheduleId: schedule.id, enabled: !schedule.enabled }), {
      onSuccess: () => router.refresh(),
    });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Schedule actions">
        <Button
          type="button"
          onClick={toggle}
          isPending={isPending}
          pendingLabel={schedule.enabled ? "Pausing…" : "Resuming…"}
        >
          {schedule.enabled ? "Pause" : "Resume"}
        </Button>
        <Button type="button" aria-expanded={isEditing} onClick={() => setIsEditing((previous) => !previous)}>
          {isEditing ? "Close the form" : "Edit"}
        </Button>
        <ConfirmDeleteButton
          name={schedule.name}
          what="This deletes the schedule and its history of starts; the runs and experiments it started stay in their links' history."
          onDelete={() => deleteScheduleAction({ scheduleId: schedule.id })}
          onDeleted={() => {
            router.push("/schedules");
            router.refresh();
          }}
        />
      </div>
      {failure ? (
        <Notice tone="error" title="Not changed">
          {failure}
        </Notice>
      ) : null}
      {isEditing ? (
        <ScheduleForm
          links={links}
          initial={formFieldsOf(schedule)}
          scheduleId={schedule.id}
          onSaved={() => setIsEditing(false)}
        />
      ) : null}
    </div>
  );
}
