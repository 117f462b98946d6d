import "server-only";
import { AppError, type AppErrorOptions } from "@/lib/errors";
import type { Host } from "@/lib/generated/prisma/client";
import { openSecret } from "@/lib/inventory/secrets";
import type { HostAuth, HostTarget } from "@/lib/ssh/types";

/** A host key not yet confirmed by a user: nothing but the check may connect. */
export class HostKeyNotConfirmedError extends AppError {
  static override readonly errorName: string = "HostKeyNotConfirmedError";
  constructor(
    message: string,
    {
      hint = "Test the connection on the host's page and confirm the fingerprint it shows.",
      ...options
    }: AppErrorOptions = {},
  ) {
    super("host-key", message, { hint, ...options });
  }
}

/**
 * What a query selects of a host to build its target: every column with its secret, and its jump
 * hosts' (lib/inventory/jumps.ts) as far as a chain goes. `hostTarget` takes a host read with it.
 */
export const HOST_FOR_TARGET = { omit: { secret: false } } as const;

/**
 * The one way from a stored host (read with `omit: { secret: false }`) to what lib/ssh
 * connects to. Unless `allowUnpinned` (the first-contact check), a host whose key is
 * not pinned is refused before any connection is made.
 */
export function hostTarget(host: Host, { allowUnpinned = false }: { allowUnpinned?: boolean } = {}): HostTarget {
  if (host.authMethod !== "local" && !host.hostKeyFingerprint && !allowUnpinned)
    throw new HostKeyNotConfirmedError(
      `the SSH host key of ${host.name} is not confirmed yet: check the host, compare the fingerprint it shows with the host's own, and pin it`,
    );
  const auth: HostAuth =
    host.authMethod === "local"
      ? { method: "local" }
      : ({ method: host.authMethod, ...(host.secret ? openSecret(host.secret) : {}) } as HostAuth);
  return {
    name: host.name,
    address: host.address,
    port: host.sshPort,
    username: host.username,
    auth,
    pinnedFingerprint: host.hostKeyFingerprint,
  };
}
