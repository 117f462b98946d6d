"use client";

import type { TextBinding } from "@/components/forms/field-binding";
import type { FieldError } from "@/components/forms/use-action-form";
import { TextField } from "@/components/ui/ui";

/** How Wirespeed reaches a host, as the host forms type it. */
export type HostAddress = { name: string; address: string; port: string; username: string };

/** The form keys of the address fields and of the credential fields, which show their own errors. */
export const ADDRESS_AND_CREDENTIAL_KEYS = [
  "name",
  "address",
  "port",
  "username",
  "auth",
  "auth.privateKey",
  "auth.passphrase",
  "auth.password",
];

/** The server's errors that no field of a host form shows, in one line: "auth.method is invalid; …". */
export function unplacedErrorsText(errors: readonly FieldError[]): string {
  return errors.map((entry) => `${entry.field} ${entry.message}`).join("; ");
}

/**
 * A host's name, address, SSH port and user, for the add and edit forms: bound by the form's
 * `field`; a new host's name and address are required and say what they are.
 */
export function HostAddressFields({
  field,
  isNew = false,
}: {
  field: (key: keyof HostAddress) => TextBinding;
  isNew?: boolean;
}) {
  return (
    <>
      <TextField
        label="Name"
        required={isNew}
        {...field("name")}
        hint={isNew ? "How you call it: nas, pve1, esx-rack2." : undefined}
        autoComplete="off"
      />
      <TextField
        label="Address"
        required={isNew}
        {...field("address")}
        hint={isNew ? "IP address or DNS name Wirespeed reaches it at over SSH." : undefined}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField label="SSH port" inputMode="numeric" {...field("port")} />
      <TextField label="User" {...field("username")} autoComplete="off" spellCheck={false} />
    </>
  );
}
