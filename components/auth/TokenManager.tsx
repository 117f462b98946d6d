"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { CopyButton } from "@/components/runs/CopyButton";
import { ActiveState, WideTimeCell } from "./AccountCells";
import { Button, Notice, TextField } from "@/components/ui/ui";
import { createTokenAction } from "@/lib/auth/actions/create-token";
import { revokeTokenAction } from "@/lib/auth/actions/revoke-token";
import type { ApiTokenView } from "@/lib/auth/tokens";

/**
 * API tokens: create one (shown once, here, and never again) and revoke. `showOwner` for
 * the admin's list of everyone's tokens; `canCreate` for the viewer's own list.
 */
export function TokenManager({
  tokens,
  canCreate,
  showOwner = false,
}: {
  tokens: ApiTokenView[];
  canCreate: boolean;
  showOwner?: boolean;
}) {
  const router = useRouter();
  const [created, setCreated] = useState<string | null>(null);
  const { isPending, message, fieldErrors, submit } = useActionForm();
  const nameError = fieldErrors.name;

  function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "");
    submit(() => createTokenAction({ name }), {
      onSuccess: (value) => {
        setCreated(value.token);
        form.reset();
        router.refresh();
      },
    });
  }

  function revoke(id: number) {
    submit(() => revokeTokenAction({ tokenId: id }), {
      onSuccess: () => router.refresh(),
      onFailure: () => router.refresh(),
    });
  }

  return (
    <div className="space-y-4">
      {created ? (
        <Notice tone="success" title="Copy this token now: it is not shown again" testId="new-token">
          <div className="mt-1 flex flex-wrap items-center gap-2">
            <code
              data-testid="new-token-value"
              className="rounded bg-slate-900/10 px-2 py-1 font-mono text-xs break-all dark:bg-white/15"
            >
              {created}
            </code>
            <CopyButton text={created} label="Copy token" />
          </div>
          <p className="mt-2">
            Send it as <code className="font-mono text-xs">Authorization: Bearer …</code>; it carries your role.
          </p>
        </Notice>
      ) : null}
      {message ? <Notice tone="error">{message}</Notice> : null}
      {canCreate ? (
        <form onSubmit={create} className="flex flex-wrap items-end gap-3">
          <TextField
            label="Token name"
            name="name"
            placeholder="e.g. nightly sweep script"
            maxLength={80}
            error={nameError}
            className="min-w-64 flex-1"
          />
          <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Creating…">
            Create token
          </Button>
        </form>
      ) : null}
      {tokens.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No API tokens yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-600 uppercase dark:text-slate-400">
              <tr>
                <th className="py-2 pr-4">Name</th>
                {showOwner ? <th className="py-2 pr-4">User</th> : null}
                <th className="hidden py-2 pr-4 sm:table-cell">Starts with</th>
                <th className="hidden py-2 pr-4 sm:table-cell">Created</th>
                <th className="hidden py-2 pr-4 sm:table-cell">Last used</th>
                <th className="py-2 pr-4">Status</th>
                <th className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
              {tokens.map((token) => (
                <tr key={token.id} data-testid={`token-${token.id}`}>
                  <td className="py-2 pr-4 font-medium break-words">{token.name}</td>
                  {showOwner ? <td className="py-2 pr-4">{token.username}</td> : null}
                  <td className="hidden py-2 pr-4 font-mono text-xs sm:table-cell">{token.prefix}…</td>
                  <WideTimeCell date={token.createdAt} />
                  <WideTimeCell date={token.lastUsedAt} />
                  <td className="py-2 pr-4">
                    <ActiveState inactive={token.revokedAt ? "revoked" : null} />
                  </td>
                  <td className="py-2 text-right">
                    {token.revokedAt ? null : (
                      <Button
                        type="button"
                        variant="danger"
                        disabled={isPending}
                        onClick={() => revoke(token.id)}
                        aria-label={`Revoke token ${token.name}`}
                      >
                        Revoke
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
