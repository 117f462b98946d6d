import { AuthError } from "@/lib/auth/errors";
import { AppError, isRequestErrorKind, type AppErrorKind, type FieldError, type RequestErrorKind } from "@/lib/errors";

/** The API's code of each request kind: the kind in snake_case (`not-found` → `not_found`). */
type RequestErrorCode<K extends string = RequestErrorKind> = K extends `${infer Head}-${infer Tail}`
  ? `${Head}_${RequestErrorCode<Tail>}`
  : K;

export type ApiErrorCode = RequestErrorCode | "host_error" | "internal";

/** The one error shape of the API: `{ "error": { "code", "message", "fields"? } }`; a host error adds `kind` and `hint`. */
export type ApiErrorBody = {
  error: { code: ApiErrorCode; message: string; fields?: FieldError[]; kind?: AppErrorKind; hint?: string };
};

function apiCodeOf(kind: RequestErrorKind): RequestErrorCode {
  return kind.replaceAll("-", "_") as RequestErrorCode;
}

/**
 * The response for anything a handler throws. An AppError answers the status of its kind:
 * a request kind with its code, message and fields (401 adds WWW-Authenticate, 429 Retry-After);
 * a host or run kind (the host, not the request, failed: unreachable, wrong key, no iperf3)
 * 502 `host_error` with the kind and what to do. Anything else is a bug whose text may hold
 * request data (Prisma prints query arguments, which can include a sealed secret), so only
 * its first line is logged and the client gets a generic 500.
 */
export function errorResponse(error: unknown, context = "api"): Response {
  if (error instanceof AppError) {
    const { kind, message, fields } = error;
    if (!isRequestErrorKind(kind)) {
      const body: ApiErrorBody = { error: { code: "host_error", message, kind, hint: error.hint } };
      return Response.json(body, { status: error.status });
    }
    const headers: Record<string, string> = {};
    if (kind === "unauthorized") headers["WWW-Authenticate"] = 'Bearer realm="wirespeed"';
    if (error instanceof AuthError && error.retryAfter) headers["Retry-After"] = String(error.retryAfter);
    const body: ApiErrorBody = { error: { code: apiCodeOf(kind), message, ...(fields.length > 0 ? { fields } : {}) } };
    return Response.json(body, { status: error.status, headers });
  }
  const name = error instanceof Error ? error.name : typeof error;
  const firstLine =
    error instanceof Error ? (error.message.split("\n").find((line) => line.trim() !== "") ?? "").slice(0, 200) : "";
  console.error(`${context}: unexpected ${name}: ${firstLine}`);
  const body: ApiErrorBody = { error: { code: "internal", message: "Internal error: see the server log." } };
  return Response.json(body, { status: 500 });
}
