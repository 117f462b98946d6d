import "server-only";
import { NodeSSH, type Config } from "node-ssh";
import { classifyConnectError, SshError } from "./errors";
import { hostKeyVerifier, type HostKeyVerifier } from "./host-key";
import type { HostTarget } from "./types";

// The only place an SSH connection is configured and opened: the pool and the first-contact key read
// both come through here, so the host-key check (host-key.ts) cannot be left out or done differently.

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
// A silent peer is noticed after 3 missed keep-alives (30 s) instead of never.
const KEEPALIVE_INTERVAL_MS = 10_000;
const KEEPALIVE_COUNT_MAX = 3;

/** `name (address:port)`, for messages. */
export function describeTarget(target: HostTarget): string {
  const host = target.address.includes(":") ? `[${target.address}]` : target.address;
  return `${target.name} (${host}:${target.port})`;
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
 * is sent; a `read` verifier refuses every key, so its config carries no credentials at all.
 */
export function sshConnectConfig(target: HostTarget, verifier: HostKeyVerifier, timeoutMs: number): Config {
  return {
    host: target.address,
    port: target.port,
    username: target.username,
    readyTimeout: timeoutMs,
    keepaliveInterval: KEEPALIVE_INTERVAL_MS,
    keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    hostVerifier: (keyBlob: Buffer) => verifier.verify(keyBlob),
    ...(verifier.policy === "pinned" ? credentials(target) : {}),
  } as Config;
}

// One handshake: a refused host key fails as the verifier's refusal, anything else as classified.
async function handshake(target: HostTarget, verifier: HostKeyVerifier, timeoutMs: number): Promise<NodeSSH> {
  const config = sshConnectConfig(target, verifier, timeoutMs);
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
): Promise<{ ssh: NodeSSH; fingerprint: string }> {
  const verifier = hostKeyVerifier(target, "pinned");
  const ssh = await handshake(target, verifier, timeoutMs);
  if (!ssh.connection || verifier.presented === null) {
    ssh.dispose();
    throw new SshError("unknown", `SSH connection to ${describeTarget(target)} closed during the handshake`, {
      host: target.name,
    });
  }
  return { ssh, fingerprint: verifier.presented };
}

/**
 * The host key a host presents, read during key exchange and then refused, so that
 * no credential is ever sent to a host whose key the user has not confirmed yet.
 */
export async function readHostKey(target: HostTarget, timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): Promise<string> {
  const verifier = hostKeyVerifier(target, "read");
  try {
    (await handshake(target, verifier, timeoutMs)).dispose();
  } catch (error) {
    if (verifier.presented !== null) return verifier.presented;
    throw error;
  }
  throw new Error(`the SSH handshake with ${describeTarget(target)} ended without a host key`);
}
