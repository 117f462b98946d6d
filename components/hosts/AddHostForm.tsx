"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { unplacedErrors, useActionForm } from "@/components/forms/use-action-form";
import { createHostAction } from "@/lib/inventory/actions/create-host";
import { authInput, CredentialFields, EMPTY_CREDENTIALS, type Credentials } from "./CredentialFields";
import { wholeNumberOrText } from "./fields";
import { HostConnectionPanel } from "./HostConnectionPanel";
import { Button, buttonClass, Notice, TextField } from "@/components/ui/ui";

const PLACED_FIELDS = [
  "name",
  "address",
  "port",
  "username",
  "auth",
  "auth.privateKey",
  "auth.passphrase",
  "auth.password",
];

/**
 * Step 1 records the host (its secret goes to createHost and never comes back);
 * step 2 tests the connection, confirms the host key and shows platform and iperf3.
 */
export function AddHostForm() {
  const [name, setName] = useState("");
  const [address, setAddress] = useState("");
  const [port, setPort] = useState("22");
  const [username, setUsername] = useState("root");
  const [credentials, setCredentials] = useState<Credentials>(EMPTY_CREDENTIALS);
  const [created, setCreated] = useState<{ id: number; name: string } | null>(null);
  const { isPending, message, errors, fieldErrors, submit: run } = useActionForm();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    run(
      () =>
        createHostAction({
          name: name.trim(),
          address: address.trim(),
          ...(port.trim() === "" ? {} : { port: wholeNumberOrText(port) }),
          ...(username.trim() === "" ? {} : { username: username.trim() }),
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

  const others = unplacedErrors(errors, PLACED_FIELDS);
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
          {errors.length === 0
            ? message
            : others.length > 0
              ? others.map((entry) => `${entry.field} ${entry.message}`).join("; ")
              : null}
        </Notice>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={fieldErrors.name}
          hint="How you call it: nas, pve1, esx-rack2."
          autoComplete="off"
        />
        <TextField
          label="Address"
          required
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          error={fieldErrors.address}
          hint="IP address or DNS name Wirespeed reaches it at over SSH."
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
