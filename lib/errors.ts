import type { z } from "zod";

// The one error model. Pure (no I/O, no server-only): lib/iperf and the browser import it too.
// Whatever says no (a request, a host, a run) throws an AppError or one of its subclasses; the
// REST routes (lib/api/errors.ts) and server actions (lib/action.ts) each map it once.

/** One problem with one input field; `field` is a dotted path such as `port` or `auth.privateKey`. */
export type FieldError = { field: string; message: string };

/**
 * Every kind of error and its HTTP status. The request kinds answer with their own status;
 * everything else is a host or a run that failed (502): SSH (`host-key`, `auth`, `unreachable`,
 * `timeout`, `connection-lost`), iperf3's own (lib/iperf's classifier), the engine's and a stored
 * secret that no key opens. `not-found` is a row that does not exist, and also lib/iperf's kind
 * for a missing iperf3, which only ever ends a run and never reaches a response.
 */
export const STATUS_OF_KIND = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "payload-too-large": 413,
  "rate-limited": 429,
  "shutting-down": 503,
  "host-key": 502,
  auth: 502,
  unreachable: 502,
  timeout: 502,
  "connection-lost": 502,
  "connection-refused": 502,
  "server-busy": 502,
  /** a listening run that no device connected to before its time was up */
  "no-client": 502,
  "listener-failed": 502,
  "control-socket-closed": 502,
  parameter: 502,
  interrupted: 502,
  cancelled: 502,
  "ports-exhausted": 502,
  "key-mismatch": 502,
  tampered: 502,
  malformed: 502,
  unknown: 502,
} as const satisfies Record<string, number>;

export type AppErrorKind = keyof typeof STATUS_OF_KIND;

/** The kinds a request is refused with (4xx): the caller, not a host, has to change something. */
export type RequestErrorKind = {
  [K in AppErrorKind]: (typeof STATUS_OF_KIND)[K] extends 502 ? never : K;
}[AppErrorKind];

export function isRequestErrorKind(kind: AppErrorKind): kind is RequestErrorKind {
  return STATUS_OF_KIND[kind] !== 502;
}

export type AppErrorOptions = { hint?: string; fields?: FieldError[]; cause?: unknown };

/** Marks every AppError, whichever copy of this module made it (see `AppError[Symbol.hasInstance]`). */
const APP_ERROR = Symbol.for("wirespeed.AppError");

type ErrorClass = { readonly errorName?: string };

/**
 * An error whose message is written for the user (never a secret, never a stack), with a
 * typed kind, the HTTP status of that kind, a hint saying what to do and the fields at fault.
 *
 * Each subclass declares `static override readonly errorName = "<its class name>"`: that is the
 * error's `name`, and what `instanceof` recognises it by across copies of the module.
 *
 * Every subclass is constructed alike: `(kind, message, options?)`, where `options` is
 * `AppErrorOptions` plus the class's own data (`{ host }`, `{ retryAfter }`, …; required when that
 * data is). A class of one kind leaves the kind out, `(message, options?)`, and one that takes no
 * input at all, `()`. A hint the class always gives is the default of `options.hint`. A message
 * is written where the error is thrown, never by a constructor; an error thrown from several
 * places gets one function beside its class that writes it (`hostKeyMismatch` in lib/ssh).
 */
export class AppError extends Error {
  static readonly errorName: string = "AppError";

  readonly kind: AppErrorKind;
  readonly hint: string;
  readonly fields: FieldError[];

  constructor(kind: AppErrorKind, message: string, { hint = "", fields = [], cause }: AppErrorOptions = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.errorName;
    this.kind = kind;
    this.hint = hint;
    this.fields = fields;
  }

  /**
   * `error instanceof AppError` (or any subclass) holds for an error made by another copy of this
   * module too. A Next.js build has several: instrumentation.ts and the route handlers are
   * bundled apart, so the services instrumentation starts (the run engine, the experiment runner,
   * the scheduler, kept in the one app) throw errors whose class is not the routes' class, and a
   * plain prototype check would turn a refused request into a 500. Such an error is recognised by
   * its mark and by the `errorName` of a class along its prototype chain.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (typeof value !== "object" || value === null || !(APP_ERROR in value)) return false;
    // A subclass that declares no name of its own is recognised by its prototype alone.
    if (!Object.hasOwn(this, "errorName")) return false;
    for (
      let prototype: object | null = Object.getPrototypeOf(value);
      prototype !== null;
      prototype = Object.getPrototypeOf(prototype)
    ) {
      const constructor = Object.hasOwn(prototype, "constructor") ? (prototype.constructor as ErrorClass) : undefined;
      if (constructor && Object.hasOwn(constructor, "errorName") && constructor.errorName === this.errorName)
        return true;
    }
    return false;
  }

  get status(): number {
    return STATUS_OF_KIND[this.kind];
  }
}
Object.defineProperty(AppError.prototype, APP_ERROR, { value: true });

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

/** An `invalid` AppError (400) whose message names every field. */
export function invalidInput(fields: FieldError[]): AppError {
  return new AppError("invalid", describeFieldErrors(fields), { fields });
}

/**
 * Parses `input` with `schema`, throwing an `invalid` AppError that names each field.
 * `field` names the input itself when it is one value (an id) rather than an object of fields.
 */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown, field = ""): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(fieldErrorsFromZod(result.error, field));
  return result.data;
}
