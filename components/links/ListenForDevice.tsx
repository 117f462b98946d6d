"use client";

import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { buttonClass } from "@/components/ui/styles";
import { useActionForm } from "@/components/forms/use-action-form";
import { listenForDeviceAction } from "@/lib/runs/actions/listen-for-device";
import { LISTEN_TIMEOUT_SECONDS } from "@/lib/runs/listen-request";

/**
 * "Listen for a device" on a link between a host Wirespeed logs in to and a device: a one-off
 * iperf3 server on the managed end waits for the device's client, and the run's page says where to
 * point it.
 */
export function ListenForDevice({
  linkId,
  deviceName,
  managedName,
}: {
  linkId: number;
  deviceName: string;
  managedName: string;
}) {
  const router = useRouter();
  const form = useActionForm();
  const inputId = useId();
  const hintId = useId();
  const [minutes, setMinutes] = useState(String(LISTEN_TIMEOUT_SECONDS.default / 60));
  const error = form.fieldErrors.timeoutSeconds ?? null;

  return (
    <form
      className="mb-4 rounded-md border border-slate-200 p-3 dark:border-slate-700"
      data-testid="listen-for-device"
      onSubmit={(event) => {
        event.preventDefault();
        const timeoutSeconds = Math.round(Number(minutes) * 60);
        form.submit(() => listenForDeviceAction({ linkId, request: { timeoutSeconds } }), {
          onSuccess: ({ id }) => router.push(`/runs/${id}`),
        });
      }}
    >
      <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">
        {deviceName} has no SSH: Wirespeed starts iperf3 as a server on {managedName} and waits for the device to run
        iperf3 as a client.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={inputId} className="block text-sm font-medium">
            Wait for (minutes)
          </label>
          <input
            id={inputId}
            type="number"
            min={1}
            max={LISTEN_TIMEOUT_SECONDS.max / 60}
            step={1}
            value={minutes}
            onChange={(event) => setMinutes(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={hintId}
            className="mt-1 w-24 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-950"
          />
        </div>
        <button type="submit" disabled={form.isPending} className={buttonClass("primary")}>
          {form.isPending ? "Starting the server…" : "Listen for a device"}
        </button>
      </div>
      <p id={hintId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        {error ?? "From 1 to 60 minutes; the run fails as no client if nobody connects by then."}
      </p>
      {form.message ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {form.message}
        </p>
      ) : null}
    </form>
  );
}
