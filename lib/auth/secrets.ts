import "server-only";
import { createHash, randomBytes } from "node:crypto";

// Session cookies and API tokens are 32 random bytes; the database keeps only their
// SHA-256 (a slow hash is not needed for values nobody chose), so a copy of the
// database signs nobody in.

export function newOpaqueToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
