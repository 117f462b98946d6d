import "server-only";
import type { Duplex } from "node:stream";
import { describeTarget } from "./connect";
import { classifyForwardError, SshConnectionLostError, SshTimeoutError } from "./errors";
import type { SshConnection } from "./pool";
import type { HostTarget } from "./types";

// A host behind a jump host, as OpenSSH's ProxyJump reaches it: the jump host's own (pooled, pinned)
// connection opens a direct-tcpip channel to the host's sshd, and the host's handshake runs over that
// channel. The jump host sees the TCP connection; only the two ends see what goes through it.

// ProxyJump's originator: the channel is not a forward of any local socket.
const ORIGINATOR_ADDRESS = "127.0.0.1";
const ORIGINATOR_PORT = 0;

/**
 * A channel from `jump` (the pooled connection to `target.via`) to `target`'s sshd. A jump host that
 * cannot reach the host fails as `unreachable` naming the host; one that refuses to forward (its sshd's
 * AllowTcpForwarding) names the jump host; no answer within `timeoutMs` is a `timeout` naming the host.
 */
export function openTunnel(jump: SshConnection, target: HostTarget, timeoutMs: number): Promise<Duplex> {
  // Named as the jump host sees it: `hidden (198.19.4.2:22)`, without "through" the jump host again.
  const direct: HostTarget = { ...target, via: undefined };
  return new Promise<Duplex>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      reject(
        new SshTimeoutError(
          `the jump host ${jump.hostName} opened no connection to ${describeTarget(direct)} within ${timeoutMs} ms`,
          {
            host: target.name,
          },
        ),
      );
    }, timeoutMs);
    const opened = (err: Error | undefined, stream: Duplex) => {
      clearTimeout(timer);
      if (settled) {
        // Opened after the timeout: nobody waits for it any more.
        stream?.destroy();
        return;
      }
      settled = true;
      if (!err) return resolve(stream);
      reject(
        jump.isClosed()
          ? lostJump(jump, target, err)
          : classifyForwardError(err, { host: target.name, where: describeTarget(direct), jump: jump.hostName }),
      );
    };
    try {
      jump.client.forwardOut(ORIGINATOR_ADDRESS, ORIGINATOR_PORT, target.address, target.port, opened);
    } catch (err) {
      // ssh2 throws "Not connected" when the jump connection has just gone.
      clearTimeout(timer);
      settled = true;
      reject(lostJump(jump, target, err));
    }
  });
}

function lostJump(jump: SshConnection, target: HostTarget, cause: unknown): SshConnectionLostError {
  return new SshConnectionLostError(
    `the connection to the jump host ${jump.where} closed while reaching ${target.name} through it`,
    { host: jump.hostName, cause },
  );
}
