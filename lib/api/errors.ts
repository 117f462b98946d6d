import { isAuthError } from "@/lib/auth/errors";
import { describeFieldErrors, isInventoryError, type FieldError } from "@/lib/inventory/errors";

export type ApiErrorCode = "unauthorized" | "forbidden" | "rate_limited" | "invalid" | "not_found" | "conflict" | "payload_too_large" | "host_error" | "internal";

/** The one error shape of the API: `{ "error": { "code", "message", "fields"? } }`. */
export type ApiErrorBody = { error: { code: ApiErrorCode; message: string; fields?: FieldError[]; kind?: string; hint?: string } };

/** Thrown by the request helpers (body, ids, query) and turned into a response by `withApiAuth`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly fields: FieldError[];

  constructor(status: number, code: ApiErrorCode, message: string, fields: FieldError[] = []) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** A 400 naming each field and what it allows. */
export function invalidRequest(fields: FieldError[]): ApiError {
  return new ApiError(400, "invalid", describeFieldErrors(fields), fields);
}

export function jsonError(status: number, code: ApiErrorCode, message: string, fields: FieldError[] = [], headers?: HeadersInit): Response {
  const body: ApiErrorBody = { error: { code, message, ...(fields.length > 0 ? { fields } : {}) } };
  return Response.json(body, { status, headers });
}

const STATUS_OF_KIND = { invalid: 400, not_found: 404, conflict: 409 } as const;

/** Errors of lib/ssh and lib/hosts carry a stable `kind` (host-key, auth, unreachable, not-found, …) and messages written for users. */
function isHostError(error: unknown): error is Error & { kind: string; hint?: string } {
  return error instanceof Error && typeof (error as { kind?: unknown }).kind === "string";
}

/**
 * The response for anything a handler throws. Known errors carry messages written for the
 * user; anything else is a bug whose text may hold request data (Prisma prints query
 * arguments, which can include a sealed secret), so only its first line is logged and the
 * client gets a generic 500.
 */
export function errorResponse(error: unknown, context = "api"): Response {
  if (error instanceof ApiError) return jsonError(error.status, error.code, error.message, error.fields);
  if (isAuthError(error)) {
    const headers: Record<string, string> = {};
    if (error.status === 401) headers["WWW-Authenticate"] = 'Bearer realm="wirespeed"';
    if (error.retryAfter) headers["Retry-After"] = String(error.retryAfter);
    return jsonError(error.status, error.code, error.message, [], headers);
  }
  if (isInventoryError(error)) return jsonError(STATUS_OF_KIND[error.kind], error.kind, error.message, error.fields);
  if (isHostError(error)) {
    // The host, not the request, failed (unreachable, wrong key, no iperf3): 502 with what to do.
    const body: ApiErrorBody = { error: { code: "host_error", message: error.message, kind: error.kind, hint: error.hint ?? "" } };
    return Response.json(body, { status: 502 });
  }
  const name = error instanceof Error ? error.name : typeof error;
  const firstLine = error instanceof Error ? (error.message.split("\n").find((line) => line.trim() !== "") ?? "").slice(0, 200) : "";
  console.error(`${context}: unexpected ${name}: ${firstLine}`);
  return jsonError(500, "internal", "Internal error: see the server log.");
}
