import { z } from "zod";

// Notes and labels on runs, experiments and links: what a user writes down as the lab changes
// ("after moving the card to slot 2", labels "dac", "slot-2"). Pure: the forms check with these
// schemas, the API and the server actions with the same ones.
//
// A label is stored lowercase, so that `?label=DAC` and `?label=dac` find the same runs.

/** What a note is written on. */
export const NOTE_TARGETS = ["run", "experiment", "link"] as const;
export type NoteTarget = (typeof NOTE_TARGETS)[number];

export const MAX_LABELS = 20;
const LABEL_DESCRIPTION =
  "1-40 characters: lowercase letters, digits and . _ : + / -, starting with a letter or digit (no spaces or commas)";
const LABEL_PATTERN = /^[\p{Ll}\p{Lo}\p{N}][\p{Ll}\p{Lo}\p{M}\p{N}._:+/-]{0,39}$/u;

/** One label, trimmed and lowercased before it is checked. */
export const LabelSchema = z
  .string({ error: `must be ${LABEL_DESCRIPTION}` })
  .transform((value) => value.trim().toLowerCase())
  .pipe(z.string().regex(LABEL_PATTERN, { error: `must be ${LABEL_DESCRIPTION}` }));

/** A list of labels: at most 20, each as LabelSchema; repeats are dropped, the order kept. */
export const LabelsSchema = z
  .array(LabelSchema, { error: `must be a list of at most ${MAX_LABELS} labels` })
  .max(MAX_LABELS, { error: `must be a list of at most ${MAX_LABELS} labels` })
  .transform((labels) => [...new Set(labels)]);

const NOTE_DESCRIPTION = "text of at most 2000 characters, without control characters other than tab and line breaks";
// Free text, kept verbatim (any script, emoji, quotes, $ and ;): it is shown escaped and never reaches a shell.
// NUL and the other control characters have no place in a note and are what a terminal or a log would act on.
const noteError = (issue: { input?: unknown }) =>
  issue.input === undefined ? `is required: ${NOTE_DESCRIPTION}` : `must be ${NOTE_DESCRIPTION}`;

/** The note of a run, an experiment, a link or a host. */
export const NoteSchema = z
  .string({ error: noteError })
  .max(2000, { error: noteError })
  .regex(/^(?:[^\p{Cc}]|[\t\n\r])*$/u, { error: noteError });

/** PATCH /api/runs/:id and /api/experiments/:id: a note, labels, or both; what is left out stays. */
export const NoteUpdateSchema = z
  .strictObject({ note: NoteSchema.optional(), labels: LabelsSchema.optional() })
  .refine((body) => body.note !== undefined || body.labels !== undefined, {
    error: "must have note or labels (or both)",
  });
export type NoteUpdate = z.output<typeof NoteUpdateSchema>;

/** The labels a JSON column holds (a list of strings; anything else reads as none). */
export function labelsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((label): label is string => typeof label === "string") : [];
}

/** A label typed in a URL (`?label=`): the same rule, or null when it is none. */
export function readLabel(raw: string): string | null {
  const parsed = LabelSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** Labels typed as one line, split on commas and spaces: "dac, slot-2 jumbo" → ["dac", "slot-2", "jumbo"]. */
export function splitLabels(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((label) => label.trim())
    .filter((label) => label.length > 0);
}

export { LABEL_DESCRIPTION };
