import type { z } from "zod";

/** One problem with one input field; `field` is a dotted path such as `port` or `auth.privateKey`. */
export type FieldError = { field: string; message: string };

export type InventoryErrorKind = "invalid" | "not_found" | "conflict";

/**
 * What the inventory functions throw when the input or the database state says no.
 * Route handlers turn it into 400/404/409; server actions into `{ errors }`.
 * Messages never contain secrets: they are written here, not copied from input.
 */
export class InventoryError extends Error {
  readonly kind: InventoryErrorKind;
  readonly fields: FieldError[];

  constructor(kind: InventoryErrorKind, message: string, fields: FieldError[] = []) {
    super(message);
    this.name = "InventoryError";
    this.kind = kind;
    this.fields = fields;
  }
}

export function isInventoryError(error: unknown): error is InventoryError {
  return error instanceof InventoryError;
}

/** `auth.privateKey` from ["auth", "privateKey"]; array indexes as `addresses.0`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>, prefix = ""): string {
  const joined = path.map((part) => String(part)).join(".");
  if (!prefix) return joined || "body";
  return joined ? `${prefix}.${joined}` : prefix;
}

/** The field errors of a failed zod parse, one per problem, unknown keys named one by one. */
export function fieldErrorsFromZod(error: z.ZodError, prefix = ""): FieldError[] {
  const fields: FieldError[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        // The key is the caller's own text: cut it short rather than echo a long string back.
        const shown = key.length > 64 ? `${key.slice(0, 64)}…` : key;
        fields.push({ field: fieldPath([...issue.path, shown], prefix), message: "is not a known field here" });
      }
    } else if (issue.path.length === 0 && issue.code === "invalid_type" && !prefix) {
      fields.push({ field: "body", message: "must be a JSON object" });
    } else {
      fields.push({ field: fieldPath(issue.path, prefix), message: issue.message });
    }
  }
  // A value can fail two checks with one message (too long and wrong characters): say it once.
  const seen = new Set<string>();
  return fields.filter((entry) => {
    const key = `${entry.field}\u0000${entry.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** "port must be …; name must be …": the top-level message names every field. */
export function describeFieldErrors(fields: FieldError[]): string {
  return fields.map((entry) => `${entry.field} ${entry.message}`).join("; ");
}

export function invalidInput(fields: FieldError[]): InventoryError {
  return new InventoryError("invalid", describeFieldErrors(fields), fields);
}

/**
 * Parses `input` with `schema`, throwing an `invalid` InventoryError that names each field.
 * `field` names the input itself when it is one value (an id) rather than an object of fields.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, field = ""): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(fieldErrorsFromZod(result.error, field));
  return result.data;
}
