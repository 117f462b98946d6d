"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { ActiveState, WideTimeCell } from "./AccountCells";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { Button, Notice, SelectField, TextField } from "@/components/ui/ui";
import { createUserAction } from "@/lib/auth/actions/create-user";
import { deleteUserAction } from "@/lib/auth/actions/delete-user";
import { updateUserAction } from "@/lib/auth/actions/update-user";
import type { ActionResult } from "@/lib/action";
import { ROLE_DESCRIPTIONS, ROLES } from "@/lib/auth/roles";
import type { UserView } from "@/lib/auth/users";

/** How each kind of user signs in, under their name. */
const SIGNS_IN: Record<UserView["source"], string> = {
  local: "password",
  oidc: "identity provider (role from its groups)",
  proxy: "trusted proxy (role from its groups)",
};

const COLUMNS = [
  { header: "User" },
  { header: "Role" },
  { header: "Last sign-in" },
  { header: "Status" },
  { header: <span className="sr-only">Actions</span> },
];

/** The admin's list of accounts: create, change role, reset password, disable, delete. */
export function UserManager({ users, selfId }: { users: UserView[]; selfId: number | null }) {
  const router = useRouter();
  const { isPending, message: failure, fieldErrors, submit } = useActionForm();
  const [done, setDone] = useState<string | null>(null);
  const [resetting, setResetting] = useState<number | null>(null);
  const message =
    failure !== null
      ? { tone: "error" as const, text: failure }
      : done !== null
        ? { tone: "success" as const, text: done }
        : null;

  function apply(promise: () => Promise<ActionResult<unknown>>, success: string, after?: () => void) {
    submit(promise, {
      onSuccess: () => {
        setDone(success);
        after?.();
        router.refresh();
      },
      onFailure: () => {
        setDone(null);
        router.refresh();
      },
    });
  }

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = {
      username: String(data.get("username") ?? ""),
      password: String(data.get("password") ?? ""),
      role: String(data.get("role") ?? ""),
    };
    apply(
      () => createUserAction(input),
      `Created ${input.username}.`,
      () => form.reset(),
    );
  }

  function resetPassword(event: FormEvent<HTMLFormElement>, user: UserView) {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get("password") ?? "");
    apply(
      () => updateUserAction({ userId: user.id, password }),
      `New password set for ${user.username}; their sessions ended.`,
      () => setResetting(null),
    );
  }

  return (
    <div className="space-y-6">
      {message ? (
        <Notice tone={message.tone} testId="users-message">
          {message.text}
        </Notice>
      ) : null}
      <TableOrCards
        items={users}
        label="Users"
        columns={COLUMNS}
        keyOf={(user) => user.id}
        rowTestId={(user) => `user-${user.username}`}
        isStackedWhenNarrow
        look="plain"
        row={(user) => (
          <>
            <td className="block py-1 pr-4 font-medium sm:table-cell sm:py-2">
              {user.username}
              {user.id === selfId ? (
                <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">(you)</span>
              ) : null}
              <span
                className="block text-xs font-normal text-slate-600 dark:text-slate-400"
                data-testid={`user-source-${user.username}`}
              >
                Signs in with: {SIGNS_IN[user.source]}
              </span>
            </td>
            <td className="block py-1 pr-4 sm:table-cell sm:py-2">
              <label className="sr-only" htmlFor={`role-${user.id}`}>
                Role of {user.username}
              </label>
              <select
                id={`role-${user.id}`}
                value={user.role}
                disabled={isPending}
                onChange={(event) =>
                  apply(
                    () => updateUserAction({ userId: user.id, role: event.target.value }),
                    `${user.username} is now ${event.target.value}.`,
                  )
                }
                className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900"
              >
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {role}
                  </option>
                ))}
              </select>
            </td>
            <WideTimeCell date={user.lastLoginAt} />
            <td className="block py-1 pr-4 sm:table-cell sm:py-2">
              <ActiveState inactive={user.disabled ? "disabled" : null} />
            </td>
            <td className="block py-1 sm:table-cell sm:py-2">
              <div className="flex flex-wrap gap-2 sm:justify-end">
                {user.source === "local" ? (
                  <Button
                    type="button"
                    disabled={isPending}
                    onClick={() => setResetting(resetting === user.id ? null : user.id)}
                  >
                    Reset password
                  </Button>
                ) : null}
                {user.id === selfId ? null : (
                  <>
                    <Button
                      type="button"
                      disabled={isPending}
                      onClick={() =>
                        apply(
                          () => updateUserAction({ userId: user.id, disabled: !user.disabled }),
                          `${user.username} ${user.disabled ? "enabled" : "disabled"}.`,
                        )
                      }
                    >
                      {user.disabled ? "Enable" : "Disable"}
                    </Button>
                    <Button
                      type="button"
                      variant="danger"
                      disabled={isPending}
                      onClick={() => {
                        if (
                          window.confirm(
                            `Delete ${user.username}? Their sessions and API tokens are deleted with the account; the audit log keeps their name.`,
                          )
                        ) {
                          apply(() => deleteUserAction({ userId: user.id }), `Deleted ${user.username}.`);
                        }
                      }}
                    >
                      Delete
                    </Button>
                  </>
                )}
              </div>
              {resetting === user.id ? (
                <form
                  onSubmit={(event) => resetPassword(event, user)}
                  className="mt-2 flex flex-wrap items-end justify-end gap-2"
                >
                  <TextField
                    label={`New password for ${user.username}`}
                    name="password"
                    type="password"
                    autoComplete="new-password"
                    error={fieldErrors.password}
                  />
                  <Button type="submit" variant="primary" isPending={isPending}>
                    Set password
                  </Button>
                </form>
              ) : null}
            </td>
          </>
        )}
      />

      <form
        onSubmit={create}
        className="rounded-lg border border-slate-200 p-4 dark:border-slate-800"
        aria-labelledby="new-user-heading"
      >
        <h2 id="new-user-heading" className="mb-3 font-semibold">
          Add a user
        </h2>
        <div className="grid gap-3 sm:grid-cols-3">
          <TextField label="Username" name="username" autoComplete="off" maxLength={64} error={fieldErrors.username} />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete="new-password"
            error={resetting === null ? fieldErrors.password : undefined}
            hint="At least 10 characters; tell it to them yourself."
          />
          <SelectField label="Role" name="role" defaultValue="viewer" error={fieldErrors.role}>
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {role}: {ROLE_DESCRIPTIONS[role]}
              </option>
            ))}
          </SelectField>
        </div>
        <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Adding…" className="mt-3">
          Add user
        </Button>
      </form>
    </div>
  );
}
