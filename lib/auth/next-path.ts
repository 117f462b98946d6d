/**
 * Where to go after signing in: a path of this app only (never another site, nor the sign-in page
 * itself); anything else sends the user home. Used by the password sign-in and the identity provider's.
 */
export function safeNextPath(next: unknown): string {
  return typeof next === "string" && /^\/(?!\/)[^\s\\]*$/.test(next) && !next.startsWith("/login") ? next : "/";
}
