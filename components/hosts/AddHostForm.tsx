"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { textBinder } from "@/components/forms/field-binding";
import { unplacedErrors, useActionForm } from "@/components/forms/use-action-form";
import { createHostAction } from "@/lib/inventory/actions/create-host";
import { authInput, CredentialFields, EMPTY_CREDENTIALS, type Credentials } from "./CredentialFields";
import { wholeNumberOrText } from "./fields";
import { HostConnectionPanel } from "./HostConnectionPanel";
import {
  ADDRESS_AND_CREDENTIAL_KEYS,
  HostAddressFields,
  unplacedErrorsText,
  type HostAddress,
} from "./HostAddressFields";
import { Button, buttonClass, Notice } from "@/components/ui/ui";

/**
 * Step 1 records the host (its secret goes to createHost and never comes back);
 * step 2 tests the connection, confirms the host key and shows platform and iperf3.
 */
export function AddHostForm() {
  const [fields, setFields] = useState<HostAddress>({ name: "", address: "", port: "22", username: "root" });
  const [credentials, setCredentials] = useState<Credentials>(EMPTY_CREDENTIALS);
  const [created, setCreated] = useState<{ id: number; name: string } | null>(null);
  const { isPending, message, errors, fieldErrors, submit: run } = useActionForm();
  const field = textBinder(fields, (next) => setFields((previous) => ({ ...previous, ...next })), fieldErrors, {
    isNamed: false,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    run(
      () =>
        createHostAction({
          name: fields.name.trim(),
          address: fields.address.trim(),
          ...(fields.port.trim() === "" ? {} : { port: wholeNumberOrText(fields.port) }),
          ...(fields.username.trim() === "" ? {} : { username: fields.username.trim() }),
          auth: authInput(credentials),
        }),
      {
        onSuccess: (value) => {
          setCreated(value);
          // The secret is stored now: drop the browser's copy.
          setCredentials({ ...EMPTY_CREDENTIALS, method: credentials.method });
        },
      },
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
        <div className="flex flex-wrap gap-2">
          <Link href={`/hosts/${created.id}`} className={buttonClass("primary")}>
            Go to {created.name}
          </Link>
          <Link href="/hosts" className={buttonClass("secondary")}>
            Back to hosts
          </Link>
        </div>
      </div>
    );
  }

  const others = unplacedErrors(errors, ADDRESS_AND_CREDENTIAL_KEYS);
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
      <div className="grid gap-4 sm:grid-cols-2">
        <HostAddressFields field={field} isNew />
      </div>
      <CredentialFields value={credentials} onChange={setCredentials} errors={fieldErrors} />
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
