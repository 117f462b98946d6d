"use client";

import { useId } from "react";
import type { TextBinding } from "@/components/forms/field-binding";
import { DEVICE_KINDS, type DeviceKind, type HostAccess } from "@/lib/inventory/schemas";
import { SelectField, TextField } from "@/components/ui/ui";
import { ACCESS_CHOICES, DEVICE_KIND_LABELS, type JumpOption } from "./fields";

const CHOICE =
  "flex cursor-pointer items-start gap-2 rounded-md border px-3 py-2 text-sm " +
  "has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-500";
const CHOSEN = "border-sky-600 bg-sky-50 text-sky-900 dark:border-sky-400 dark:bg-sky-950 dark:text-sky-100";

/** How Wirespeed reaches a new host: the first choice of the add form, which decides the fields after it. */
export function AccessChoice({
  value,
  onChange,
  error,
}: {
  value: HostAccess;
  onChange: (access: HostAccess) => void;
  error?: string;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium">Access</legend>
      <div className="grid gap-2 sm:grid-cols-3">
        {ACCESS_CHOICES.map((choice) => (
          <label
            key={choice.access}
            className={`${CHOICE} ${value === choice.access ? CHOSEN : "border-slate-300 dark:border-slate-600"}`}
          >
            <input
              type="radio"
              name={name}
              value={choice.access}
              checked={value === choice.access}
              onChange={() => onChange(choice.access)}
              className="mt-0.5 accent-sky-600 outline-none"
            />
            <span>
              <span className="font-medium">{choice.label}</span>{" "}
              <span className="text-slate-600 dark:text-slate-400">({choice.detail})</span>
            </span>
          </label>
        ))}
      </div>
      {error ? <p className="mt-1 text-sm text-red-700 dark:text-red-300">{error}</p> : null}
    </fieldset>
  );
}

/** "Reach through": directly, or through another SSH host (a jump host), each option named by its own chain. */
export function ReachThroughField({
  options,
  className,
  ...binding
}: TextBinding & { options: readonly JumpOption[]; className?: string }) {
  return (
    <SelectField
      label="Reach through"
      className={className}
      {...binding}
      hint="Direct, or a host Wirespeed logs in to first and connects onward from (as ssh -J)."
    >
      <option value="">Direct</option>
      {options.map((option) => (
        <option key={option.id} value={String(option.id)}>
          {option.label}
        </option>
      ))}
    </SelectField>
  );
}

/** What a device is. */
export function DeviceKindField({ className, ...binding }: TextBinding & { className?: string }) {
  return (
    <SelectField label="Kind" className={className} {...binding}>
      {DEVICE_KINDS.map((kind: DeviceKind) => (
        <option key={kind} value={kind}>
          {DEVICE_KIND_LABELS[kind].replace(/^./, (first) => first.toUpperCase())}
        </option>
      ))}
    </SelectField>
  );
}

/** The first and last port iperf3 servers listen on at a host; for an iperf3 server, those it offers. */
export function IperfPortFields({
  field,
  isServer = false,
}: {
  field: (key: "iperfPortMin" | "iperfPortMax") => TextBinding;
  isServer?: boolean;
}) {
  return (
    <>
      <TextField label="First iperf3 port" inputMode="numeric" {...field("iperfPortMin")} />
      <TextField
        label="Last iperf3 port"
        inputMode="numeric"
        {...field("iperfPortMax")}
        hint={
          isServer
            ? "The ports its iperf3 server answers on: public servers often use 5201-5209."
            : "iperf3 servers on this host listen on a port of this range."
        }
      />
    </>
  );
}
