// What the new-test form asks for, without React: its fields as typed, the presets, the
// request body they make for lib/runs/request.ts, and the options a host's iperf3 lacks
// (from lib/iperf's FLAG_SINCE, the table the server checks the argv against).
import { FLAG_SINCE, type IperfFlag } from "@/lib/iperf/argv";
import { isVersionAtLeast, parseIperfVersion } from "@/lib/iperf/version";
import type { ClientSide, RunDirection } from "./contract";

/** The form's fields as typed: text, so that what the server refuses comes back with its limits. */
export type NewTestFields = {
  protocol: "tcp" | "udp";
  lengthMode: "time" | "bytes";
  duration: string;
  bytes: string;
  parallel: string;
  direction: RunDirection;
  clientSide: ClientSide;
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

export const NEW_TEST_DEFAULTS: NewTestFields = {
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

export type NewTestPreset = {
  id: string;
  label: string;
  description: string;
  apply: (speedMbps: number) => Partial<NewTestFields>;
};

export const NEW_TEST_PRESETS: readonly NewTestPreset[] = [
  { id: "quick", label: "Quick TCP 10 s", description: "one stream, 10 seconds", apply: () => ({}) },
  {
    id: "parallel",
    label: "4 streams 30 s",
    description: "-P 4 -t 30",
    apply: () => ({ parallel: "4", duration: "30" }),
  },
  { id: "reverse", label: "Reverse", description: "data from B to A", apply: () => ({ direction: "b-to-a" }) },
  {
    id: "bidir",
    label: "Bidirectional",
    description: "both ways at once (--bidir)",
    apply: () => ({ direction: "bidir" }),
  },
  {
    id: "udp",
    label: "UDP at line rate",
    description: "jitter and loss at full speed",
    apply: (speedMbps) => ({ protocol: "udp", bitrateMbps: String(speedMbps) }),
  },
];

/** A preset's fields: the defaults with what the preset sets. */
export function presetFields(preset: NewTestPreset, speedMbps: number): NewTestFields {
  return { ...NEW_TEST_DEFAULTS, ...preset.apply(speedMbps) };
}

/** Which iperf3 flag each option needs; `reverse` and `bidir` are what the direction asks for. */
const OPTION_FLAGS = {
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
} as const satisfies Record<string, IperfFlag>;

export type GatedOption = keyof typeof OPTION_FLAGS;

/** One end of the link as the form knows it: the iperf3 version last seen there, if any. */
export type TestEnd = { hostName: string; iperf3Version: string | null };

/**
 * Why an option is unavailable, naming the flag's first version and the host whose iperf3 is
 * older; null when both ends have it. An end not checked yet does not refuse: the run checks again.
 */
export function unavailableReason(option: GatedOption, ends: readonly TestEnd[]): string | null {
  const since = FLAG_SINCE[OPTION_FLAGS[option]];
  for (const end of ends) {
    const version = end.iperf3Version ? parseIperfVersion(`iperf ${end.iperf3Version}`) : null;
    if (version && !isVersionAtLeast(version, since)) {
      return `needs iperf3 ${since.replace(/\.0$/, "")} or newer; ${end.hostName} has ${end.iperf3Version}`;
    }
  }
  return null;
}

/** Why a direction is unavailable: b-to-a needs -R, both ways --bidir. */
export function directionUnavailableReason(direction: RunDirection, ends: readonly TestEnd[]): string | null {
  if (direction === "bidir") return unavailableReason("bidir", ends);
  if (direction === "b-to-a") return unavailableReason("reverse", ends);
  return null;
}

/** Whether a field needs a flag that an old iperf3 may lack. */
export function isGatedOption(field: string): field is GatedOption {
  return Object.hasOwn(OPTION_FLAGS, field);
}

/** Why a preset is unavailable: the first option it sets that an end lacks. */
export function presetUnavailableReason(
  preset: NewTestPreset,
  speedMbps: number,
  ends: readonly TestEnd[],
): string | null {
  const { direction, ...fields } = preset.apply(speedMbps);
  const options = Object.keys(fields).filter(isGatedOption);
  const reasons = [
    direction ? directionUnavailableReason(direction, ends) : null,
    ...options.map((option) => unavailableReason(option, ends)),
  ];
  return reasons.find((reason) => reason !== null) ?? null;
}

/** The fields with another protocol; UDP without a bitrate would send 1 Mbit/s, so it starts from the line rate. */
export function withProtocol(
  fields: NewTestFields,
  protocol: NewTestFields["protocol"],
  speedMbps: number,
): NewTestFields {
  const bitrateMbps = protocol === "udp" && !fields.bitrateMbps ? String(speedMbps) : fields.bitrateMbps;
  return { ...fields, protocol, bitrateMbps };
}

/** "64K" → 65536, "4M" → 4194304: iperf3's own K/M/G suffixes (binary) for sizes; other text as typed. */
export function parseSize(text: string): number | string | undefined {
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

/** The body of a run request (lib/runs/request.ts parses it): empty fields left out, Mbit/s as bit/s. */
export function newTestRequestBody(fields: NewTestFields): Record<string, unknown> {
  const bitrate = parseNumber(fields.bitrateMbps);
  const body: Record<string, unknown> = {
    protocol: fields.protocol,
    parallel: parseNumber(fields.parallel),
    direction: fields.direction,
    clientSide: fields.clientSide,
    interval: parseNumber(fields.interval),
    zerocopy: fields.zerocopy,
    ...(fields.lengthMode === "bytes"
      ? { bytes: parseSize(fields.bytes) }
      : { duration: parseNumber(fields.duration) }),
    bitrate: typeof bitrate === "number" ? Math.round(bitrate * 1e6) : bitrate,
    omit: parseNumber(fields.omit),
    window: parseSize(fields.window),
    length: parseSize(fields.length),
    // TCP only: a UDP test leaves out what the form keeps for a switch back.
    ...(fields.protocol === "tcp"
      ? { mss: parseNumber(fields.mss), congestion: fields.congestion.trim() || undefined }
      : {}),
    tos: parseNumber(fields.tos),
    port: parseNumber(fields.port),
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** The server's field errors by form field (its `bitrate` is the form's `bitrateMbps`), the first message of each. */
export function formErrorsOf(errors: ReadonlyArray<{ field: string; message: string }>): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const error of errors) {
    const field = error.field === "bitrate" ? "bitrateMbps" : error.field;
    byField[field] ??= error.message;
  }
  return byField;
}
