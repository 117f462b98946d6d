"use client";

import { useState, type FormEvent } from "react";
import { textBinder } from "@/components/forms/field-binding";
import { unplacedErrors, useActionForm } from "@/components/forms/use-action-form";
import { useCan } from "@/components/auth/ViewerContext";
import { updateHostAction } from "@/lib/inventory/actions/update-host";
import type { HostDetail } from "@/lib/inventory/host-reads";
import { authInput, CredentialFields, EMPTY_CREDENTIALS, type Credentials } from "./CredentialFields";
import { accessLabel, placeTagError, tagsFromText, wholeNumberOrText, type JumpOption } from "./fields";
import { DeviceKindField, IperfPortFields, ReachThroughField } from "./ReachFields";
import {
  ADDRESS_AND_CREDENTIAL_KEYS,
  HostAddressFields,
  unplacedErrorsText,
  type HostAddress,
} from "./HostAddressFields";
import { Button, FOCUS_RING, Notice, TextAreaField, TextField } from "@/components/ui/ui";

type EditableHost = Omit<HostDetail["host"], "lastSeenAt" | "createdAt" | "updatedAt">;

const PLACED_BY_ACCESS: Record<EditableHost["access"], string[]> = {
  ssh: [
    ...ADDRESS_AND_CREDENTIAL_KEYS,
    "jumpHostId",
    "notes",
    "iperf3Path",
    "iperfPortMin",
    "iperfPortMax",
    "openFirewall",
    "tags",
    "site",
  ],
  "iperf3-server": ["name", "address", "iperfPortMin", "iperfPortMax", "notes", "tags", "site"],
  device: ["name", "kind", "notes", "tags", "site"],
};

/** The settings as typed. */
type HostSettings = HostAddress & {
  notes: string;
  iperf3Path: string;
  iperfPortMin: string;
  iperfPortMax: string;
  jumpHostId: string;
  kind: string;
  /** as typed: tags separated by commas or spaces */
  tags: string;
  /** empty: any instance drives the host's runs */
  site: string;
};

/** What the form sends for the host's access: only the fields that access has (access itself never changes). */
function updateInput(host: EditableHost, fields: HostSettings) {
  const common = {
    hostId: host.id,
    name: fields.name.trim(),
    notes: fields.notes,
    tags: tagsFromText(fields.tags),
    site: fields.site.trim() === "" ? null : fields.site.trim(),
  };
  switch (host.access) {
    case "iperf3-server":
      return {
        ...common,
        address: fields.address.trim(),
        iperfPortMin: wholeNumberOrText(fields.iperfPortMin),
        iperfPortMax: wholeNumberOrText(fields.iperfPortMax),
      };
    case "device":
      return { ...common, kind: fields.kind };
    case "ssh":
      return {
        ...common,
        address: fields.address.trim(),
        port: wholeNumberOrText(fields.port),
        username: fields.username.trim(),
        // This machine is not reached over SSH: it has no jump host to change.
        ...(host.isLocal ? {} : { jumpHostId: fields.jumpHostId === "" ? null : wholeNumberOrText(fields.jumpHostId) }),
        iperf3Path: fields.iperf3Path.trim() === "" ? null : fields.iperf3Path.trim(),
        iperfPortMin: wholeNumberOrText(fields.iperfPortMin),
        iperfPortMax: wholeNumberOrText(fields.iperfPortMax),
      };
  }
}

/**
 * Edits the fields of the host's access (which is shown, not changed); credentials change only when new
 * ones are given (the stored ones are never shown). `jumpOptions`: the hosts this one may be reached through.
 */
export function EditHostForm({ host, jumpOptions }: { host: EditableHost; jumpOptions: readonly JumpOption[] }) {
  const [fields, setFields] = useState<HostSettings>({
    name: host.name,
    address: host.address,
    port: String(host.port),
    username: host.username,
    notes: host.notes,
    iperf3Path: host.iperf3Path ?? "",
    iperfPortMin: String(host.iperfPortMin),
    iperfPortMax: String(host.iperfPortMax),
    jumpHostId: host.jumpHostId === null ? "" : String(host.jumpHostId),
    kind: host.kind ?? "other",
    tags: host.tags.join(", "),
    site: host.site ?? "",
  });
  const isSsh = host.access === "ssh";
  const [openFirewall, setOpenFirewall] = useState(host.openFirewall);
  const [isChangingCredentials, setIsChangingCredentials] = useState(false);
  const canSetCredentials = useCan("credentials");
  const [credentials, setCredentials] = useState<Credentials>({
    ...EMPTY_CREDENTIALS,
    method: host.authMethod as Credentials["method"],
  });
  const {
    isPending,
    message: failure,
    fieldErrors,
    setMessage,
    submit: run,
  } = useActionForm((error) => placeTagError(error, tagsFromText(fields.tags)));
  const field = textBinder(fields, (next) => setFields((previous) => ({ ...previous, ...next })), fieldErrors, {
    isNamed: false,
  });
  const [isSaved, setIsSaved] = useState(false);
  const outcome = failure !== null ? { ok: false, message: failure } : isSaved ? { ok: true, message: "Saved." } : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    run(
      () =>
        updateHostAction({
          ...updateInput(host, fields),
          ...(isSsh && host.platform === "esxi" ? { openFirewall } : {}),
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
          const others = unplacedErrors(
            result.errors.map((error) => placeTagError(error, tagsFromText(fields.tags))),
            PLACED_BY_ACCESS[host.access],
          );
          if (result.errors.length > 0)
            setMessage(others.length > 0 ? unplacedErrorsText(others) : "See the fields marked below.");
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label={`Edit ${host.name}`}>
      <p className="text-sm">
        <span className="font-medium">Access:</span> <span data-testid="edit-access">{accessLabel(host)}</span>
        <span className="block text-slate-600 dark:text-slate-400">
          It cannot change: delete the host and add it again to reach it another way.
        </span>
      </p>
      {isSsh ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <HostAddressFields field={field} />
          {host.isLocal ? null : (
            <ReachThroughField className="sm:col-span-2" options={jumpOptions} {...field("jumpHostId")} />
          )}
          <TextField
            label="iperf3 path"
            className="sm:col-span-2"
            {...field("iperf3Path")}
            placeholder="found by the check"
            hint={
              canSetCredentials
                ? "Leave empty to let the check find it."
                : "Only an admin changes it, as the credentials: it is the program the SSH user runs."
            }
            readOnly={!canSetCredentials}
            spellCheck={false}
          />
          <IperfPortFields field={field} />
        </div>
      ) : null}
      {host.access === "iperf3-server" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Name" {...field("name")} autoComplete="off" />
          <TextField label="Address" {...field("address")} autoComplete="off" spellCheck={false} />
          <IperfPortFields field={field} isServer />
        </div>
      ) : null}
      {host.access === "device" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Name" {...field("name")} autoComplete="off" />
          <DeviceKindField {...field("kind")} />
        </div>
      ) : null}
      {isSsh && host.platform === "esxi" ? (
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
      <TextField
        label="Tags"
        {...field("tags")}
        placeholder="rack1, lab-vlan"
        hint="Separated by commas or spaces: lowercase letters, digits and - _ . :, up to 16. The grid shows the hosts of a tag."
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        label="Site"
        {...field("site")}
        placeholder="any instance"
        hint="With several Wirespeed instances: the WIRESPEED_SITE of those that reach this host. Empty: any instance runs its tests."
        autoComplete="off"
        spellCheck={false}
      />
      <TextAreaField label="Notes" rows={3} {...field("notes")} />
      {!isSsh ? null : canSetCredentials ? (
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
