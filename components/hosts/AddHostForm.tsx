"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { textBinder } from "@/components/forms/field-binding";
import { unplacedErrors, useActionForm } from "@/components/forms/use-action-form";
import { createHostAction } from "@/lib/inventory/actions/create-host";
import { authInput, CredentialFields, EMPTY_CREDENTIALS, type Credentials } from "./CredentialFields";
import { wholeNumberOrText, type JumpOption } from "./fields";
import { HostConnectionPanel } from "./HostConnectionPanel";
import { AccessChoice, DeviceKindField, IperfPortFields, ReachThroughField } from "./ReachFields";
import {
  ADDRESS_AND_CREDENTIAL_KEYS,
  HostAddressFields,
  unplacedErrorsText,
  type HostAddress,
} from "./HostAddressFields";
import type { HostAccess } from "@/lib/inventory/schemas";
import { Button, buttonClass, Notice, TextAreaField, TextField } from "@/components/ui/ui";

/** The form as typed: the SSH fields, and those of an iperf3 server or a device. */
type NewHostFields = HostAddress & {
  jumpHostId: string;
  iperfPortMin: string;
  iperfPortMax: string;
  kind: string;
  notes: string;
};

const EMPTY_FIELDS: NewHostFields = {
  name: "",
  address: "",
  port: "22",
  username: "root",
  jumpHostId: "",
  // An appliance answers on 5201; a public server's range is typed in (the hint says the usual one).
  iperfPortMin: "5201",
  iperfPortMax: "5201",
  kind: "phone",
  notes: "",
};

/** The keys whose errors each access's fields show (the rest go in the form's message). */
const PLACED_BY_ACCESS: Record<HostAccess, string[]> = {
  ssh: [...ADDRESS_AND_CREDENTIAL_KEYS, "jumpHostId", "access"],
  "iperf3-server": ["name", "address", "iperfPortMin", "iperfPortMax", "notes", "access"],
  device: ["name", "kind", "notes", "access"],
};

/** What the form sends for its access: only the fields that access has. */
function createInput(access: HostAccess, fields: NewHostFields, credentials: Credentials) {
  const name = fields.name.trim();
  switch (access) {
    case "ssh":
      return {
        name,
        access,
        address: fields.address.trim(),
        ...(fields.port.trim() === "" ? {} : { port: wholeNumberOrText(fields.port) }),
        ...(fields.username.trim() === "" ? {} : { username: fields.username.trim() }),
        // This machine is not reached over SSH, so it goes through no jump host.
        ...(fields.jumpHostId === "" || credentials.method === "local"
          ? {}
          : { jumpHostId: wholeNumberOrText(fields.jumpHostId) }),
        auth: authInput(credentials),
      };
    case "iperf3-server":
      return {
        name,
        access,
        address: fields.address.trim(),
        iperfPortMin: wholeNumberOrText(fields.iperfPortMin),
        iperfPortMax: wholeNumberOrText(fields.iperfPortMax),
        notes: fields.notes,
      };
    case "device":
      return { name, access, kind: fields.kind, notes: fields.notes };
  }
}

/**
 * First how Wirespeed reaches the host (SSH, an iperf3 server it does not log in to, or a device), then
 * that access's fields. For SSH, step 1 records the host (its secret goes to createHost and never comes
 * back); step 2 tests the connection, confirms the host key and shows platform and iperf3.
 */
export function AddHostForm({ jumpOptions }: { jumpOptions: readonly JumpOption[] }) {
  const [access, setAccess] = useState<HostAccess>("ssh");
  const [fields, setFields] = useState<NewHostFields>(EMPTY_FIELDS);
  const [credentials, setCredentials] = useState<Credentials>(EMPTY_CREDENTIALS);
  const [created, setCreated] = useState<{ id: number; name: string; access: HostAccess } | null>(null);
  const { isPending, message, errors, fieldErrors, submit: run } = useActionForm();
  const field = textBinder(fields, (next) => setFields((previous) => ({ ...previous, ...next })), fieldErrors, {
    isNamed: false,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    run(() => createHostAction(createInput(access, fields, credentials)), {
      onSuccess: (value) => {
        setCreated({ ...value, access });
        // The secret is stored now: drop the browser's copy.
        setCredentials({ ...EMPTY_CREDENTIALS, method: credentials.method });
      },
    });
  }

  if (created && created.access !== "ssh") {
    return (
      <div className="space-y-6">
        <Notice tone="success" title={`Host ${created.name} added`}>
          Wirespeed does not log in to this host; add its NICs by hand on its page, then link one of them to a NIC of a
          host Wirespeed logs in to.
        </Notice>
        <AfterAdding host={created} />
      </div>
    );
  }

  if (created) {
    return (
      <div className="space-y-6">
        <Notice tone="success" title={`Host ${created.name} added`}>
          Next, test the connection: Wirespeed shows the key the host presents, you confirm it, and then it detects the
          platform and iperf3.
        </Notice>
        <section
          aria-labelledby="connect-heading"
          className="rounded-lg border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
        >
          <h2 id="connect-heading" className="mb-4 text-lg font-semibold">
            Connect to {created.name}
          </h2>
          <HostConnectionPanel hostId={created.id} hostName={created.name} />
        </section>
        <AfterAdding host={created} />
      </div>
    );
  }

  const others = unplacedErrors(errors, PLACED_BY_ACCESS[access]);
  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900"
    >
      {message ? (
        <Notice
          tone="error"
          title={errors.length > 0 ? "The host was not added: see the fields marked below" : "The host was not added"}
        >
          {errors.length === 0 ? message : others.length > 0 ? unplacedErrorsText(others) : null}
        </Notice>
      ) : null}
      <AccessChoice value={access} onChange={setAccess} error={fieldErrors.access} />
      {access === "ssh" ? (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <HostAddressFields field={field} isNew />
            {credentials.method === "local" ? null : (
              <ReachThroughField className="sm:col-span-2" options={jumpOptions} {...field("jumpHostId")} />
            )}
          </div>
          <CredentialFields value={credentials} onChange={setCredentials} errors={fieldErrors} />
        </>
      ) : null}
      {access === "iperf3-server" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Name"
            required
            {...field("name")}
            hint="How you call it: nas-appliance, iperf.example.net."
            autoComplete="off"
          />
          <TextField
            label="Address"
            required
            {...field("address")}
            hint="IP address or DNS name its iperf3 server answers at."
            autoComplete="off"
            spellCheck={false}
          />
          <IperfPortFields field={field} isServer />
          <TextAreaField label="Notes" className="sm:col-span-2" rows={3} {...field("notes")} />
        </div>
      ) : null}
      {access === "device" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Name"
            required
            {...field("name")}
            hint="How you call it: pixel-8, living-room-tv."
            autoComplete="off"
          />
          <DeviceKindField {...field("kind")} />
          <TextAreaField
            label="Notes"
            className="sm:col-span-2"
            rows={3}
            {...field("notes")}
            hint="The device runs iperf3 itself (an app, or iperf3 -c): Wirespeed listens and it connects."
          />
        </div>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Adding…">
          Add host
        </Button>
        <Link href="/hosts" className={buttonClass("secondary")}>
          Cancel
        </Link>
      </div>
    </form>
  );
}

/** Where to go once a host is added: its page, or back to the list. */
function AfterAdding({ host }: { host: { id: number; name: string } }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Link href={`/hosts/${host.id}`} className={buttonClass("primary")}>
        Go to {host.name}
      </Link>
      <Link href="/hosts" className={buttonClass("secondary")}>
        Back to hosts
      </Link>
    </div>
  );
}
