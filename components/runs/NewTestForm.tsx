"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState, type ReactNode } from "react";
import { useActionForm, type FieldPlacement } from "@/components/forms/use-action-form";
import { LATENCY_OPTION_LABEL, withLatencyOption } from "@/components/diagnosis/latency-option";
import { invalidateRunViews } from "@/components/queries";
import { startRunAction } from "@/lib/runs/actions/start-run";
import type { RunDirection } from "@/lib/runs/contract";
import {
  directionUnavailableReason,
  formErrorsOf,
  isGatedOption,
  NEW_TEST_DEFAULTS,
  NEW_TEST_PRESETS,
  newTestRequestBody,
  presetFields,
  presetUnavailableReason,
  unavailableReason,
  withProtocol,
  type GatedOption,
  type NewTestFields,
  type NewTestPreset,
  type TestEnd,
} from "@/lib/runs/test-request";

type End = TestEnd & { nicName: string; access?: string };

/** The options typed as text. */
type TextOption =
  | "parallel"
  | "duration"
  | "bytes"
  | "bitrateMbps"
  | "omit"
  | "interval"
  | "window"
  | "length"
  | "mss"
  | "congestion"
  | "tos"
  | "port";

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm " +
  "text-slate-900 shadow-sm focus:border-sky-500 focus:outline-none focus:ring-2 " +
  "focus:ring-sky-500/40 disabled:cursor-not-allowed disabled:bg-slate-100 " +
  "disabled:text-slate-500 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100 " +
  "dark:disabled:bg-slate-800 dark:disabled:text-slate-400";

