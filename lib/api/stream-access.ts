import "server-only";
import { AuthError, forbidden } from "@/lib/auth/errors";
import type { Principal } from "@/lib/auth/principal";
import { can, isRole, type Permission } from "@/lib/auth/roles";
import { sessionsCreatedAfter } from "@/lib/auth/sessions";
import { db } from "@/lib/db";

// A server-sent event stream is authorized once, when it opens, and may then last as long as
// a run (hours). Whoever opened it must lose it soon after losing access: every stream asks
// again, every few seconds, whether its principal still holds the permission it opened with.
// And since each open stream holds a connection and a bus listener, one user or token holds at
// most MAX_OPEN_STREAMS of them at once (counted per instance).

/** How often an open stream asks again: well inside the 5 s in which a revoked viewer must be gone. */
export const STREAM_ACCESS_CHECK_MS = 2_000;

/**
 * Why `principal` may no longer do `permission` (the AuthError a new request would get), or
 * null while it still may. While all is well this is one query: the user, enabled, with this
 * very session (unexpired) or token (not revoked). Only a refusal looks further, for the message.
 * The environment's admin token and the public viewer hold no row that could be revoked.
 */
export async function accessEnded(principal: Principal, permission: Permission): Promise<AuthError | null> {
  const { userId, credentialId, via } = principal;
  if (via === "proxy" && userId !== null) return proxyAccessEnded(userId, permission);
  if ((via !== "session" && via !== "token") || userId === null || credentialId === undefined) return null;
  const now = new Date();
  const credential =
    via === "session"
      ? {
          sessions: {
            some: { id: credentialId, expiresAt: { gt: now }, createdAt: { gt: sessionsCreatedAfter(now) } },
          },
        }
      : { apiTokens: { some: { id: credentialId, revokedAt: null } } };
  const user = await db.user.findFirst({
    where: { id: userId, disabledAt: null, ...credential },
    select: { role: true },
  });
  if (user) {
    if (!isRole(user.role))
      return new AuthError("forbidden", `Your role (${user.role}) is not one Wirespeed knows: this stream has ended.`);
    return can(user.role, permission) ? null : forbidden(user.role, permission);
  }
  const account = await db.user.findUnique({ where: { id: userId }, select: { disabledAt: true } });
  if (!account) return new AuthError("unauthorized", "Your account was deleted: this stream has ended.");
  if (account.disabledAt) return new AuthError("unauthorized", "Your account was disabled: this stream has ended.");
  if (via === "session")
    return new AuthError(
      "unauthorized",
      "Your session has ended (signed out or expired): sign in again to follow this live.",
    );
  return new AuthError("unauthorized", "The API token was revoked: this stream has ended.");
}

/**
 * A trusted proxy's user holds no session: the proxy names them, with their groups, on each request,
 * and each request stores the role those groups give (lib/auth/proxy-header.ts). An open stream asks
 * that stored role: a user the proxy no longer puts in the admin group loses admin-only streams
 * within STREAM_ACCESS_CHECK_MS of the proxy's next request for them, and a disabled or deleted one
 * loses every stream.
 */
async function proxyAccessEnded(userId: number, permission: Permission): Promise<AuthError | null> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { role: true, disabledAt: true } });
  if (!user) return new AuthError("unauthorized", "Your account was deleted: this stream has ended.");
  if (user.disabledAt) return new AuthError("unauthorized", "Your account was disabled: this stream has ended.");
  if (!isRole(user.role))
    return new AuthError("forbidden", `Your role (${user.role}) is not one Wirespeed knows: this stream has ended.`);
  return can(user.role, permission) ? null : forbidden(user.role, permission);
}

/** How many event streams one user (all their sessions and sign-ins through a proxy) or one token may hold open at once. */
export const MAX_OPEN_STREAMS = 20;

const openStreams = new Map<string, number>();

/** Whose open streams count together: an API token's its own; a user's sessions and proxy sign-ins together. */
export function streamHolderOf(principal: Principal): string {
  if (principal.via === "token") return `token ${principal.credentialId}`;
  if (principal.userId !== null) return `user ${principal.userId}`;
  return principal.via;
}

