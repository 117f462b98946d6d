"use client";

import {
  useId,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";

// The form kit of every page: buttons, fields, notices and hint text.

import { buttonClass, FOCUS_RING, type ButtonVariant } from "./styles";

export { buttonClass, FOCUS_RING };

/** A button that says it is working while `isPending`, and cannot be pressed twice. */
export function Button({
  variant = "secondary",
  isPending = false,
  pendingLabel,
  children,
  className = "",
  disabled,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  isPending?: boolean;
  pendingLabel?: string;
  ref?: Ref<HTMLButtonElement>;
}) {
  return (
    <button
      {...props}
      disabled={disabled || isPending}
      aria-busy={isPending || undefined}
      className={`${buttonClass(variant)} ${className}`}
    >
      {isPending ? <Spinner /> : null}
      {isPending && pendingLabel ? pendingLabel : children}
    </button>
  );
}

export function Spinner() {
  return (
    <span
      aria-hidden
      className="inline-block h-3.5 w-3.5 animate-spin rounded-full border-2 border-current border-r-transparent"
    />
  );
}

const CONTROL =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 " +
  "placeholder:text-slate-500 dark:bg-slate-900 dark:text-slate-100 " +
  "dark:placeholder:text-slate-400 outline-none focus-visible:ring-2 " +
  "focus-visible:ring-sky-500";

function controlClass(hasError: boolean): string {
  return `${CONTROL} ${hasError ? "border-red-600 dark:border-red-400" : "border-slate-300 dark:border-slate-600"}`;
}

type FieldProps = { label: string; error?: string; hint?: ReactNode; className?: string };

/** A field's hint and the server's message for it, with the ids its control's aria-describedby names. */
export function FieldMessages({ id, hint, error }: { id: string; hint?: ReactNode; error?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300" data-testid="field-error">
          {error}
        </p>
      ) : null}
    </>
  );
}

/** Label, control, hint and the server's message for this field, wired with aria-describedby. */
function FieldFrame({
  label,
  error,
  hint,
  className = "",
  id,
  children,
}: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      {children}
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

function describedBy(id: string, error?: string, hint?: ReactNode): string | undefined {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

export function TextField({
  label,
  error,
  hint,
  className,
  ...props
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const generated = useId();
  const id = props.id ?? generated;
  return (
    <FieldFrame label={label} error={error} hint={hint} className={className} id={id}>
      <input
        {...props}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={controlClass(!!error)}
      />
    </FieldFrame>
  );
}

export function TextAreaField({
  label,
  error,
  hint,
  className,
  isMonospace = false,
  ...props
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement> & { isMonospace?: boolean }) {
  const generated = useId();
  const id = props.id ?? generated;
  return (
    <FieldFrame label={label} error={error} hint={hint} className={className} id={id}>
      <textarea
        {...props}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={`${controlClass(!!error)} ${isMonospace ? "font-mono text-xs" : ""}`}
      />
    </FieldFrame>
  );
}

export function SelectField({
  label,
  error,
  hint,
  className,
  children,
  ...props
}: FieldProps & SelectHTMLAttributes<HTMLSelectElement>) {
  const generated = useId();
  const id = props.id ?? generated;
  return (
    <FieldFrame label={label} error={error} hint={hint} className={className} id={id}>
      <select
        {...props}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={controlClass(!!error)}
      >
        {children}
      </select>
    </FieldFrame>
  );
}

/** A message block: `alert` for failures (announced at once), `status` for the rest. */
/** A checkbox with its label beside it, a hint under the label and an error under both. */
export function CheckboxField({
  label,
  hint,
  checked,
  onChange,
  error,
}: {
  label: string;
  hint?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div>
      <label className="inline-flex items-start gap-2 text-sm font-medium">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-describedby={describedBy(id, error)}
          className="mt-0.5 h-4 w-4 shrink-0 accent-sky-600"
        />
        <span>
          {label}
          {hint ? <span className="block text-xs font-normal text-slate-600 dark:text-slate-400">{hint}</span> : null}
        </span>
      </label>
      <FieldMessages id={id} error={error} />
    </div>
  );
}

/** A button in a row (of a list, a table) with the message of its last refusal under it. */
export function WithRefusal({ message, children }: { message: string | null; children: ReactNode }) {
  return (
    <span className="inline-flex flex-col items-start">
      {children}
      {message ? (
        <span role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">
          {message}
        </span>
      ) : null}
    </span>
  );
}

/**
 * A checkbox among text fields in a grid, level with their inputs from `sm` on, with its label
 * and a hint beside it.
 */
export function GridCheckbox({
  label,
  hint,
  name,
  checked,
  onChange,
}: {
  label: string;
  hint: ReactNode;
  name: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex items-start gap-2 pt-1 text-sm sm:pt-7">
      <input
        type="checkbox"
        name={name}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 h-4 w-4 accent-sky-600"
      />
      <span>
        {label}
        <span className="block text-xs text-slate-600 dark:text-slate-400">{hint}</span>
      </span>
    </label>
  );
}

export function Notice({
  tone,
  title,
  children,
  testId,
}: {
  tone: "error" | "warning" | "success" | "info";
  title?: string;
  children?: ReactNode;
  testId?: string;
}) {
  const tones = {
    error: "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100",
    warning: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100",
    success:
      "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100",
    info: "border-slate-300 bg-white text-slate-900 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100",
  } as const;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      data-testid={testId}
      className={`rounded-md border p-3 text-sm ${tones[tone]}`}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : ""}>{children}</div> : null}
    </div>
  );
}

/** Text with `backticks` shown as code, as the lib's hints write commands. */
export function HintText({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <>
      {parts.map((part, index) =>
        part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
          <code
            key={index}
            className="rounded bg-slate-900/10 px-1 py-0.5 font-mono text-xs break-all dark:bg-white/15"
          >
            {part.slice(1, -1)}
          </code>
        ) : (
          <span key={index}>{part}</span>
        ),
      )}
    </>
  );
}
