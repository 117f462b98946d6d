"use client";

import { useId, useRef, useState } from "react";
import { useCan } from "@/components/auth/ViewerContext";
import { useActionForm } from "@/components/forms/use-action-form";
import { CopyButton } from "@/components/runs/CopyButton";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { Button, CheckboxField, Notice, SelectField } from "@/components/ui/ui";
import { LocalTime } from "@/components/units/LocalTime";
import { createShareAction } from "@/lib/shares/actions/create-share";
import type { ShareJson } from "@/lib/shares/contract";
import { DEFAULT_SHARE_DAYS, type ShareKind } from "@/lib/shares/schemas";

const EXPIRY_CHOICES = [
  { value: "1", label: "1 day" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "never", label: "Never" },
] as const;

const WHAT: Record<ShareKind, string> = { run: "this run", experiment: "this experiment", link: "this link's history" };

/**
 * "Share": a read-only link to this page that anyone can open without an account, with an expiry
 * and the lab's names and addresses hidden if asked; shows the URL to copy. Operators and admins only.
 */
export function ShareButton({ kind, id, isCompact = false }: { kind: ShareKind; id: number; isCompact?: boolean }) {
  const mayShare = useCan("share");
  const [isOpen, setOpen] = useState(false);
  const [expiry, setExpiry] = useState(String(DEFAULT_SHARE_DAYS));
  const [hideAddresses, setHideAddresses] = useState(true);
  const [share, setShare] = useState<ShareJson | null>(null);
  const { isPending, message, submit, reset } = useActionForm();
  const titleId = useId();
  const openerRef = useRef<HTMLButtonElement>(null);
  if (!mayShare) return null;
  const close = () => {
    setOpen(false);
    setShare(null);
    reset();
  };
  return (
    <>
      <Button
        ref={openerRef}
        type="button"
        onClick={() => setOpen(true)}
        data-testid="share-open"
        // Beside the run header's small Run again, the same size.
        className={isCompact ? "px-2.5! py-1! text-xs!" : ""}
      >
        Share
      </Button>
      <ModalDialog open={isOpen} onClose={close} titleId={titleId} returnFocusTo={openerRef} testId="share-dialog">
        <h2 id={titleId} className="text-lg font-semibold">
          Share {WHAT[kind]}
        </h2>
        {share ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-700 dark:text-slate-300">
              Anyone with this link can read this page, without an account, until{" "}
              {share.expiresAt ? <LocalTime iso={share.expiresAt} /> : "you revoke it"}. Copy it now: it is shown this
              once (Wirespeed keeps only a hash of it). Revoke it on the Shares page.
            </p>
            <div className="flex items-center gap-2">
              <input
                readOnly
                value={share.url}
                aria-label="Share link"
                data-testid="share-url"
                onFocus={(event) => event.target.select()}
                className="block w-full min-w-0 rounded-md border border-slate-300 bg-slate-50 px-2 py-1.5 font-mono text-xs dark:border-slate-600 dark:bg-slate-800"
              />
              <CopyButton text={share.url} label="Copy the share link" />
            </div>
            <div className="flex justify-end">
              <Button type="button" onClick={close} data-autofocus>
                Done
              </Button>
            </div>
          </div>
        ) : (
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              submit(
                () =>
                  createShareAction({
                    kind,
                    id,
                    expiresInDays: expiry === "never" ? null : Number(expiry),
                    hideAddresses,
                  }),
                { onSuccess: setShare },
              );
            }}
          >
            <SelectField label="Expires after" value={expiry} onChange={(event) => setExpiry(event.target.value)}>
              {EXPIRY_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </SelectField>
            <CheckboxField
              label="Hide host names and addresses"
              hint='Hosts read "host A", "host B"; addresses lose their host part (10.0.0.x).'
              checked={hideAddresses}
              onChange={setHideAddresses}
            />
            {message ? <Notice tone="error">{message}</Notice> : null}
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Creating…" data-autofocus>
                Create link
              </Button>
            </div>
          </form>
        )}
      </ModalDialog>
    </>
  );
}
