import { classifyIperfError, IperfOptionError, type IperfPlatform } from "@/lib/iperf";
import { HostKeyNotConfirmedError } from "@/lib/hosts/target";

/** A run failure with the kind, message and hint the user sees (same shape as lib/iperf's errors). */
export class RunError extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly hint = "",
  ) {
    super(message);
    this.name = "RunError";
  }
}

/**
 * Why a run failed, as stored and shown: iperf3's own kinds (lib/iperf) plus the SSH
 * ones (`host-key`, `auth`, `unreachable`, `connection-lost`) and the engine's.
 */
export type RunFailure = { kind: string; message: string; hint: string };

/** What the user sees of anything a run threw: a known error keeps its kind and hint; iperf3's own text is classified. */
export function runFailureOf(error: unknown, platform: IperfPlatform): RunFailure {
  if (error instanceof RunError) return { kind: error.kind, message: error.message, hint: error.hint };
  if (error instanceof IperfOptionError) return { kind: "parameter", message: error.message, hint: "Choose options this host's iperf3 supports, or upgrade iperf3 there." };
  const { kind, hint } = (error ?? {}) as { kind?: unknown; hint?: unknown };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof HostKeyNotConfirmedError) {
    return { kind: "host-key", message, hint: "Test the connection on the host's page and confirm the fingerprint it shows." };
  }
  if (typeof kind === "string") return { kind, message, hint: typeof hint === "string" ? hint : sshHint(kind) };
  return classifyIperfError(message, platform);
}

function sshHint(kind: string): string {
  switch (kind) {
    case "host-key":
      return "The host presented another SSH host key than the one pinned. If it was reinstalled, re-pin its key on the host's page.";
    case "auth":
      return "Check the host's user name and credentials.";
    case "unreachable":
      return "Check that the host is up, that sshd runs there and that its address and SSH port are right.";
    case "timeout":
      return "The host did not answer in time: check the network path and that sshd runs.";
    case "connection-lost":
      return "The SSH connection dropped during the run; the samples received so far are kept.";
    default:
      return "";
  }
}

