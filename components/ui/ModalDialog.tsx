"use client";

import { useEffect, useRef, type KeyboardEvent, type ReactNode, type RefObject } from "react";

// Every modal of the app (delete a host, a schedule, a rule; confirm a host key) is this one
// component over the native <dialog>, so that each behaves the same for a keyboard or a screen
// reader:
// - showModal() makes the rest of the page inert and announces the dialog by its title;
// - Tab and Shift+Tab cycle through the dialog's own controls, never out of it to the browser;
// - it opens on the control marked data-autofocus (the safe choice), else on its first one;
// - Escape closes it (the dialog's `cancel` event), as its close button does;
// - when it closes, focus goes back where it was before it opened, or to `returnFocusTo` when that
//   element is gone or was disabled meanwhile (a button that showed a spinner while the dialog's
//   reason was fetched).

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), ' +
  'textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The controls Tab stops at, in order: those shown and enabled. */
function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0);
}

function canTakeFocus(element: Element | null): element is HTMLElement {
  return (
    element instanceof HTMLElement &&
    element.isConnected &&
    element !== document.body &&
    !element.matches(":disabled") &&
    element.getClientRects().length > 0
  );
}

export function ModalDialog({
  open,
  onClose,
  titleId,
  describedById,
  returnFocusTo,
  testId,
  children,
}: {
  open: boolean;
  /** Escape, or a close button inside: the owner sets `open` to false */
  onClose: () => void;
  /** the id of the dialog's heading: its accessible name */
  titleId: string;
  describedById?: string;
  /** where focus goes on close when the element focused before is no longer there or enabled */
  returnFocusTo?: RefObject<HTMLElement | null>;
  testId?: string;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<Element | null>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      openerRef.current = document.activeElement;
      dialog.showModal();
      // The control marked data-autofocus (the safe choice: "Keep it"), else the first one.
      const preferred = dialog.querySelector<HTMLElement>("[data-autofocus]") ?? focusableIn(dialog)[0];
      preferred?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
      // After the close's own focus handling, and once the opener (or the fallback) can take focus
      // again: a button disabled while the dialog's action ran is enabled by a later commit. Up to
      // a second of frames, and never once focus has gone somewhere else.
      let frames = 0;
      const giveFocusBack = () => {
        if (document.activeElement !== document.body && document.activeElement !== null) return;
        const opener = openerRef.current;
        const target = canTakeFocus(opener) ? opener : (returnFocusTo?.current ?? null);
        if (canTakeFocus(target)) target.focus();
        else if ((frames += 1) < 60) requestAnimationFrame(giveFocusBack);
      };
      requestAnimationFrame(giveFocusBack);
    }
  }, [open, returnFocusTo]);

  function trapTab(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== "Tab" || !dialogRef.current) return;
    const controls = focusableIn(dialogRef.current);
    if (controls.length === 0) {
      event.preventDefault();
      return;
    }
    const first = controls[0]!;
    const last = controls.at(-1)!;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !dialogRef.current.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !dialogRef.current.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-describedby={describedById}
      data-testid={testId}
      onKeyDown={trapTab}
      onCancel={(event) => {
        // Escape: the owner closes it, so that its state and the dialog agree.
        event.preventDefault();
        onClose();
      }}
      className={
        "m-auto w-[min(32rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-0 " +
        "text-slate-900 shadow-xl backdrop:bg-slate-950/60 dark:border-slate-700 dark:bg-slate-900 " +
        "dark:text-slate-100"
      }
    >
      <div className="space-y-4 p-5">{children}</div>
    </dialog>
  );
}
