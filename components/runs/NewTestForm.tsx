"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition, type ReactNode } from "react";
import { invalidateRunViews } from "@/components/queries";
import { startRun } from "@/lib/actions/start-run";
import { FLAG_SINCE, type IperfFlag } from "@/lib/iperf/argv";
import { isVersionAtLeast, parseIperfVersion } from "@/lib/iperf/version";
import type { RunDirection } from "@/lib/runs/request";

type End = { hostName: string; nicName: string; iperf3Version: string | null };

type FormState = {
  protocol: "tcp" | "udp";
  lengthMode: "time" | "bytes";
  duration: string;
  bytes: string;
  parallel: string;
  direction: RunDirection;
  clientSide: "a" | "b";
  bitrateMbps: string;
  omit: string;
  interval: string;
  window: string;
  length: string;
  mss: string;
  congestion: string;
  zerocopy: boolean;
  tos: string;
  port: string;
};

const DEFAULTS: FormState = {
  protocol: "tcp",
  lengthMode: "time",
  duration: "10",
  bytes: "",
  parallel: "1",
  direction: "a-to-b",
  clientSide: "a",
  bitrateMbps: "",
  omit: "",
  interval: "1",
  window: "",
  length: "",
  mss: "",
  congestion: "",
  zerocopy: false,
  tos: "",
  port: "",
};

type Preset = { id: string; label: string; description: string; apply: (speedMbps: number) => Partial<FormState> };

const PRESETS: Preset[] = [
  { id: "quick", label: "Quick TCP 10 s", description: "one stream, 10 seconds", apply: () => ({}) },
  { id: "parallel", label: "4 streams 30 s", description: "-P 4 -t 30", apply: () => ({ parallel: "4", duration: "30" }) },
  { id: "reverse", label: "Reverse", description: "data from B to A", apply: () => ({ direction: "b-to-a" }) },
  { id: "bidir", label: "Bidirectional", description: "both ways at once (--bidir)", apply: () => ({ direction: "bidir" }) },
  { id: "udp", label: "UDP at line rate", description: "jitter and loss at full speed", apply: (speedMbps) => ({ protocol: "udp", bitrateMbps: String(speedMbps) }) },
];

/** Which iperf3 flag each field needs, to disable what a host's version lacks. */
const FIELD_FLAGS: Partial<Record<keyof FormState | "bidir" | "reverse", IperfFlag>> = {
  bytes: "-n",
  parallel: "-P",
  reverse: "-R",
  bidir: "--bidir",
  bitrateMbps: "-b",
  omit: "-O",
  window: "-w",
  mss: "-M",
  length: "-l",
  zerocopy: "-Z",
  congestion: "--linux-congestion",
  interval: "-i",
  tos: "-S",
  port: "-p",
};

/** The reason a field is unavailable, naming the host whose iperf3 is too old; null when both ends have it. */
function missingReason(field: keyof typeof FIELD_FLAGS, ends: End[]): string | null {
  const flag = FIELD_FLAGS[field];
  if (!flag) return null;
  for (const end of ends) {
    const version = end.iperf3Version ? parseIperfVersion(`iperf ${end.iperf3Version}`) : null;
    if (version && !isVersionAtLeast(version, FLAG_SINCE[flag])) {
      return `needs iperf3 ${FLAG_SINCE[flag].replace(/\.0$/, "")} or newer; ${end.hostName} has ${end.iperf3Version}`;
    }
  }
  return null;
}

/** "64K" → 65536, "4M" → 4194304: iperf3's own K/M suffixes (binary) for buffer sizes. */
function parseSize(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const match = /^(\d+(?:\.\d+)?)\s*([kKmMgG]?)$/.exec(trimmed);
  if (!match) return trimmed;
  const factor = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2]!.toLowerCase() as "" | "k" | "m" | "g"];
  return Math.round(Number(match[1]) * factor);
}

function parseNumber(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  const value = Number(trimmed);
  // A non-number goes to the server as text, which answers with the field's limits.
  return Number.isFinite(value) ? value : trimmed;
}