/** The streams `holder` has open on this instance (tests). */
export function openStreamCount(holder: string): number {
  return openStreams.get(holder) ?? 0;
}

/** Takes one of `holder`'s stream places: a release (idempotent) for when the stream ends, or null when all are taken. */
function takeStreamPlace(holder: string): (() => void) | null {
  const count = openStreamCount(holder);
  if (count >= MAX_OPEN_STREAMS) return null;
  openStreams.set(holder, count + 1);
  let isReleased = false;
  return () => {
    if (isReleased) return;
    isReleased = true;
    const left = openStreamCount(holder) - 1;
    if (left > 0) openStreams.set(holder, left);
    else openStreams.delete(holder);
  };
}

function tooManyStreams(): AuthError {
  return new AuthError(
    "rate-limited",
    `At most ${MAX_OPEN_STREAMS} event streams may be open at once for one user or API token: close one (a page or a script following a run or an experiment) and try again.`,
    { retryAfter: 5 },
  );
}

/**
 * `response` as it was, or, when it is a server-sent event stream, the stream counted against its
 * holder's MAX_OPEN_STREAMS until it ends (its body read to the end, cancelled, or `signal`, the
 * request's, aborted) and ended when `stillAllowed` refuses (endStreamWhenAccessEnds). A stream
 * past the limit is cancelled before anyone reads it and throws AuthError "rate-limited" (429).
 */
export async function guardEventStream(
  response: Response,
  {
    holder,
    stillAllowed,
    signal,
  }: { holder: string; stillAllowed: () => Promise<AuthError | null>; signal?: AbortSignal },
): Promise<Response> {
  if (!isEventStream(response)) return response;
  const release = takeStreamPlace(holder);
  if (!release) {
    // The inner stream stops following its bus, as for a client that left.
    await response.body!.cancel("too many event streams").catch(() => {});
    throw tooManyStreams();
  }
  if (signal?.aborted) release();
  signal?.addEventListener("abort", release, { once: true });
  return endStreamWhenAccessEnds(response, stillAllowed, STREAM_ACCESS_CHECK_MS, () => {
    signal?.removeEventListener("abort", release);
    release();
  });
}

function isEventStream(response: Response): boolean {
  return response.body !== null && (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
}

/**
 * `response` as it was, or, when it is a server-sent event stream, with a body that asks
 * `stillAllowed` every `everyMs` and, on a refusal, sends `event: error` with
 * `{ kind, message }` (kind `unauthorized` or `forbidden`, as a new request would be told)
 * and ends. The event carries no id, so a client that reconnects resumes where it was.
 * `onEnd` is called once when the stream ends, whichever way.
 */
export function endStreamWhenAccessEnds(
  response: Response,
  stillAllowed: () => Promise<AuthError | null>,
  everyMs = STREAM_ACCESS_CHECK_MS,
  onEnd: () => void = () => {},
): Response {
  if (!isEventStream(response)) return response;
  const reader = response.body!.getReader();
  let timer: ReturnType<typeof setInterval> | undefined;
  let isEnded = false;
  const end = () => {
    if (!isEnded) onEnd();
    isEnded = true;
    clearInterval(timer);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      let isChecking = false;
      timer = setInterval(() => {
        if (isChecking || isEnded) return;
        isChecking = true;
        stillAllowed()
          .then((refusal) => {
            if (!refusal || isEnded) return;
            end();
            const data = JSON.stringify({ kind: refusal.kind, message: refusal.message });
            controller.enqueue(new TextEncoder().encode(`event: error\ndata: ${data}\n\n`));
            controller.close();
            // The inner stream stops following its bus (and its heartbeat) as for a client that left.
            reader.cancel(refusal.message).catch(() => {});
          })
          // A busy or briefly unreadable database is no revocation: ask again at the next tick.
          .catch(() => {})
          .finally(() => {
            isChecking = false;
          });
      }, everyMs);
    },
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        end();
        throw error;
      }
      const { value, done } = chunk;
      if (isEnded) return;
      if (done) {
        end();
        controller.close();
      } else {
        controller.enqueue(value);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
