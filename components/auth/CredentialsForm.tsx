"use client";

import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button, Notice, TextField } from "@/components/ui/ui";
import type { ActionResult } from "@/lib/action";

type Props = {
  mode: "sign-in" | "set-up";
  action: (input: { username: string; password: string; next?: string }) => Promise<ActionResult<{ next: string }>>;
  next?: string;
};

/** The sign-in form, and the first admin's set-up form (which asks for the password twice). */
export function CredentialsForm({ mode, action, next }: Props) {
  const router = useRouter();
  const { isPending, message, fieldErrors, fail, submit: run } = useActionForm();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get("username") ?? "");
    const password = String(form.get("password") ?? "");
    if (mode === "set-up" && password !== String(form.get("confirm") ?? "")) {
      fail(null, [{ field: "confirm", message: "does not match the password" }]);
      return;
    }
    run(() => action({ username, password, next }), {
      onSuccess: (value) => {
        router.replace(value.next);
        router.refresh();
      },
    });
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {message ? (
        <Notice tone="error" testId="auth-error">
          {message}
        </Notice>
      ) : null}
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        required
        maxLength={64}
        error={fieldErrors.username}
        autoFocus
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete={mode === "set-up" ? "new-password" : "current-password"}
        required
        error={fieldErrors.password}
        hint={mode === "set-up" ? "At least 10 characters." : undefined}
      />
      {mode === "set-up" ? (
        <TextField
          label="Password again"
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          error={fieldErrors.confirm}
        />
      ) : null}
      <Button
        type="submit"
        variant="primary"
        isPending={isPending}
        pendingLabel={mode === "set-up" ? "Creating…" : "Signing in…"}
        className="w-full"
      >
        {mode === "set-up" ? "Create admin account" : "Sign in"}
      </Button>
    </form>
  );
}
