import "server-only";
import { createHash } from "node:crypto";
import type { EventEmitter } from "node:events";
import { connectSsh, DEFAULT_CONNECT_TIMEOUT_MS, describeTarget } from "./connect";
import { settleStandbys } from "./standby";
import type { HostTarget } from "./types";

/** The part of ssh2's ClientChannel we use (@types/ssh2 is not installed, so we spell it out). */
export type SshChannel = EventEmitter & {
  stderr: EventEmitter;
  signal(name: string): boolean;
  close(): void;
  /** sends EOF on the command's stdin */
  end(): void;
  /** writes to the command's stdin */
  write(data: string): boolean;
  destroy?(): void;
};

type Ssh2Client = EventEmitter & {
  exec(
    command: string,
    options: { pty?: { term: string; cols: number; rows: number } },
    callback: (err: Error | undefined, channel: SshChannel) => void,
  ): boolean;
  end(): void;
  destroy?(): void;
};

/** One live SSH connection, shared by every command to that host. */
export type SshConnection = {
  key: string;
  hostName: string;
  /** `name (address:port)`, for messages */
  where: string;
  /** the host key this connection saw, `SHA256:...` */
  fingerprint: string;
  client: Ssh2Client;
  isClosed(): boolean;
  /** called once when the connection closes or fails; returns an unsubscribe function */
  onLost(listener: (why: Error | null) => void): () => void;
};

const pool = new Map<string, Promise<SshConnection>>();

// Everything that makes two targets different connections; the pinned key too, so re-pinning reconnects.
// A hash of the credentials (kept in memory only) makes an edited key or password take effect at once.
function poolKey(target: HostTarget): string {
  const credentials = createHash("sha256").update(JSON.stringify(target.auth)).digest("base64");
  return JSON.stringify([
    target.name,
    target.address,
    target.port,
    target.username,
    target.pinnedFingerprint,
    credentials,
  ]);
}

async function open(target: HostTarget, key: string, timeoutMs: number, forget: () => void): Promise<SshConnection> {
  const { ssh, fingerprint } = await connectSsh(target, timeoutMs);
  const client = ssh.connection as unknown as Ssh2Client;
  let closed = false;
  let lostError: Error | null = null;
  const listeners = new Set<(why: Error | null) => void>();
  const lose = (why: Error | null) => {
    if (closed) return;
    closed = true;
    lostError = why;
    forget();
    for (const listener of [...listeners]) listener(why);
    listeners.clear();
  };
  // Without an error listener, a dropped connection would crash the process with an unhandled 'error'.
  client.on("error", (err: Error) => lose(err));
  client.on("end", () => lose(null));
  client.on("close", () => lose(null));

  const result: SshConnection = {
    key,
    hostName: target.name,
    where: describeTarget(target),
    fingerprint,
    client,
    isClosed: () => closed,
    onLost(listener) {
      if (closed) {
        listener(lostError);
        return () => {};
      }
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return result;
}

/**
 * The pooled connection to a host, opened on first use. Only the pinned host key is accepted: another
 * key (HostKeyMismatchError) or none pinned is refused before authentication (see connect.ts).
 */
export function getConnection(target: HostTarget, options: { connectTimeoutMs?: number } = {}): Promise<SshConnection> {
  const key = poolKey(target);
  const existing = pool.get(key);
  if (existing) return existing;
  // Dropped (or failed) connections leave the pool, so the next caller reconnects.
  const forget = () => {
    if (pool.get(key) === opening) pool.delete(key);
  };
  const opening: Promise<SshConnection> = open(
    target,
    key,
    options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    forget,
  );
  pool.set(key, opening);
  opening.catch(forget);
  return opening;
}

/**
 * Connects (or reuses the connection) to a host with a pinned key and reports the key it presented.
 * On first contact (no pinned key) read the key with readHostKey instead, for the user to confirm.
 */
export async function connectHost(
  target: HostTarget,
  options: { connectTimeoutMs?: number } = {},
): Promise<{ fingerprint: string }> {
  if (target.auth.method === "local") throw new Error(`${target.name} uses the local transport; it has no host key`);
  const connection = await getConnection(target, options);
  return { fingerprint: connection.fingerprint };
}

/** Ends a connection once its standby sessions have finished starting (see settleStandbys). */
async function endGently(opening: Promise<SshConnection>): Promise<void> {
  let connection: SshConnection;
  try {
    connection = await opening;
  } catch {
    return; // never connected: nothing to close
  }
  await settleStandbys(connection, { closing: true });
  connection.client.end();
}

/** Closes the pooled connection to one host (e.g. after re-pinning or deleting it). */
export async function closeHost(target: HostTarget): Promise<void> {
  const key = poolKey(target);
  const opening = pool.get(key);
  pool.delete(key);
  if (opening) await endGently(opening);
}

/** Closes every pooled connection: for shutdown and between tests. */
export async function closeAll(): Promise<void> {
  const all = [...pool.values()];
  pool.clear();
  await Promise.all(all.map(endGently));
}

/** How many connections the pool holds (open or opening); for tests. */
export function poolSize(): number {
  return pool.size;
}
