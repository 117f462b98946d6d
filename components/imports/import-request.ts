// The import form's request, built in the browser: files or one pasted output, checked against
// the API's limits before anything is sent, so that a user learns at once what is too much.
import {
  MAX_IMPORT_OUTPUTS,
  MAX_IMPORT_REQUEST_BYTES,
  type ImportOutput,
  type ImportRequest,
} from "@/lib/imports/contract";
import type { ClientSide } from "@/lib/runs/contract";

export type ImportSource = { name: string; text: string };
export type ImportFormInput = {
  files: ImportSource[];
  pasted: string;
  clientSide: ClientSide;
  /** a `datetime-local` value ("2026-11-30T21:05"), in the browser's time zone; "" for the upload time */
  startedAt: string;
};
export type ImportFormResult =
  { ok: true; request: ImportRequest } | { ok: false; field: "files" | "pasted" | "startedAt"; message: string };

const MB = 1024 * 1024;

/** The form's fields as POST /api/links/:id/imports takes them, or what is wrong, naming the field. */
export function importRequestOf(input: ImportFormInput): ImportFormResult {
  const pasted = input.pasted.trim() === "" ? [] : [{ name: "pasted output", text: input.pasted }];
  const sources = [...input.files, ...pasted];
  if (sources.length === 0)
    return { ok: false, field: "files", message: "Choose iperf3 output files, or paste one output below." };
  if (sources.length > MAX_IMPORT_OUTPUTS) {
    return {
      ok: false,
      field: "files",
      message: `At most ${MAX_IMPORT_OUTPUTS} outputs at once: ${sources.length} were given.`,
    };
  }
  const empty = input.files.find((file) => file.text.trim() === "");
  if (empty) return { ok: false, field: "files", message: `${empty.name} is empty.` };
  let startedAt: string | undefined;
  if (input.startedAt !== "") {
    const time = new Date(input.startedAt);
    if (Number.isNaN(time.getTime()))
      return { ok: false, field: "startedAt", message: "Give a date and time, or leave it empty for now." };
    startedAt = time.toISOString();
  }
  const outputs: ImportOutput[] = sources.map((source) => ({
    text: source.text,
    name: source.name,
    clientSide: input.clientSide,
    ...(startedAt ? { startedAt } : {}),
  }));
  const request = { outputs };
  // What the server will count: the JSON's UTF-8 bytes.
  const bytes = new TextEncoder().encode(JSON.stringify(request)).length;
  if (bytes > MAX_IMPORT_REQUEST_BYTES) {
    return {
      ok: false,
      field: input.files.length > 0 ? "files" : "pasted",
      message: `At most ${MAX_IMPORT_REQUEST_BYTES / MB} MB in all: these make ${(bytes / MB).toFixed(1)} MB.`,
    };
  }
  return { ok: true, request };
}
