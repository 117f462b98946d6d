import { createHash, timingSafeEqual } from "node:crypto";
import { errorResponse, jsonError } from "@/lib/api/errors";

// The one permission check of the REST API. User accounts replace the body of
// `authorizeApiRequest` (and nothing in the route files) when they arrive.

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="wirespeed"' };

function unauthorized(message: string): Response {
  return jsonError(401, "unauthorized", message, [], CHALLENGE);
}

/** Equal in constant time: both sides are hashed first, so the buffers are the same length and the token's length leaks nothing. */
function tokensMatch(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  return timingSafeEqual(a, b);
}

/**
 * A read by the dashboard itself: the browser marks same-origin fetches and EventSource
 * requests with `Sec-Fetch-Site: same-origin`, which another site cannot make it send.
 * Until user accounts exist the pages are open to whoever reaches them, so such reads
 * grant nothing the pages do not; writes still need the token.
 */
function isDashboardRead(request: Request): boolean {
  return request.method === "GET" && request.headers.get("sec-fetch-site") === "same-origin";
}

/** null when the request may proceed, else the 401 to answer with. The token is read per request. */
export function authorizeApiRequest(request: Request, env: Record<string, string | undefined> = process.env): Response | null {
  if (isDashboardRead(request)) return null;
  const expected = env.WIRESPEED_API_TOKEN;
  if (!expected) {
    return unauthorized("The API is disabled until WIRESPEED_API_TOKEN is set in the server's environment.");
  }
  const header = request.headers.get("authorization");
  if (!header) return unauthorized("Missing Authorization header: send Authorization: Bearer <WIRESPEED_API_TOKEN>.");
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) return unauthorized("The Authorization header must be Bearer <WIRESPEED_API_TOKEN>.");
  if (!tokensMatch(match[1]!, expected)) return unauthorized("The bearer token is wrong.");
  return null;
}

/**
 * Wraps a route handler: answers 401 unless the request is authorized, and turns whatever
 * the handler throws (ApiError, InventoryError, anything else) into the API's JSON error.
 */
export function withApiAuth<Context>(
  handler: (request: Request, context: Context) => Response | Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    const denied = authorizeApiRequest(request);
    if (denied) return denied;
    try {
      return await handler(request, context);
    } catch (error) {
      return errorResponse(error, `${request.method} ${new URL(request.url).pathname}`);
    }
  };
}
