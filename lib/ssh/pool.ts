import "server-only";
import { createHash } from "node:crypto";
import type { EventEmitter } from "node:events";
import type { Duplex } from "node:stream";
import { connectSsh, DEFAULT_CONNECT_TIMEOUT_MS, describeTarget, readPresentedKey } from "./connect";
import { openTunnel } from "./jump";
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
  /** a direct-tcpip channel: the jump host connects to dstIP:dstPort and relays (OpenSSH's ProxyJump) */
  forwardOut(
    srcIP: string,
    srcPort: number,
    dstIP: string,
    dstPort: number,
    callback: (err: Error | undefined, stream: Duplex) => void,
  ): unknown;
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

/** A pooled connection, opened or opening, and the pool keys of the jump hosts it goes through. */
type PoolEntry = { opening: Promise<SshConnection>; jumpKeys: string[] };

const pool = new Map<string, PoolEntry>();

/**
 * Everything that makes two targets different connections; the pinned key too, so re-pinning reconnects.
 * A hash of the credentials (kept in memory only) makes an edited key or password take effect at once.
 * The jump host's key is part of it: the same host reached another way is another connection.
 */
export function poolKey(target: HostTarget): string {
  const credentials = createHash("sha256").update(JSON.stringify(target.auth)).digest("base64");
  return JSON.stringify([
    target.name,
    target.address,
    target.port,
    target.username,
    target.pinnedFingerprint,
    credentials,
    target.via ? poolKey(target.via) : null,
  ]);
}

/** The pool keys of a target's jump hosts, the nearest first. */
function jumpKeysOf(target: HostTarget): string[] {
  const keys: string[] = [];
  for (let hop = target.via; hop; hop = hop.via) keys.push(poolKey(hop));
  return keys;
}

/**
 * Behind a jump host: its pooled connection (opened on first use, shared by every host behind it)
 * and a channel through it to the target's sshd. A failed hop fails with its own error, naming it.
 */
async function reachThroughJump(
  target: HostTarget,
  timeoutMs: number,
): Promise<{ jump: SshConnection; sock: Duplex } | null> {
  if (!target.via) return null;
  const jump = await getConnection(target.via, { connectTimeoutMs: timeoutMs });
  return { jump, sock: await openTunnel(jump, target, timeoutMs) };
}

async function open(target: HostTarget, key: string, timeoutMs: number, forget: () => void): Promise<SshConnection> {
  const through = await reachThroughJump(target, timeoutMs);
  const { ssh, fingerprint } = await connectSsh(target, timeoutMs, through?.sock);
  const client = ssh.connection as unknown as Ssh2Client;
  let closed = false;
  let lostError: Error | null = null;
  const listeners = new Set<(why: Error | null) => void>();
  let leaveJump = () => {};
  const lose = (why: Error | null) => {
    if (closed) return;
    closed = true;
    lostError = why;
    leaveJump();
    forget();
    for (const listener of [...listeners]) listener(why);
    listeners.clear();
  };
  // Without an error listener, a dropped connection would crash the process with an unhandled 'error'.
  client.on("error", (err: Error) => lose(err));
  client.on("end", () => lose(null));
  client.on("close", () => lose(null));
  if (through) {
    // Its channel ends with the jump host's connection: so does this one, at once and saying why.
    const { jump } = through;
    leaveJump = jump.onLost((why) => {
      lose(
        new Error(
          `the connection to its jump host ${jump.where} was lost${why ? ` (${why.message})` : ""}`,
          why ? { cause: why } : undefined,
        ),
      );
      client.end();
    });
  }

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
  if (existing) return existing.opening;
  // Dropped (or failed) connections leave the pool, so the next caller reconnects.
  const forget = () => {
    if (pool.get(key)?.opening === opening) pool.delete(key);
  };
  const opening: Promise<SshConnection> = open(
    target,
    key,
    options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    forget,
  );
  pool.set(key, { opening, jumpKeys: jumpKeysOf(target) });
  opening.catch(forget);
  return opening;
}

/**
 * The host key a host presents, read during key exchange and then refused (first contact: nothing is
 * sent and nothing stored). Behind a jump host, the jump hosts are reached with their pinned keys and
 * credentials as for any command, and only the last hop's key is read.
 */
export async function readHostKey(target: HostTarget, timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): Promise<string> {
  const through = await reachThroughJump(target, timeoutMs);
  return readPresentedKey(target, timeoutMs, through?.sock);
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

// How long closing waits for a connection through a jump host to be gone before ending the jump host's.
const CLOSE_WAIT_MS = 2000;

/**
 * Ends a connection once its standby sessions have finished starting (see settleStandbys). With
 * `waitClosed`, resolves when it is gone (or after CLOSE_WAIT_MS), not when its end was asked for.
 */
async function endGently(opening: Promise<SshConnection>, { waitClosed = false } = {}): Promise<void> {
  let connection: SshConnection;
  try {
    connection = await opening;
  } catch {
    return; // never connected: nothing to close
  }
  await settleStandbys(connection, { closing: true });
  const closed = new Promise<void>((resolve) => {
    connection.onLost(() => resolve());
    setTimeout(resolve, CLOSE_WAIT_MS).unref();
  });
  connection.client.end();
  if (waitClosed) await closed;
}

/**
 * Ends pooled connections, those behind the most jump hosts first: a jump host's connection ends
 * after the connections through it, whose standby sessions could otherwise be cut in their start-up.
 */
async function closeEntries(keys: string[]): Promise<void> {
  const entries = keys.flatMap((key) => {
    const entry = pool.get(key);
    pool.delete(key);
    return entry ? [entry] : [];
  });
  const deepest = Math.max(0, ...entries.map((entry) => entry.jumpKeys.length));
  for (let hops = deepest; hops >= 0; hops -= 1)
    await Promise.all(
      entries
        .filter((entry) => entry.jumpKeys.length === hops)
        // The jump host's connection carries this one's goodbye: it ends only once this one is gone.
        .map((entry) => endGently(entry.opening, { waitClosed: hops > 0 })),
    );
}

/**
 * Closes the pooled connection to one host (e.g. after re-pinning or deleting it), and first those of
 * the hosts reached through it.
 */
export async function closeHost(target: HostTarget): Promise<void> {
  const key = poolKey(target);
  const through = [...pool].filter(([, entry]) => entry.jumpKeys.includes(key)).map(([other]) => other);
  await closeEntries([...through, key]);
}

/** Closes every pooled connection: for shutdown and between tests. */
export async function closeAll(): Promise<void> {
  await closeEntries([...pool.keys()]);
}

/** How many connections the pool holds (open or opening); for tests. */
export function poolSize(): number {
  return pool.size;
}
