// The import contract: iperf3 outputs a user already has (text 3.0-3.21 as printed or as pasted
// from a web page, `-J`, `--json-stream`) brought into a link as runs marked `source: "imported"`.
// Pure: no I/O, safe in the browser (the import form checks sizes with the same limits).
import { z } from "zod";
import type {
  IperfCpu,
  IperfError,
  IperfFormat,
  IperfInterval,
  IperfOptions,
  IperfRole,
  IperfSummary,
} from "@/lib/iperf";
import { CLIENT_SIDES, type ClientSide } from "@/lib/runs/contract";

/** Outputs per request (the form's files, or one pasted output). */
export const MAX_IMPORT_OUTPUTS = 50;
/** The request body as a whole: every output's text and the JSON around it. */
export const MAX_IMPORT_REQUEST_BYTES = 20 * 1024 * 1024;
/** Characters of a name kept with the run (a file's name). */
export const MAX_IMPORT_NAME_CHARS = 200;

export const RUN_SOURCES = ["wirespeed", "imported"] as const;
export type RunSource = (typeof RUN_SOURCES)[number];

export const ImportOutputSchema = z.object({
  /** the output as iperf3 printed it, or as copied from a page */
  text: z
    .string({ error: "must be the iperf3 output as text" })
    .min(1, { error: "is empty: paste or upload an iperf3 output" }),
  /** when the test ran, for a text output (it has no time of its own); a JSON output's own timestamp wins */
  startedAt: z.iso
    .datetime({ offset: true, error: "must be a date and time in ISO 8601, such as 2026-11-30T21:05:00Z" })
    .optional(),
  /** what to call it in the report and on the run: the file's name */
  name: z
    .string({ error: "must be text" })
    .trim()
    .max(MAX_IMPORT_NAME_CHARS, { error: `must be at most ${MAX_IMPORT_NAME_CHARS} characters` })
    .optional(),
  /** which end of the link ran the iperf3 client, when the output's addresses do not say */
  clientSide: z
    .enum(CLIENT_SIDES, { error: 'must be "a" or "b": the end of the link that ran the iperf3 client' })
    .optional(),
});
export type ImportOutput = z.infer<typeof ImportOutputSchema>;

export const ImportRequestSchema = z.object({
  outputs: z
    .array(ImportOutputSchema, { error: "must be a list of outputs: [{ text, startedAt?, name?, clientSide? }]" })
    .min(1, { error: "is empty: send at least one output" })
    .max(MAX_IMPORT_OUTPUTS, { error: `must hold at most ${MAX_IMPORT_OUTPUTS} outputs` }),
});
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

/**
 * Why an output was not imported:
 * - `not-text`: binary content, NUL bytes or terminal control sequences;
 * - `not-iperf3`: no iperf3 test in it (no interval, no summary);
 * - `iperf3-error`: iperf3 reported an error and measured nothing (the message is iperf3's);
 * - `unreadable`: a JSON output that is cut off or invalid, and other parser errors.
 */
export const IMPORT_ERROR_KINDS = ["not-text", "not-iperf3", "iperf3-error", "unreadable"] as const;
export type ImportErrorKind = (typeof IMPORT_ERROR_KINDS)[number];
export type ImportError = { kind: ImportErrorKind; message: string };

/** POST /api/links/:id/imports answers this, one entry per output, in the order sent. */
export type ImportResponse = {
  imported: { runId: number; name: string }[];
  duplicates: { name: string; runId: number }[];
  failed: { name: string; error: ImportError }[];
};

/** What the reader makes of one output, before it is stored as a run of the link. */
export type ImportedRun = {
  /** SHA-256 (hex) of the output with CRLF/CR as LF and trailing blanks of each line and of the end removed */
  hash: string;
  format: IperfFormat;
  /** whose output it is: the end that ran `-c` (client) or `-s` (server) */
  role: IperfRole;
  /** the end of the link that ran the client */
  clientSide: ClientSide;
  /** "addresses" when the output's addresses are the link's, else "given" (the request's clientSide, default a) */
  clientSideFrom: "addresses" | "given";
  /**
   * The options of the test as far as the output tells them: protocol, parallel, reverse, bidir,
   * duration (or bytes), interval, omit; the UDP bitrate from JSON's target, else the sender's
   * rate rounded to 3 significant digits. Valid for IperfOptionsSchema, so a re-run works.
   */
  options: IperfOptions;
  /** succeeded; interrupted (Ctrl-C: a partial result); failed (an error after some intervals) */
  status: "succeeded" | "failed" | "interrupted";
  startedAt: Date;
  endedAt: Date;
  /** "output" when the output gave its own time (JSON), else "given" (the request's startedAt, default now) */
  timeFrom: "output" | "given";
  /** iperf3's version when the output names it (JSON, or `-V` text) */
  version: string | null;
  summary: IperfSummary | null;
  reverseSummary: IperfSummary | null;
  interrupted: boolean;
  cpu: IperfCpu | null;
  intervals: IperfInterval[];
  error: IperfError | null;
  /** the output as normalized for the hash: kept as the run's raw output of its role */
  text: string;
};

export type ReadImportInput = {
  text: string;
  /** the link's ends' addresses, without prefix length ("198.18.0.1", "fd00::1") */
  linkAddresses: { a: string[]; b: string[] };
  clientSide?: ClientSide;
  startedAt?: Date;
  /** the time of the upload: a text output's start when none is given */
  now: Date;
};

export type ReadImportResult = { ok: true; run: ImportedRun } | { ok: false; error: ImportError };
