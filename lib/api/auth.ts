import { withPrincipal } from "@/lib/auth/context";
import { authorize, principalOfRequest, PUBLIC_VIEWER, publicOverviewEnabled } from "@/lib/auth/guard";
import type { Principal } from "@/lib/auth/principal";
import type { Permission } from "@/lib/auth/roles";
import { errorResponse } from "@/lib/api/errors";
import { accessEnded, guardEventStream, streamHolderOf } from "@/lib/api/stream-access";

// The REST API's side of the one permission check (lib/auth/guard.ts): every route
// handler, server-sent event streams included, is wrapped here with the permission it needs.
// A stream is asked again while it lasts: it ends soon after its principal loses access.

export type ApiAuthOptions = {
  /** Readable without an account when WIRESPEED_PUBLIC_OVERVIEW=1 (the overview's data only). */
  public?: boolean;
};

/** The request's principal if it may proceed with `permission`; throws AuthError otherwise. */
export async function authorizeApiRequest(
  request: Request,
  permission: Permission,
  options: ApiAuthOptions = {},
): Promise<Principal> {
  const principal = await principalOfRequest(request);
  if (!principal && options.public && permission === "read" && publicOverviewEnabled()) return PUBLIC_VIEWER;
  return authorize(principal, permission);
}

/**
 * Wraps a route handler: answers 401/403 unless the request's principal holds
 * `permission`, runs the handler as that principal (the audit log names it), and turns
 * whatever the handler throws (an AppError, or anything else as a 500) into the API's
 * JSON error. A server-sent event stream it answers ends, with an `error` event, once the
 * principal no longer holds `permission` (user disabled or deleted, signed out, token revoked),
 * and a user or token holding MAX_OPEN_STREAMS open streams already is answered 429.
 */
export function withApiAuth<Context>(
  permission: Permission,
  handler: (request: Request, context: Context, principal: Principal) => Response | Promise<Response>,
  options: ApiAuthOptions = {},
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    try {
      const principal = await authorizeApiRequest(request, permission, options);
      const response = await withPrincipal(principal, () => handler(request, context, principal));
      return await guardEventStream(response, {
        holder: streamHolderOf(principal),
        stillAllowed: () => accessEnded(principal, permission),
        signal: request.signal,
      });
    } catch (error) {
      return errorResponse(error, `${request.method} ${new URL(request.url).pathname}`);
    }
  };
}
