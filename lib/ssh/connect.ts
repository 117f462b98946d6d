import "server-only";
import type { Duplex } from "node:stream";
import { NodeSSH, type Config } from "node-ssh";
import { classifyConnectError, SshError } from "./errors";
import { hostKeyVerifier, type HostKeyVerifier } from "./host-key";
import type { HostTarget } from "./types";

// The only place an SSH connection is configured and opened: the pool and the first-contact key read
// both come through here, so the host-key check (host-key.ts) cannot be left out or done differently.
// A host behind a jump host is reached over `sock`, a channel the pool opened through the jump host
// (pool.ts, jump.ts); the handshake over it is the same, with the host's own key and credentials.

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
// A silent peer is noticed after 3 missed keep-alives (30 s) instead of never.
const KEEPALIVE_INTERVAL_MS = 10_000;
const KEEPALIVE_COUNT_MAX = 3;

/** `name (address:port)`, or `name (address:port through jump)` behind a jump host, for messages. */
export function describeTarget(target: HostTarget): string {
  const host = target.address.includes(":") ? `[${target.address}]` : target.address;
  return `${target.name} (${host}:${target.port}${target.via ? ` through ${target.via.name}` : ""})`;
}

function credentials(target: HostTarget): Partial<Config> {
  const { auth } = target;
  switch (auth.method) {
    case "key":
      // By value: the key never touches the disk.
      return auth.passphrase === undefined
        ? { privateKey: auth.privateKey }
        : { privateKey: auth.privateKey, passphrase: auth.passphrase };
    case "password":
      // Many servers (and Windows) only offer keyboard-interactive for passwords.
      return { password: auth.password, tryKeyboard: true };
    case "local":
      throw new Error(`${target.name} uses the local transport; it has no SSH connection`);
  }
}

/**
 * The node-ssh config of one connection. The verifier runs during key exchange, before any credential
 * is sent; a `read` verifier refuses every key, so its config carries no credentials at all. With
 * `sock` (a channel through the jump host) ssh2 speaks over it instead of opening a TCP connection.
 */
export function sshConnectConfig(
  target: HostTarget,
  verifier: HostKeyVerifier,
  timeoutMs: number,
  sock?: Duplex,
): Config {
  return {
    ...(sock ? { sock } : { host: target.address, port: target.port }),
    username: target.username,
    readyTimeout: timeoutMs,
    keepaliveInterval: KEEPALIVE_INTERVAL_MS,
    keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    hostVerifier: (keyBlob: Buffer) => verifier.verify(keyBlob),
    ...(verifier.policy === "pinned" ? credentials(target) : {}),
  } as Config;
}

// One handshake: a refused host key fails as the verifier's refusal, anything else as classified.
async function handshake(
  target: HostTarget,
  verifier: HostKeyVerifier,
  timeoutMs: number,
  sock: Duplex | undefined,
): Promise<NodeSSH> {
  // Without its channel, a host behind a jump host would be dialled directly: never what was meant.
  if (target.via && !sock)
    throw new Error(`${describeTarget(target)} is reached through a jump host: connect through lib/ssh/pool`);
  const config = sshConnectConfig(target, verifier, timeoutMs, sock);
  const ssh = new NodeSSH();
  let timer: NodeJS.Timeout | undefined;
  try {
    // readyTimeout covers the handshake; this outer timer also covers a connect that never settles.
    await Promise.race([
      ssh.connect(config),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error("timed out"), { level: "client-timeout" })),
          timeoutMs + 2000,
        );
      }),
    ]);
  } catch (error) {
    ssh.dispose();
    sock?.destroy();
    throw (
      verifier.refusal ??
      classifyConnectError(error, {
        host: target.name,
        where: describeTarget(target),
        timeoutMs,
        pinned: target.pinnedFingerprint,
        presented: verifier.presented,
      })
    );
  } finally {
    clearTimeout(timer);
  }
  return ssh;
}

/**
 * Opens an authenticated connection to a host whose key is pinned: another key, or no pinned key,
 * is refused before authentication (HostKeyMismatchError, or an SshError of kind `host-key`).
 */
export async function connectSsh(
  target: HostTarget,
  timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
  sock?: Duplex,
): Promise<{ ssh: NodeSSH; fingerprint: string }> {
  const verifier = hostKeyVerifier(target, "pinned");
  const ssh = await handshake(target, verifier, timeoutMs, sock);
  if (!ssh.connection || verifier.presented === null) {
    ssh.dispose();
    throw new SshError("unknown", `SSH connection to ${describeTarget(target)} closed during the handshake`, {
      host: target.name,
    });
  }
  return { ssh, fingerprint: verifier.presented };
}

/**
 * The host key a host presents, read during key exchange and then refused, so that no credential
 * is ever sent to a host whose key the user has not confirmed yet. Behind a jump host, `sock` is the
 * channel to it (readHostKey of pool.ts opens it).
 */
export async function readPresentedKey(
  target: HostTarget,
  timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
  sock?: Duplex,
): Promise<string> {
  const verifier = hostKeyVerifier(target, "read");
  try {
    (await handshake(target, verifier, timeoutMs, sock)).dispose();
  } catch (error) {
    if (verifier.presented !== null) return verifier.presented;
    throw error;
  }
  throw new Error(`the SSH handshake with ${describeTarget(target)} ended without a host key`);
}
