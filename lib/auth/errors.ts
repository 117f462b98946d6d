import { AppError, type AppErrorOptions } from "@/lib/errors";
import { PERMISSION_NEEDS, type Permission, type Role } from "./roles";

export type AuthErrorKind = "unauthorized" | "forbidden" | "rate-limited";

/** A request that is not signed in (401), not allowed (403) or sent too often (429). Messages are written for the user. */
export class AuthError extends AppError {
  static override readonly errorName: string = "AuthError";
  declare readonly kind: AuthErrorKind;
  /** Seconds to wait, for 429. */
  readonly retryAfter?: number;

  constructor(
    kind: AuthErrorKind,
    message: string,
    { retryAfter, ...options }: AppErrorOptions & { retryAfter?: number } = {},
  ) {
    super(kind, message, options);
    this.retryAfter = retryAfter;
  }
}

export function forbidden(role: Role, permission: Permission): AuthError {
  return new AuthError("forbidden", `Your role (${role}) does not allow ${PERMISSION_NEEDS[permission]}.`);
}

export type AccountErrorKind = "invalid" | "not-found" | "conflict";

/** What the accounts (users, API tokens) refuse: a name taken, the last admin, a user that does not exist. */
export class AccountError extends AppError {
  static override readonly errorName: string = "AccountError";
  declare readonly kind: AccountErrorKind;

  constructor(kind: AccountErrorKind, message: string, options?: AppErrorOptions) {
    super(kind, message, options);
  }
}
