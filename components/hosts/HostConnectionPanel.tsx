"use client";

import { useRef, useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { checkHostAction } from "@/lib/inventory/actions/check-host";
import { pinHostKeyAction } from "@/lib/inventory/actions/pin-host-key";
import type { HostCheck } from "@/lib/hosts/check";
import { useCan } from "@/components/auth/ViewerContext";
import { platformLabel } from "@/lib/platforms";
import { ModalDialog } from "@/components/ui/ModalDialog";
import { Button, HintText, Notice } from "@/components/ui/ui";

const HOST_KEY_COMMAND = "ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub";

/** What to do about a failed check, under its message, with commands as code. */
function CheckHint({ hint }: { hint: string | null | undefined }) {
  return hint ? (
    <p className="mt-1">
      <HintText text={hint} />
    </p>
  ) : null;
}

/**
 * "Test connection": the first contact shows the fingerprint the host presents and asks
 * the user to compare it with the host's own before it is pinned; then the check logs in
 * and shows platform and iperf3, or what is missing and how to install it.
 */
export function HostConnectionPanel({
  hostId,
  hostName,
  buttonLabel = "Test connection",
}: {
  hostId: number;
  hostName: string;
  buttonLabel?: string;
}) {
  const [check, setCheck] = useState<HostCheck | null>(null);
  // The key dialog closed without trusting: "rejected" (it does not match) or "closed" (Escape: not judged).
  const [keyClosed, setKeyClosed] = useState<"rejected" | "closed" | null>(null);
  // Two actions, one message: the last answer's (each success or refusal clears the other's).
  const checking = useActionForm();
  const pinning = useActionForm();
  const isChecking = checking.isPending;
  const isPinning = pinning.isPending;
  const failure = checking.message ?? pinning.message;
  const testButtonRef = useRef<HTMLButtonElement>(null);

  function runCheck() {
    setKeyClosed(null);
    checking.submit(() => checkHostAction({ hostId }), {
      onSuccess: (value) => {
        setCheck(value);
        pinning.reset();
      },
      onFailure: () => pinning.reset(),
    });
  }

  function pin(fingerprint: string) {
    pinning.submit(() => pinHostKeyAction({ hostId, fingerprint }), {
      onSuccess: (value) => {
        setCheck(value);
        checking.reset();
      },
      onFailure: () => checking.reset(),
    });
  }

  const needsConfirmation =
    check && (check.hostKey.status === "unconfirmed" || check.hostKey.status === "mismatch") && check.hostKey.presented;

  return (
    <div className="space-y-4">
      <Button
        ref={testButtonRef}
        type="button"
        variant={check ? "secondary" : "primary"}
        onClick={runCheck}
        isPending={isChecking}
        pendingLabel="Testing…"
        disabled={isPinning}
      >
        {check ? "Test again" : buttonLabel}
      </Button>
      <div aria-live="polite" className="space-y-4">
        {failure ? (
          <Notice tone="error" title="The check did not run">
            <HintText text={failure} />
          </Notice>
        ) : null}
        {check && !check.reachable && check.error ? (
          <Notice tone="error" title={`${hostName} cannot be reached`} testId="check-error">
            <p>{check.error.message}</p>
            <CheckHint hint={check.error.hint} />
          </Notice>
        ) : null}
        {needsConfirmation && keyClosed === "rejected" ? (
          <Notice tone="error" title="Do not trust this key">
            Something other than your host may be answering at this address. Check the address and port in the
            host&apos;s settings, or the network between here and the host, then test again.
          </Notice>
        ) : null}
        {needsConfirmation && keyClosed === "closed" ? (
          <Notice tone="warning" title="The host key is not trusted yet">
            Nothing was sent to {hostName}. Test again when you can compare its key with the host&apos;s own.
          </Notice>
        ) : null}
        {check && check.reachable && !needsConfirmation ? <CheckResult check={check} hostName={hostName} /> : null}
      </div>
      {/* A dialog: nothing else on the page should be done before the key is judged. */}
      <ModalDialog
        open={Boolean(needsConfirmation) && keyClosed === null}
        onClose={() => setKeyClosed("closed")}
        titleId="fingerprint-heading"
        describedById="fingerprint-what"
        returnFocusTo={testButtonRef}
        testId="fingerprint-dialog"
      >
        {needsConfirmation ? (
          <FingerprintConfirmation
            hostName={hostName}
            presented={check.hostKey.presented!}
            pinned={check.hostKey.status === "mismatch" ? check.hostKey.pinned : null}
            isPinning={isPinning}
            onConfirm={() => pin(check.hostKey.presented!)}
            onReject={() => setKeyClosed("rejected")}
          />
        ) : null}
      </ModalDialog>
    </div>
  );
}

function FingerprintConfirmation({
  hostName,
  presented,
  pinned,
  isPinning,
  onConfirm,
  onReject,
}: {
  hostName: string;
  presented: string;
  pinned: string | null;
  isPinning: boolean;
  onConfirm: () => void;
  onReject: () => void;
}) {
  const canTrust = useCan("credentials");
  return (
    <div
      className={
        "rounded-lg border p-4 " +
        (pinned
          ? "border-red-300 bg-red-50 dark:border-red-800 dark:bg-red-950"
          : "border-amber-300 bg-amber-50 dark:border-amber-700 dark:bg-amber-950")
      }
    >
      <h2 id="fingerprint-heading" className="font-semibold">
        {pinned ? `The host key of ${hostName} has changed` : `Confirm the host key of ${hostName}`}
      </h2>
      <p id="fingerprint-what" className="mt-2 text-sm">
        {pinned
          ? "The host presents another key than the one you trusted. Nothing was sent to it. If it was " +
            "reinstalled, compare the new key with the host's own before you trust it:"
          : "Nothing has been sent to the host yet. It presents this key:"}
      </p>
      {pinned ? (
        <p className="mt-2 text-sm">
          Trusted until now: <code className="font-mono text-xs break-all">{pinned}</code>
        </p>
      ) : null}
      <p
        className="mt-2 rounded-md bg-white px-3 py-2 font-mono text-sm break-all text-slate-900 dark:bg-slate-900 dark:text-slate-100"
        data-testid="presented-fingerprint"
      >
        {presented}
      </p>
      <p className="mt-3 text-sm">On the host itself (its console, or a session you already trust), run</p>
      <pre className="mt-1 overflow-x-auto rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100 dark:bg-black">
        <code>{HOST_KEY_COMMAND}</code>
      </pre>
      <p className="mt-2 text-sm">
        and check that it prints the same SHA256 fingerprint. Only then trust it: Wirespeed will refuse any other key
        from now on.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        {canTrust ? (
          <Button
            type="button"
            variant="primary"
            onClick={onConfirm}
            isPending={isPinning}
            pendingLabel="Trusting and checking…"
          >
            It matches: trust this key
          </Button>
        ) : (
          <p className="text-sm">Only an admin can trust a host key: ask one to check it.</p>
        )}
        {/* The dialog opens here, on the choice that trusts nothing: Enter alone never trusts a key. */}
        <Button type="button" data-autofocus onClick={onReject} disabled={isPinning}>
          It does not match
        </Button>
      </div>
    </div>
  );
}

function CheckResult({ check, hostName }: { check: HostCheck; hostName: string }) {
  const isMissingIperf = check.error?.kind === "not-found";
  return (
    <section
      aria-labelledby="check-result-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900"
      data-testid="check-result"
    >
      <h3 id="check-result-heading" className="font-semibold">
        {check.error ? `${hostName} answered, with a problem` : `${hostName} is ready for tests`}
      </h3>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">Host key</dt>
        <dd className="min-w-0 break-all">
          {check.hostKey.status === "local" ? (
            "this machine (no SSH)"
          ) : (
            <>
              trusted <code className="font-mono text-xs">{check.hostKey.pinned ?? check.hostKey.presented}</code>
            </>
          )}
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">Platform</dt>
        <dd data-testid="check-platform">
          {check.platform
            ? `${platformLabel(check.platform)}${check.os && check.os.toLowerCase() !== platformLabel(check.platform).toLowerCase() ? ` (${check.os})` : ""}`
            : "not detected"}
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">iperf3</dt>
        <dd data-testid="check-iperf3">
          {check.iperf3 ? (
            <>
              {check.iperf3.version}{" "}
              <span className="font-mono text-xs text-slate-600 dark:text-slate-400">{check.iperf3.path}</span>
            </>
          ) : (
            <span className="font-medium text-red-700 dark:text-red-300">missing</span>
          )}
        </dd>
      </dl>
      {check.error ? (
        <div className="mt-3">
          <Notice
            tone={isMissingIperf ? "warning" : "error"}
            title={isMissingIperf ? "iperf3 is missing" : check.error.message}
          >
            {isMissingIperf ? <p>{check.error.message}.</p> : null}
            <CheckHint hint={check.error.hint} />
          </Notice>
        </div>
      ) : null}
    </section>
  );
}
