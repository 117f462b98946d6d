import { AppError, invalidInput } from "@/lib/errors";
import { MAX_ID } from "@/lib/inventory/schemas";

/** Largest request body read: a 16 KiB key plus every other field fits many times over. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The request body parsed as JSON. The Content-Type is not checked (`curl -d` sends
 * form-urlencoded unless told otherwise, and the body is JSON either way); an empty,
 * malformed or too large body is a 400/413 naming the body. The parse error text is not
 * echoed: it quotes the input, which may be a secret.
 */
export async function readJsonBody(request: Request, maxBytes = MAX_BODY_BYTES): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") throw invalidInput([{ field: "body", message: "is empty: send a JSON object" }]);
  try {
    return JSON.parse(text);
  } catch {
    throw invalidInput([{ field: "body", message: "is not valid JSON: send a JSON object" }]);
  }
}

function tooLarge(maxBytes: number): AppError {
  return new AppError("payload-too-large", `The request body must be at most ${maxBytes} bytes.`, {
    fields: [{ field: "body", message: `must be at most ${maxBytes} bytes` }],
  });
}

/** An id from the path or the query string: 1 to 2147483647 in plain decimal, else a 400 naming `field`. */
export function parseId(value: string | null | undefined, field = "id"): number {
  if (value && /^[1-9][0-9]{0,9}$/.test(value)) {
    const id = Number(value);
    if (id <= MAX_ID) return id;
  }
  throw invalidInput([{ field, message: `must be a whole number from 1 to ${MAX_ID} (an id)` }]);
}

/** `id` of a dynamic route segment such as `/api/hosts/[id]`. */
export async function idFromParams(params: Promise<{ id: string }>): Promise<number> {
  const { id } = await params;
  return parseId(id);
}
