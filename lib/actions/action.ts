import "server-only";
import { isInventoryError, type FieldError } from "@/lib/inventory/errors";

/** What every server action answers: the value, or the fields that were wrong and a message. */
export type ActionResult<T> = { ok: true; value: T } | { ok: false; message: string; errors: FieldError[] };

/**
 * The one wrapper of server actions: the permission check goes here when user
 * accounts arrive, and every known error (validation, not found, conflict, a host
 * that failed) becomes `{ ok: false }` with messages written for the user. Anything
 * else is a bug: only its first line is logged, and the user gets a generic message.
 */
export async function runAction<T>(name: string, body: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await body() };
  } catch (error) {
    if (isInventoryError(error)) return { ok: false, message: error.message, errors: error.fields };
    if (error instanceof Error && typeof (error as { kind?: unknown }).kind === "string") {
      const hint = (error as { hint?: unknown }).hint;
      return { ok: false, message: typeof hint === "string" && hint ? `${error.message}. ${hint}` : error.message, errors: [] };
    }
    const firstLine = error instanceof Error ? (error.message.split("\n").find((line) => line.trim()) ?? "").slice(0, 200) : String(error);
    console.error(`action ${name}: unexpected error: ${firstLine}`);
    return { ok: false, message: "Something went wrong on the server: see its log.", errors: [] };
  }
}