function Field({
  id,
  label,
  hint,
  error,
  disabledReason,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  disabledReason?: string | null;
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800 dark:text-slate-200">
        {label}
      </label>
      {children}
      {disabledReason ? (
        <p id={`${id}-reason`} className="mt-1 text-xs text-amber-800 dark:text-amber-300">
          Unavailable: {disabledReason}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </div>
  );
}

// Where a server field error shows: by the form's field (the request's `bitrate` is the form's `bitrateMbps`).
const testFieldOf: FieldPlacement = (error) => ({
  field: Object.keys(formErrorsOf([error]))[0] ?? error.field,
  message: error.message,
});

/**
 * The new-test form of a link: presets for the common tests and every iperf3 option under
 * Advanced. Options the hosts' iperf3 lacks are disabled with the reason.
 */
export function NewTestForm({ linkId, speedMbps, a, b }: { linkId: number; speedMbps: number; a: End; b: End }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const formId = useId();
  const [state, setState] = useState<NewTestFields>(NEW_TEST_DEFAULTS);
  // Not one of the presets' fields: a preset chosen after it keeps it.
  const [isLatency, setLatency] = useState(false);
  const [preset, setPreset] = useState<string>("quick");
  const { isPending, message, fieldErrors: errors, setMessage, reset, submit: run } = useActionForm(testFieldOf);
  const ends = [a, b];
  // An iperf3 server Wirespeed does not manage can only be the server: the client runs on the other end.
  const serverOnlySide = a.access === "iperf3-server" ? "a" : b.access === "iperf3-server" ? "b" : null;
  const reason = (option: GatedOption) => unavailableReason(option, ends);
  const set = <K extends keyof NewTestFields>(key: K, value: NewTestFields[K]) => {
    setPreset("");
    setState((previous) => ({ ...previous, [key]: value }));
  };
  const id = (name: string) => `${formId}-${name}`;
  const described = (name: string) =>
    [
      errors[name] ? `${id(name)}-error` : null,
      isGatedOption(name) && reason(name) ? `${id(name)}-reason` : `${id(name)}-hint`,
    ]
      .filter(Boolean)
      .join(" ") || undefined;
  /**
   * A text option: its label, the hint (or why it is unavailable) and the server's message. `gate` says what an
   * option the hosts' iperf3 lacks does: "disable" (the input too), "shown" (the reason only), "none" (not gated).
   */
  const optionField = (
    key: TextOption,
    label: string,
    hint: ReactNode,
    {
      name = key,
      inputMode,
      gate = "disable",
      isTcpOnly = false,
    }: {
      name?: string;
      inputMode?: "numeric" | "decimal";
      gate?: "disable" | "shown" | "none";
      isTcpOnly?: boolean;
    } = {},
  ) => {
    const why = gate === "none" || !isGatedOption(key) ? undefined : reason(key);
    return (
      <Field id={id(key)} label={label} hint={hint} error={errors[key]} disabledReason={why}>
        <input
          id={id(key)}
          name={name}
          inputMode={inputMode}
          className={inputClass}
          value={state[key]}
          disabled={gate === "disable" ? (isTcpOnly && state.protocol === "udp") || Boolean(why) : undefined}
          aria-describedby={described(key)}
          aria-invalid={Boolean(errors[key])}
          onChange={(event) => set(key, event.target.value)}
        />
      </Field>
    );
  };
  const unknownVersions = ends.filter((end) => !end.iperf3Version).map((end) => end.hostName);
  const bidirReason = directionUnavailableReason("bidir", ends);

  const applyPreset = (entry: NewTestPreset) => {
    setPreset(entry.id);
    reset();
    setState(presetFields(entry, speedMbps));
  };

  const submit = () => {
    const fields: NewTestFields = serverOnlySide ? { ...state, clientSide: serverOnlySide === "a" ? "b" : "a" } : state;
    run(() => startRunAction({ linkId, request: withLatencyOption(newTestRequestBody(fields), isLatency) }), {
      onSuccess: (value) => {
        void invalidateRunViews(queryClient);
        router.push(`/runs/${value.id}`);
      },
      onFailure: (result) => {
        if (result.errors.length) setMessage("Check the fields marked below.");
      },
    });
  };

  const directionChoices: Array<{ value: RunDirection; label: string; reason: string | null }> = [
    { value: "a-to-b", label: `${a.hostName} → ${b.hostName}`, reason: directionUnavailableReason("a-to-b", ends) },
    { value: "b-to-a", label: `${b.hostName} → ${a.hostName}`, reason: directionUnavailableReason("b-to-a", ends) },
    { value: "bidir", label: "Both ways", reason: bidirReason },
  ];

  return (
    <form
      aria-label="New test"
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <fieldset>
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Preset</legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {NEW_TEST_PRESETS.map((entry) => {
            const presetReason = presetUnavailableReason(entry, speedMbps, ends);
            return (
              <button
                key={entry.id}
                type="button"
                aria-pressed={preset === entry.id}
                disabled={Boolean(presetReason)}
                title={presetReason ? `Unavailable: ${presetReason}` : entry.description}
                onClick={() => applyPreset(entry)}
                className={
                  "rounded-full border px-3 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 " +
                  "focus-visible:ring-sky-500 disabled:cursor-not-allowed disabled:opacity-50 " +
                  (preset === entry.id
                    ? "border-sky-700 bg-sky-700 text-white dark:border-sky-400 dark:bg-sky-400 dark:text-slate-950"
                    : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 " +
                      "dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800")
                }
              >
                {entry.label}
              </button>
            );
          })}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Direction</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {directionChoices.map((choice) => (
              <label
                key={choice.value}
                className={`inline-flex items-center gap-2 text-sm ${choice.reason ? "text-slate-500 dark:text-slate-500" : ""}`}
                title={choice.reason ? `Unavailable: ${choice.reason}` : undefined}
              >
                <input
                  type="radio"
                  name={id("direction")}
                  value={choice.value}
                  checked={state.direction === choice.value}
                  disabled={Boolean(choice.reason)}
                  onChange={() => set("direction", choice.value)}
                  className="h-4 w-4 accent-sky-600"
                />
                {choice.label}
              </label>
            ))}
          </div>
          {bidirReason ? (
            <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">Both ways unavailable: {bidirReason}</p>
          ) : null}
          {errors.direction ? (
            <p className="mt-1 text-xs font-medium text-red-700 dark:text-red-300">{errors.direction}</p>
          ) : null}
        </fieldset>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Protocol</legend>
          <div className="mt-1 flex gap-4">
            {(["tcp", "udp"] as const).map((protocol) => (
              <label key={protocol} className="inline-flex items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={id("protocol")}
                  value={protocol}
                  checked={state.protocol === protocol}
                  onChange={() => {
                    setPreset("");
                    setState((previous) => withProtocol(previous, protocol, speedMbps));
                  }}
                  className="h-4 w-4 accent-sky-600"
                />
                {protocol.toUpperCase()}
              </label>
            ))}
          </div>
        </fieldset>
        {optionField("parallel", "Streams (-P)", "1 to 128 parallel streams", { inputMode: "numeric" })}
        {state.lengthMode === "time"
          ? optionField("duration", "Duration (-t, seconds)", "1 s to 1 day", { inputMode: "numeric", gate: "none" })
          : optionField("bytes", "Bytes to send (-n)", "e.g. 10G, 500M", { gate: "shown" })}
        {optionField(
          "bitrateMbps",
          `Target bitrate (-b, Mbit/s)${state.protocol === "udp" ? "" : ", optional"}`,
          state.protocol === "udp"
            ? `Required for UDP; line rate is ${speedMbps} Mbit/s, 0 = unlimited`
            : "Empty: as fast as possible",
          { name: "bitrate", inputMode: "decimal" },
        )}
      </div>

      <details className="group rounded-lg border border-slate-200 p-3 dark:border-slate-700">
        <summary
          className={
            "cursor-pointer select-none rounded text-sm font-medium text-slate-800 " +
            "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 " +
            "dark:text-slate-200"
          }
        >
          Advanced options
        </summary>
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">iperf3 client runs on</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {(["a", "b"] as const).map((side) => (
                <label key={side} className="inline-flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={id("clientSide")}
                    checked={serverOnlySide ? side !== serverOnlySide : state.clientSide === side}
                    disabled={serverOnlySide !== null}
                    onChange={() => set("clientSide", side)}
                    className="h-4 w-4 accent-sky-600"
                  />
                  {side === "a" ? a.hostName : b.hostName}
                </label>
              ))}
            </div>
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {serverOnlySide
                ? `${serverOnlySide === "a" ? a.hostName : b.hostName} is an iperf3 server Wirespeed does not manage: the client runs on the other end, and -R gives the other direction.`
                : "The direction stays the same; -R is added when needed."}
            </p>
          </fieldset>
          <fieldset>
            <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Test length</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {(
                [
                  ["time", "Duration"],
                  ["bytes", "Byte count"],
                ] as const
              ).map(([mode, label]) => (
                <label key={mode} className="inline-flex items-center gap-2 text-sm">
                  <input
                    type="radio"
                    name={id("lengthMode")}
                    checked={state.lengthMode === mode}
                    disabled={mode === "bytes" && Boolean(reason("bytes"))}
                    onChange={() => set("lengthMode", mode)}
                    className="h-4 w-4 accent-sky-600"
                  />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          {optionField("omit", "Omit warm-up (-O, seconds)", "Left out of the result", { inputMode: "numeric" })}
          {optionField("interval", "Interval (-i, seconds)", "0.1 to 60", { inputMode: "decimal" })}
          {optionField("window", "Socket buffer (-w)", "Bytes, or with K/M: 4M")}
          {optionField("length", "Buffer length (-l)", "Bytes, or with K/M: 128K")}
          {optionField("mss", "TCP MSS (-M, bytes)", state.protocol === "udp" ? "TCP only" : "88 to 9216", {
            inputMode: "numeric",
            isTcpOnly: true,
          })}
          {optionField(
            "congestion",
            "Congestion control (-C)",
            state.protocol === "udp" ? "TCP only" : "e.g. cubic, bbr",
            {
              isTcpOnly: true,
            },
          )}
          {optionField("tos", "Type of service (-S)", "0 to 255, e.g. 184 for EF", { inputMode: "numeric" })}
          {optionField("port", "Fixed port (-p)", "Empty: a free port from the host's range", { inputMode: "numeric" })}
          <div className="flex items-start gap-2 pt-6">
            <input
              id={id("zerocopy")}
              type="checkbox"
              checked={state.zerocopy}
              disabled={Boolean(reason("zerocopy"))}
              onChange={(event) => set("zerocopy", event.target.checked)}
              className="mt-0.5 h-4 w-4 accent-sky-600"
            />
            <label htmlFor={id("zerocopy")} className="text-sm">
              Zero copy (-Z)
              {reason("zerocopy") ? (
                <span className="block text-xs text-amber-800 dark:text-amber-300">
                  Unavailable: {reason("zerocopy")}
                </span>
              ) : null}
            </label>
          </div>
          <div className="flex items-start gap-2 pt-6 sm:col-span-2">
            <input
              id={id("latency")}
              name="latency"
              type="checkbox"
              checked={isLatency}
              onChange={(event) => setLatency(event.target.checked)}
              className="mt-0.5 h-4 w-4 accent-sky-600"
            />
            <label htmlFor={id("latency")} className="text-sm">
              {LATENCY_OPTION_LABEL}
              {errors.latency ? (
                <span className="block text-xs font-medium text-red-700 dark:text-red-300">{errors.latency}</span>
              ) : null}
            </label>
          </div>
        </div>
      </details>

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={isPending}
          className={
            "rounded-md bg-sky-700 px-4 py-2 text-sm font-semibold text-white shadow-sm " +
            "hover:bg-sky-800 focus-visible:outline-none focus-visible:ring-2 " +
            "focus-visible:ring-sky-500 focus-visible:ring-offset-2 disabled:opacity-60 dark:bg-sky-500 " +
            "dark:text-slate-950 dark:hover:bg-sky-400 dark:focus-visible:ring-offset-slate-900"
          }
        >
          {isPending ? "Starting…" : "Start test"}
        </button>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {a.hostName}: iperf3 {a.iperf3Version ?? "not checked yet"} · {b.hostName}: iperf3{" "}
          {b.iperf3Version ?? "not checked yet"}
          {unknownVersions.length ? " (options are checked against the versions when the run starts)" : ""}
        </p>
      </div>
      {message ? (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {message}
        </p>
      ) : null}
    </form>
  );
}
