import "server-only";
import { NodeSSH, type Config } from "node-ssh";
import { classifyConnectError } from "./errors";
import { sshFingerprint } from "./fingerprint";
import { DEFAULT_CONNECT_TIMEOUT_MS, describeTarget } from "./pool";
import type { HostTarget } from "./types";

/**
 * The host key a host presents, read during key exchange and then refused, so that
 * no credential is ever sent to a host whose key the user has not confirmed yet.
 */
export async function readHostKey(target: HostTarget, timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): Promise<string> {
  let presented: string | null = null;
  const ssh = new NodeSSH();
  const config: Config = {
    host: target.address,
    port: target.port,
    username: target.username,
    readyTimeout: timeoutMs,
    hostVerifier: (keyBlob: Buffer) => {
      presented = sshFingerprint(keyBlob);
      return false;
    },
  } as Config;
  try {
    await ssh.connect(config);
  } catch (error) {
    if (presented !== null) return presented;
    throw classifyConnectError(error, { host: target.name, where: describeTarget(target), timeoutMs, pinned: null, presented: null });
  } finally {
    ssh.dispose();
  }
  throw new Error(`the SSH handshake with ${describeTarget(target)} ended without a host key`);
}
