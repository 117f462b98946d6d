"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/action";

/** One field the server refused, by its path in the request (`options.parallel`, `values[2]`). */
export type FieldError = { field: string; message: string };

/** A refused action's answer: the message and the fields that were wrong. */
export type ActionFailure = Extract<ActionResult<never>, { ok: false }>;

/**
 * Where one field error shows on a form: the key of the field that shows it and the message as written
 * there. Forms whose fields are named as the request's are served by the default, which keeps both.
 */
export type FieldPlacement = (error: FieldError) => FieldError;

/** The placement of a form whose fields are named as the request's (and of errors a form found itself). */
export const asSent: FieldPlacement = (error) => error;

/** The field errors by form key, the first message of each: the one mapper every form shows its errors with. */
export function fieldErrorsByKey(
  errors: readonly FieldError[],
  place: FieldPlacement = asSent,
): Record<string, string> {
  const byKey: Record<string, string> = {};
  for (const error of errors) {
    const placed = place(error);
    byKey[placed.field] ??= placed.message;
  }
  return byKey;
}

/** The field errors an action answered that no field of the form shows (`placed` names those it shows). */
export function unplacedErrors(errors: readonly FieldError[], placed: readonly string[]): FieldError[] {
  return errors.filter((entry) => !placed.includes(entry.field));
}

/**
 * The form's message after a refused action: "Check the fields marked below.", followed by the
 * errors of fields the form has no place for (so none is lost), or the action's own message.
 */
export function formFailureMessage(
  result: { message: string; errors: readonly FieldError[] },
  byKey: Record<string, string>,
  placed: ReadonlySet<string>,
): string {
  if (result.errors.length === 0) return result.message;
  const unplaced = Object.entries(byKey).filter(([key]) => !placed.has(key));
  return `Check the fields marked below.${unplaced.map(([key, text]) => ` ${key}: ${text}`).join("")}`;
}

type ApiErrorAnswer = { error?: { message?: string; fields?: FieldError[] } };

/**
 * The answer of a browser write through the REST API (the imports' upload, whose files are too large for an
 * action) as an action's: the JSON body, or the API's error message (lib/api/errors.ts) and fields.
 */
export async function apiResultOf<T>(response: Response): Promise<ActionResult<T>> {
  const body = (await response.json().catch(() => null)) as (T & ApiErrorAnswer) | null;
  if (!response.ok || !body) {
    return {
      ok: false,
      message: body?.error?.message ?? `The server answered ${response.status}.`,
      errors: body?.error?.fields ?? [],
    };
  }
  return { ok: true, value: body };
}

/** What a write that got no answer at all says (the server is down, or the network). */
export const NO_ANSWER: ActionFailure = {
  ok: false,
  message: "The server did not answer: check that Wirespeed is running.",
  errors: [],
};

type Failure = { message: string | null; errors: readonly FieldError[]; byKey: Record<string, string> };

const NO_FAILURE: Failure = { message: null, errors: [], byKey: {} };

export type ActionHandlers<T> = {
  /** After the action succeeded (the message and field errors are cleared first); pending until it settles. */
  onSuccess?: (value: T) => void | Promise<void>;
  /** After it was refused (its message and field errors are shown first; set another message here). */
  onFailure?: (failure: ActionFailure, fieldErrors: Record<string, string>) => void;
};

/**
 * A form (or a button) around a server action: whether it is running, the message and field errors of its
 * last refusal, and the reset. `place` says where a field error shows (see FieldPlacement); it is applied
 * when the answer comes, with what the form shows then.
 */
export function useActionForm(place: FieldPlacement = asSent) {
  const [isPending, startTransition] = useTransition();
  const [failure, setFailure] = useState<Failure>(NO_FAILURE);

  /** Shows a refusal the form found itself, or another message (null for none); `how` places its errors. */
  function fail(message: string | null, errors: readonly FieldError[] = [], how = place): Record<string, string> {
    const byKey = fieldErrorsByKey(errors, how);
    setFailure({ message, errors, byKey });
    return byKey;
  }

  /** Clears the message and the field errors. */
  function reset() {
    setFailure(NO_FAILURE);
  }

  /** Runs `action` in a transition and shows what it answered. */
  function submit<T>(action: () => Promise<ActionResult<T>>, handlers: ActionHandlers<T> = {}) {
    startTransition(async () => {
      const result = await action();
      if (result.ok) {
        reset();
        await handlers.onSuccess?.(result.value);
      } else {
        const byKey = fail(result.message, result.errors);
        handlers.onFailure?.(result, byKey);
      }
    });
  }

  return {
    isPending,
    /** The message of the last refusal, or the one set with `setMessage`/`fail`. */
    message: failure.message,
    /** The field errors of the last refusal, as the server named them. */
    errors: failure.errors,
    /** The same by form key (see `place`), the first message of each. */
    fieldErrors: failure.byKey,
    setMessage: (message: string | null) => setFailure((previous) => ({ ...previous, message })),
    fail,
    reset,
    submit,
    /** For work around an action that answers no ActionResult (signing out, a preview). */
    startTransition,
  };
}
