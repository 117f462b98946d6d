"use client";

import { useId, useState, type ChangeEvent } from "react";
import { MAX_PRIVATE_KEY_BYTES } from "@/lib/inventory/schemas";
import { FOCUS_RING, TextAreaField, TextField } from "@/components/ui/ui";

export type AuthMethodChoice = "key" | "password" | "local";
export type Credentials = { method: AuthMethodChoice; privateKey: string; passphrase: string; password: string };
export const EMPTY_CREDENTIALS: Credentials = { method: "key", privateKey: "", passphrase: "", password: "" };

/** The `auth` object the inventory takes; an empty passphrase means a key without one. */
export function authInput(credentials: Credentials) {
  switch (credentials.method) {
    case "key":
      return credentials.passphrase
        ? { method: "key" as const, privateKey: credentials.privateKey, passphrase: credentials.passphrase }
        : { method: "key" as const, privateKey: credentials.privateKey };
    case "password":
      return { method: "password" as const, password: credentials.password };
    case "local":
      return { method: "local" as const };
  }
}

const METHOD_LABELS: Record<AuthMethodChoice, string> = {
  key: "SSH key",
  password: "Password",
  local: "None: this machine",
};

/** Auth method, then the key (pasted or read from a file in the browser), passphrase or password. */
export function CredentialFields({
  value,
  onChange,
  errors,
  legend = "How Wirespeed logs in",
}: {
  value: Credentials;
  onChange: (value: Credentials) => void;
  errors?: Record<string, string>;
  legend?: string;
}) {
  const name = useId();
  const fileHintId = useId();
  const [fileProblem, setFileProblem] = useState<string | null>(null);

  function readKeyFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setFileProblem(null);
    if (!file) return;
    if (file.size > MAX_PRIVATE_KEY_BYTES) {
      setFileProblem(
        `That file is ${Math.round(file.size / 1024)} KiB; a private key is at most 16 KiB. Did you pick the right file?`,
      );
      return;
    }
    // Read here, in the browser: the text goes into the field above and is sent only when the form is.
    void file.text().then((text) => onChange({ ...value, privateKey: text }));
  }

  const methodError = errors?.auth;
  return (
    <fieldset className="space-y-4">
      <legend className="mb-2 text-sm font-medium">{legend}</legend>
      <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Authentication method">
        {(Object.keys(METHOD_LABELS) as AuthMethodChoice[]).map((method) => (
          <label
            key={method}
            className={
              "flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm " +
              "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-500 " +
              (value.method === method
                ? "border-sky-600 bg-sky-50 text-sky-900 dark:border-sky-400 dark:bg-sky-950 dark:text-sky-100"
                : "border-slate-300 dark:border-slate-600")
            }
          >
            <input
              type="radio"
              name={name}
              value={method}
              checked={value.method === method}
              onChange={() => onChange({ ...value, method })}
              className="accent-sky-600 outline-none"
            />
            {METHOD_LABELS[method]}
          </label>
        ))}
      </div>
      {methodError ? <p className="text-sm text-red-700 dark:text-red-300">{methodError}</p> : null}
      {value.method === "key" ? (
        <>
          <TextAreaField
            label="Private key"
            rows={6}
            spellCheck={false}
            autoComplete="off"
            placeholder={"-----BEGIN OPENSSH PRIVATE KEY-----\n…\n-----END OPENSSH PRIVATE KEY-----"}
            isMonospace
            value={value.privateKey}
            onChange={(event) => onChange({ ...value, privateKey: event.target.value })}
            error={errors?.["auth.privateKey"]}
            hint="Paste the key text, or choose the key file below. Stored sealed on the server and never shown again."
          />
          <div>
            <label htmlFor={fileHintId} className="mb-1 block text-sm font-medium">
              Or choose a key file
            </label>
            <input
              id={fileHintId}
              type="file"
              onChange={readKeyFile}
              className={
                "block w-full rounded-md text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 " +
                "file:bg-slate-200 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-900 " +
                `dark:text-slate-300 dark:file:bg-slate-700 dark:file:text-slate-100 ${FOCUS_RING}`
              }
            />
            {fileProblem ? <p className="mt-1 text-sm text-red-700 dark:text-red-300">{fileProblem}</p> : null}
          </div>
          <TextField
            label="Key passphrase (optional)"
            type="password"
            autoComplete="new-password"
            value={value.passphrase}
            onChange={(event) => onChange({ ...value, passphrase: event.target.value })}
            error={errors?.["auth.passphrase"]}
            hint="Leave empty for a key without a passphrase."
          />
        </>
      ) : null}
      {value.method === "password" ? (
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={value.password}
          onChange={(event) => onChange({ ...value, password: event.target.value })}
          error={errors?.["auth.password"]}
        />
      ) : null}
      {value.method === "local" ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Commands run on the machine Wirespeed runs on, without SSH.
        </p>
      ) : null}
    </fieldset>
  );
}
