import { PERMISSION_NEEDS, type Permission, type Role } from "./roles";

export type AuthErrorCode = "unauthorized" | "forbidden" | "rate_limited";

/** A request that is not signed in (401), not allowed (403) or sent too often (429). Messages are written for the user. */
export class AuthError extends Error {
  readonly status: 401 | 403 | 429;
  readonly code: AuthErrorCode;
  /** Seconds to wait, for 429. */
  readonly retryAfter?: number;

  constructor(status: 401 | 403 | 429, message: string, retryAfter?: number) {
    super(message);
    this.name = "AuthError";
    this.status = status;
    this.code = status === 401 ? "unauthorized" : status === 403 ? "forbidden" : "rate_limited";
    this.retryAfter = retryAfter;
  }
}

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}

export function forbidden(role: Role, permission: Permission): AuthError {
  return new AuthError(403, `Your role (${role}) does not allow ${PERMISSION_NEEDS[permission]}.`);
}