function requestBody(state: FormState): Record<string, unknown> {
  const body: Record<string, unknown> = {
    protocol: state.protocol,
    parallel: parseNumber(state.parallel),
    direction: state.direction,
    clientSide: state.clientSide,
    interval: parseNumber(state.interval),
    zerocopy: state.zerocopy,
  };
  if (state.lengthMode === "bytes") body.bytes = parseSize(state.bytes);
  else body.duration = parseNumber(state.duration);
  const bitrate = parseNumber(state.bitrateMbps);
  body.bitrate = typeof bitrate === "number" ? Math.round(bitrate * 1e6) : bitrate;
  body.omit = parseNumber(state.omit);
  body.window = parseSize(state.window);
  body.length = parseSize(state.length);
  if (state.protocol === "tcp") {
    body.mss = parseNumber(state.mss);
    body.congestion = state.congestion.trim() || undefined;
  }
  body.tos = parseNumber(state.tos);
  body.port = parseNumber(state.port);
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm text-slate-900 shadow-sm focus:border-sky-500 focus:outline-none focus:ring-2 focus:ring-sky-500/40 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100 dark:disabled:bg-slate-800 dark:disabled:text-slate-400";

function Field({ id, label, hint, error, disabledReason, children }: { id: string; label: string; hint?: ReactNode; error?: string; disabledReason?: string | null; children: ReactNode }) {
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

/**
 * The new-test form of a link: presets for the common tests and every iperf3 option under
 * Advanced. Options the hosts' iperf3 lacks are disabled with the reason.
 */
export function NewTestForm({ linkId, speedMbps, a, b }: { linkId: number; speedMbps: number; a: End; b: End }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const formId = useId();
  const [state, setState] = useState<FormState>(DEFAULTS);
  const [preset, setPreset] = useState<string>("quick");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const ends = [a, b];
  const reason = (field: keyof typeof FIELD_FLAGS) => missingReason(field, ends);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    setPreset("");
    setState((previous) => ({ ...previous, [key]: value }));
  };
  const id = (name: string) => `${formId}-${name}`;
  const described = (name: string) => [errors[name] ? `${id(name)}-error` : null, reason(name as keyof typeof FIELD_FLAGS) ? `${id(name)}-reason` : `${id(name)}-hint`].filter(Boolean).join(" ") || undefined;
  const unknownVersions = ends.filter((end) => !end.iperf3Version).map((end) => end.hostName);
  const bidirReason = reason("bidir");

  const applyPreset = (entry: Preset) => {
    setPreset(entry.id);
    setErrors({});
    setMessage(null);
    setState({ ...DEFAULTS, ...entry.apply(speedMbps) });
  };

  const submit = () =>
    startTransition(async () => {
      setErrors({});
      setMessage(null);
      const result = await startRun({ linkId, request: requestBody(state) });
      if (result.ok) {
        void invalidateRunViews(queryClient);
        router.push(`/runs/${result.value.id}`);
        return;
      }
      const byField: Record<string, string> = {};
      for (const error of result.errors) {
        const field = error.field === "bitrate" ? "bitrateMbps" : error.field;
        byField[field] ??= error.message;
      }
      setErrors(byField);
      setMessage(result.errors.length ? "Check the fields marked below." : result.message);
    });

  const directionChoices: Array<{ value: RunDirection; label: string; reason: string | null }> = [
    { value: "a-to-b", label: `${a.hostName} → ${b.hostName}`, reason: null },
    { value: "b-to-a", label: `${b.hostName} → ${a.hostName}`, reason: reason("reverse") },
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
          {PRESETS.map((entry) => {
            const presetReason = entry.id === "bidir" ? bidirReason : null;
            return (
              <button
                key={entry.id}
                type="button"
                aria-pressed={preset === entry.id}
                disabled={Boolean(presetReason)}
                title={presetReason ? `Unavailable: ${presetReason}` : entry.description}
                onClick={() => applyPreset(entry)}
                className={`rounded-full border px-3 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 disabled:cursor-not-allowed disabled:opacity-50 ${
                  preset === entry.id
                    ? "border-sky-600 bg-sky-600 text-white dark:border-sky-400 dark:bg-sky-400 dark:text-slate-950"
                    : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
                }`}
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
              <label key={choice.value} className={`inline-flex items-center gap-2 text-sm ${choice.reason ? "text-slate-500 dark:text-slate-500" : ""}`} title={choice.reason ? `Unavailable: ${choice.reason}` : undefined}>
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
          {bidirReason ? <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">Both ways unavailable: {bidirReason}</p> : null}
          {errors.direction ? <p className="mt-1 text-xs font-medium text-red-700 dark:text-red-300">{errors.direction}</p> : null}
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
                    set("protocol", protocol);
                    // UDP without a bitrate would send 1 Mbit/s: start from the line rate.
                    if (protocol === "udp" && !state.bitrateMbps) setState((previous) => ({ ...previous, protocol, bitrateMbps: String(speedMbps) }));
                  }}
                  className="h-4 w-4 accent-sky-600"
                />
                {protocol.toUpperCase()}
              </label>
            ))}
          </div>
        </fieldset>
        <Field id={id("parallel")} label="Streams (-P)" hint="1 to 128 parallel streams" error={errors.parallel} disabledReason={reason("parallel")}>
          <input id={id("parallel")} name="parallel" inputMode="numeric" className={inputClass} value={state.parallel} disabled={Boolean(reason("parallel"))} aria-describedby={described("parallel")} aria-invalid={Boolean(errors.parallel)} onChange={(event) => set("parallel", event.target.value)} />
        </Field>
        {state.lengthMode === "time" ? (
          <Field id={id("duration")} label="Duration (-t, seconds)" hint="1 s to 1 day" error={errors.duration}>
            <input id={id("duration")} name="duration" inputMode="numeric" className={inputClass} value={state.duration} aria-describedby={described("duration")} aria-invalid={Boolean(errors.duration)} onChange={(event) => set("duration", event.target.value)} />
          </Field>
        ) : (
          <Field id={id("bytes")} label="Bytes to send (-n)" hint="e.g. 10G, 500M" error={errors.bytes} disabledReason={reason("bytes")}>
            <input id={id("bytes")} name="bytes" className={inputClass} value={state.bytes} aria-describedby={described("bytes")} aria-invalid={Boolean(errors.bytes)} onChange={(event) => set("bytes", event.target.value)} />
          </Field>
        )}
        <Field
          id={id("bitrateMbps")}
          label={`Target bitrate (-b, Mbit/s)${state.protocol === "udp" ? "" : ", optional"}`}
          hint={state.protocol === "udp" ? `Required for UDP; line rate is ${speedMbps} Mbit/s, 0 = unlimited` : "Empty: as fast as possible"}
          error={errors.bitrateMbps}
          disabledReason={reason("bitrateMbps")}
        >
          <input id={id("bitrateMbps")} name="bitrate" inputMode="decimal" className={inputClass} value={state.bitrateMbps} disabled={Boolean(reason("bitrateMbps"))} aria-describedby={described("bitrateMbps")} aria-invalid={Boolean(errors.bitrateMbps)} onChange={(event) => set("bitrateMbps", event.target.value)} />
        </Field>
      </div>

      <details className="group rounded-lg border border-slate-200 p-3 dark:border-slate-700">
        <summary className="cursor-pointer select-none rounded text-sm font-medium text-slate-800 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-slate-200">
          Advanced options
        </summary>
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <fieldset>
            <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">iperf3 client runs on</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {(["a", "b"] as const).map((side) => (
                <label key={side} className="inline-flex items-center gap-2 text-sm">
                  <input type="radio" name={id("clientSide")} checked={state.clientSide === side} onChange={() => set("clientSide", side)} className="h-4 w-4 accent-sky-600" />
                  {side === "a" ? a.hostName : b.hostName}
                </label>
              ))}
            </div>
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">The direction stays the same; -R is added when needed.</p>
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
                  <input type="radio" name={id("lengthMode")} checked={state.lengthMode === mode} disabled={mode === "bytes" && Boolean(reason("bytes"))} onChange={() => set("lengthMode", mode)} className="h-4 w-4 accent-sky-600" />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>
          <Field id={id("omit")} label="Omit warm-up (-O, seconds)" hint="Left out of the result" error={errors.omit} disabledReason={reason("omit")}>
            <input id={id("omit")} name="omit" inputMode="numeric" className={inputClass} value={state.omit} disabled={Boolean(reason("omit"))} aria-describedby={described("omit")} aria-invalid={Boolean(errors.omit)} onChange={(event) => set("omit", event.target.value)} />
          </Field>
          <Field id={id("interval")} label="Interval (-i, seconds)" hint="0.1 to 60" error={errors.interval} disabledReason={reason("interval")}>
            <input id={id("interval")} name="interval" inputMode="decimal" className={inputClass} value={state.interval} disabled={Boolean(reason("interval"))} aria-describedby={described("interval")} aria-invalid={Boolean(errors.interval)} onChange={(event) => set("interval", event.target.value)} />
          </Field>
          <Field id={id("window")} label="Socket buffer (-w)" hint="Bytes, or with K/M: 4M" error={errors.window} disabledReason={reason("window")}>
            <input id={id("window")} name="window" className={inputClass} value={state.window} disabled={Boolean(reason("window"))} aria-describedby={described("window")} aria-invalid={Boolean(errors.window)} onChange={(event) => set("window", event.target.value)} />
          </Field>
          <Field id={id("length")} label="Buffer length (-l)" hint="Bytes, or with K/M: 128K" error={errors.length} disabledReason={reason("length")}>
            <input id={id("length")} name="length" className={inputClass} value={state.length} disabled={Boolean(reason("length"))} aria-describedby={described("length")} aria-invalid={Boolean(errors.length)} onChange={(event) => set("length", event.target.value)} />
          </Field>
          <Field id={id("mss")} label="TCP MSS (-M, bytes)" hint={state.protocol === "udp" ? "TCP only" : "88 to 9216"} error={errors.mss} disabledReason={reason("mss")}>
            <input id={id("mss")} name="mss" inputMode="numeric" className={inputClass} value={state.mss} disabled={state.protocol === "udp" || Boolean(reason("mss"))} aria-describedby={described("mss")} aria-invalid={Boolean(errors.mss)} onChange={(event) => set("mss", event.target.value)} />
          </Field>
          <Field id={id("congestion")} label="Congestion control (-C)" hint={state.protocol === "udp" ? "TCP only" : "e.g. cubic, bbr"} error={errors.congestion} disabledReason={reason("congestion")}>
            <input id={id("congestion")} name="congestion" className={inputClass} value={state.congestion} disabled={state.protocol === "udp" || Boolean(reason("congestion"))} aria-describedby={described("congestion")} aria-invalid={Boolean(errors.congestion)} onChange={(event) => set("congestion", event.target.value)} />
          </Field>
          <Field id={id("tos")} label="Type of service (-S)" hint="0 to 255, e.g. 184 for EF" error={errors.tos} disabledReason={reason("tos")}>
            <input id={id("tos")} name="tos" inputMode="numeric" className={inputClass} value={state.tos} disabled={Boolean(reason("tos"))} aria-describedby={described("tos")} aria-invalid={Boolean(errors.tos)} onChange={(event) => set("tos", event.target.value)} />
          </Field>
          <Field id={id("port")} label="Fixed port (-p)" hint="Empty: a free port from the host's range" error={errors.port} disabledReason={reason("port")}>
            <input id={id("port")} name="port" inputMode="numeric" className={inputClass} value={state.port} disabled={Boolean(reason("port"))} aria-describedby={described("port")} aria-invalid={Boolean(errors.port)} onChange={(event) => set("port", event.target.value)} />
          </Field>
          <div className="flex items-start gap-2 pt-6">
            <input id={id("zerocopy")} type="checkbox" checked={state.zerocopy} disabled={Boolean(reason("zerocopy"))} onChange={(event) => set("zerocopy", event.target.checked)} className="mt-0.5 h-4 w-4 accent-sky-600" />
            <label htmlFor={id("zerocopy")} className="text-sm">
              Zero copy (-Z)
              {reason("zerocopy") ? <span className="block text-xs text-amber-800 dark:text-amber-300">Unavailable: {reason("zerocopy")}</span> : null}
            </label>
          </div>
        </div>
      </details>

      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={isPending}
          className="rounded-md bg-sky-600 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-sky-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 focus-visible:ring-offset-2 disabled:opacity-60 dark:bg-sky-500 dark:text-slate-950 dark:hover:bg-sky-400 dark:focus-visible:ring-offset-slate-900"
        >
          {isPending ? "Starting…" : "Start test"}
        </button>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {a.hostName}: iperf3 {a.iperf3Version ?? "not checked yet"} · {b.hostName}: iperf3 {b.iperf3Version ?? "not checked yet"}
          {unknownVersions.length ? " (options are checked against the versions when the run starts)" : ""}
        </p>
      </div>
      {message ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200">
          {message}
        </p>
      ) : null}
    </form>
  );
}
