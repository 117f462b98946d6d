import type { ChangeEvent } from "react";

/** The keys of a form's fields that hold free text (not a choice among a few words). */
export type TextKey<F> = {
  [K in keyof F]-?: F[K] extends string ? (string extends F[K] ? K : never) : never;
}[keyof F] &
  string;

/** What a text control (TextField, SelectField, TextAreaField) takes to show and change one field. */
export type TextBinding = {
  name?: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void;
  error: string | undefined;
};

/**
 * Ties a form's text controls to its fields: `bind(key)` is the field's value, its change and the
 * server's message for it, to spread on the control, and its `name` (the key, or the request's name
 * where it differs) unless `isNamed` is false (forms whose controls have no name).
 */
export function textBinder<F>(
  fields: F,
  change: (next: Partial<F>) => void,
  errors: Readonly<Record<string, string | undefined>>,
  { isNamed = true }: { isNamed?: boolean } = {},
) {
  return (key: TextKey<F>, name: string = key): TextBinding => ({
    ...(isNamed ? { name } : {}),
    value: fields[key] as string,
    onChange: (event) => change({ [key]: event.target.value } as Partial<F>),
    error: errors[key],
  });
}
