"use client";

import { useState, type FormEvent } from "react";
import { unplacedErrors, useActionForm } from "@/components/forms/use-action-form";
import { useCan } from "@/components/auth/ViewerContext";
import { updateHostAction } from "@/lib/inventory/actions/update-host";
import type { HostDetail } from "@/lib/inventory/host-reads";
import { authInput, CredentialFields, EMPTY_CREDENTIALS, type Credentials } from "./CredentialFields";
import { wholeNumberOrText } from "./fields";
import { Button, FOCUS_RING, Notice, TextAreaField, TextField } from "@/components/ui/ui";

type EditableHost = Omit<HostDetail["host"], "lastSeenAt" | "createdAt" | "updatedAt">;

const PLACED_FIELDS = [
  "name",
  "address",
  "port",
  "username",
  "notes",
  "iperf3Path",
  "iperfPortMin",
  "iperfPortMax",
  "openFirewall",
  "auth",
  "auth.privateKey",
  "auth.passphrase",
  "auth.password",
];

/** Edits the host's settings; credentials change only when new ones are given (the stored ones are never shown). */
export function EditHostForm({ host }: { host: EditableHost }) {
  const [name, setName] = useState(host.name);
  const [address, setAddress] = useState(host.address);
  const [port, setPort] = useState(String(host.port));
  const [username, setUsername] = useState(host.username);
  const [notes, setNotes] = useState(host.notes);
  const [iperf3Path, setIperf3Path] = useState(host.iperf3Path ?? "");
  const [portMin, setPortMin] = useState(String(host.iperfPortMin));
  const [portMax, setPortMax] = useState(String(host.iperfPortMax));
  const [openFirewall, setOpenFirewall] = useState(host.openFirewall);
  const [isChangingCredentials, setIsChangingCredentials] = useState(false);
  const canSetCredentials = useCan("credentials");
  const [credentials, setCredentials] = useState<Credentials>({
    ...EMPTY_CREDENTIALS,
    method: host.authMethod as Credentials["method"],
  });
  const { isPending, message: failure, fieldErrors, setMessage, submit: run } = useActionForm();
  const [isSaved, setIsSaved] = useState(false);
  const outcome = failure !== null ? { ok: false, message: failure } : isSaved ? { ok: true, message: "Saved." } : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    run(
      () =>
        updateHostAction({
          hostId: host.id,
          name: name.trim(),
          address: address.trim(),
          port: wholeNumberOrText(port),
          username: username.trim(),
          notes,
          iperf3Path: iperf3Path.trim() === "" ? null : iperf3Path.trim(),
          iperfPortMin: wholeNumberOrText(portMin),
          iperfPortMax: wholeNumberOrText(portMax),
          ...(host.platform === "esxi" ? { openFirewall } : {}),
          ...(isChangingCredentials ? { auth: authInput(credentials) } : {}),
        }),
      {
        onSuccess: () => {
          setIsSaved(true);
          if (isChangingCredentials) {
            setIsChangingCredentials(false);
            setCredentials({ ...EMPTY_CREDENTIALS, method: credentials.method });
          }
        },
        onFailure: (result) => {
          setIsSaved(false);
          const others = unplacedErrors(result.errors, PLACED_FIELDS);
          if (result.errors.length > 0)
            setMessage(
              others.length > 0
                ? others.map((e) => `${e.field} ${e.message}`).join("; ")
                : "See the fields marked below.",
            );
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label={`Edit ${host.name}`}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldErrors.name}
          autoComplete="off"
        />
        <TextField
          label="Address"
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          error={fieldErrors.address}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label="SSH port"
          inputMode="numeric"
          value={port}
          onChange={(e) => setPort(e.target.value)}
          error={fieldErrors.port}
        />
        <TextField
          label="User"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          error={fieldErrors.username}
          autoComplete="off"
          spellCheck={false}
        />
        <TextField
          label="iperf3 path"
          className="sm:col-span-2"
          value={iperf3Path}
          placeholder="found by the check"
          onChange={(e) => setIperf3Path(e.target.value)}
          error={fieldErrors["iperf3Path"]}
          hint="Leave empty to let the check find it."
          spellCheck={false}
        />
        <TextField
          label="First iperf3 port"
          inputMode="numeric"
          value={portMin}
          onChange={(e) => setPortMin(e.target.value)}
          error={fieldErrors.iperfPortMin}
        />
        <TextField
          label="Last iperf3 port"
          inputMode="numeric"
          value={portMax}
          onChange={(e) => setPortMax(e.target.value)}
          error={fieldErrors.iperfPortMax}
          hint="iperf3 servers on this host listen on a port of this range."
        />
      </div>
      {host.platform === "esxi" ? (
        <label className="flex items-start gap-3 text-sm">
          <input
            type="checkbox"
            checked={openFirewall}
            onChange={(e) => setOpenFirewall(e.target.checked)}
            className={`mt-0.5 h-4 w-4 accent-sky-600 ${FOCUS_RING}`}
          />
          <span>
            <span className="font-medium">Open the ESXi firewall during tests</span>
            <span className="block text-slate-600 dark:text-slate-400">
              ESXi blocks iperf3&apos;s ports; Wirespeed disables the firewall for the test and restores it afterwards.
            </span>
          </span>
        </label>
      ) : null}
      <TextAreaField
        label="Notes"
        rows={3}
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
        error={fieldErrors.notes}
      />
      {canSetCredentials ? (
        <div className="rounded-md border border-slate-200 p-4 dark:border-slate-700">
          <label className="flex items-center gap-3 text-sm font-medium">
            <input
              type="checkbox"
              checked={isChangingCredentials}
              onChange={(e) => setIsChangingCredentials(e.target.checked)}
              className={`h-4 w-4 accent-sky-600 ${FOCUS_RING}`}
            />
            Set new credentials
          </label>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Now:{" "}
            {host.authMethod === "local"
              ? "this machine, no SSH"
              : `${host.authMethod === "key" ? "SSH key" : "password"}${host.hasSecret ? ", stored" : ", none stored"}`}
            . Stored credentials are never shown; leave this off to keep them.
          </p>
          {isChangingCredentials ? (
            <div className="mt-4">
              <CredentialFields
                value={credentials}
                onChange={setCredentials}
                errors={fieldErrors}
                legend="New credentials"
              />
            </div>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">Credentials are set by an admin.</p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Saving…">
          Save changes
        </Button>
        <div aria-live="polite" className="min-w-0 flex-1">
          {outcome ? (
            outcome.ok ? (
              <span role="status" className="text-sm text-emerald-800 dark:text-emerald-300">
                {outcome.message}
              </span>
            ) : (
              <Notice tone="error" title="Not saved">
                {outcome.message}
              </Notice>
            )
          ) : null}
        </div>
      </div>
    </form>
  );
}
