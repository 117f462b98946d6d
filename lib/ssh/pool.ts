import "server-only";
import { createHash } from "node:crypto";
import type { EventEmitter } from "node:events";
import { NodeSSH, type Config } from "node-ssh";
import { classifyConnectError, SshError } from "./errors";
import { sshFingerprint } from "./fingerprint";
import type { HostTarget } from "./types";

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
// A silent peer is noticed after 3 missed keep-alives (30 s) instead of never.
const KEEPALIVE_INTERVAL_MS = 10_000;
const KEEPALIVE_COUNT_MAX = 3;

/** The part of ssh2's ClientChannel we use (@types/ssh2 is not installed, so we spell it out). */
export type SshChannel = EventEmitter & {
  stderr: EventEmitter;
  signal(name: string): boolean;
  close(): void;
  /** sends EOF on the command's stdin */
  end(): void;
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
  return JSON.stringify([target.name, target.address, target.port, target.username, target.pinnedFingerprint, credentials]);
}

export function describeTarget(target: HostTarget): string {
  const host = target.address.includes(":") ? `[${target.address}]` : target.address;
  return `${target.name} (${host}:${target.port})`;
}

function authConfig(target: HostTarget): Partial<Config> {
  const { auth } = target;
  switch (auth.method) {
    case "key":
      // By value: the key never touches the disk.
      return auth.passphrase === undefined ? { privateKey: auth.privateKey } : { privateKey: auth.privateKey, passphrase: auth.passphrase };
    case "password":
      // Many servers (and Windows) only offer keyboard-interactive for passwords.
      return { password: auth.password, tryKeyboard: true };
    case "local":
      throw new Error(`${target.name} uses the local transport; it has no SSH connection`);
  }
}

async function open(target: HostTarget, key: string, timeoutMs: number, forget: () => void): Promise<SshConnection> {
  const where = describeTarget(target);
  let presented: string | null = null;
  const ssh = new NodeSSH();
  const config: Config = {
    host: target.address,
    port: target.port,
    username: target.username,
    readyTimeout: timeoutMs,
    keepaliveInterval: KEEPALIVE_INTERVAL_MS,
    keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    // Runs during key exchange, before any credential is sent: a mismatch never reaches authentication.
    hostVerifier: (keyBlob: Buffer) => {
      presented = sshFingerprint(keyBlob);
      return target.pinnedFingerprint === null || presented === target.pinnedFingerprint;
    },
    ...authConfig(target),
  } as Config;

  let timer: NodeJS.Timeout | undefined;
  try {
    // readyTimeout covers the handshake; this outer timer also covers a connect that never settles.
    await Promise.race([
      ssh.connect(config),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error("timed out"), { level: "client-timeout" })), timeoutMs + 2000);
      }),
    ]);
  } catch (err) {
    ssh.dispose();
    throw classifyConnectError(err, { host: target.name, where, timeoutMs, pinned: target.pinnedFingerprint, presented });
  } finally {
    clearTimeout(timer);
  }

  const client = ssh.connection as unknown as Ssh2Client | null;
  if (!client || presented === null) {
    ssh.dispose();
    throw new SshError("unknown", target.name, `SSH connection to ${where} closed during the handshake`);
  }
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

  const fingerprint = presented as string;
  const result: SshConnection = {
    key,
    hostName: target.name,
    where,
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
 * The pooled connection to a host, opened on first use. With `pinnedFingerprint: null` any host key
 * is accepted and reported in `fingerprint`; with a pinned one, another key is refused with
 * HostKeyMismatchError before authentication.
 */
export function getConnection(target: HostTarget, options: { connectTimeoutMs?: number } = {}): Promise<SshConnection> {
  const key = poolKey(target);
  const existing = pool.get(key);
  if (existing) return existing;
  // Dropped (or failed) connections leave the pool, so the next caller reconnects.
  const forget = () => {
    if (pool.get(key) === opening) pool.delete(key);
  };
  const opening: Promise<SshConnection> = open(target, key, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, forget);
  pool.set(key, opening);
  opening.catch(forget);
  return opening;
}

/**
 * Connects (or reuses the connection) and reports the host key. On first contact (no pinned key)
 * the caller shows `fingerprint` to the user to confirm; nothing is stored here.
 */
export async function connectHost(
  target: HostTarget,
  options: { connectTimeoutMs?: number } = {},
): Promise<{ fingerprint: string; isFirstContact: boolean }> {
  if (target.auth.method === "local") throw new Error(`${target.name} uses the local transport; it has no host key`);
  const connection = await getConnection(target, options);
  return { fingerprint: connection.fingerprint, isFirstContact: target.pinnedFingerprint === null };
}

/** Closes the pooled connection to one host (e.g. after re-pinning or deleting it). */
export async function closeHost(target: HostTarget): Promise<void> {
  const key = poolKey(target);
  const opening = pool.get(key);
  pool.delete(key);
  if (!opening) return;
  try {
    (await opening).client.end();
  } catch {
    // never connected: nothing to close
  }
}

/** Closes every pooled connection: for shutdown and between tests. */
export async function closeAll(): Promise<void> {
  const all = [...pool.values()];
  pool.clear();
  await Promise.all(
    all.map(async (opening) => {
      try {
        (await opening).client.end();
      } catch {
        // never connected: nothing to close
      }
    }),
  );
}

/** How many connections the pool holds (open or opening); for tests. */
export function poolSize(): number {
  return pool.size;
}
