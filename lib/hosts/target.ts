import "server-only";
import { AppError, type AppErrorOptions } from "@/lib/errors";
import type { Host } from "@/lib/generated/prisma/client";
import { MAX_JUMP_HOPS } from "@/lib/inventory/schemas";
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
 * Refuses (409) what only a host Wirespeed logs in to can do (a check, NIC discovery, a connection)
 * for an iperf3 server or a device, which have no SSH.
 */
export function requireLoggedIn(host: { name: string; access: string }): void {
  if (host.access === "ssh") return;
  throw new AppError(
    "conflict",
    `${host.name} is ${host.access === "device" ? "a device" : "an iperf3 server"}: Wirespeed does not log in to it`,
    {
      hint:
        host.access === "device"
          ? "Enter its NICs by hand, link one to a host Wirespeed logs in to, and listen for the device on the link's page."
          : "Enter its NICs by hand and link one to a host Wirespeed logs in to: runs start the client there.",
    },
  );
}

// One hop of a chain: the host with its secret (its own credentials), and the next hop's, if any.
const HOP = { omit: { secret: false } } as const;

/**
 * What a query selects of a host to build its target: every column with its secret, and its jump
 * hosts' (lib/inventory/jumps.ts) as far as a chain goes (MAX_JUMP_HOPS, 3), each with its own
 * secret. `hostTarget` takes a host read with it.
 */
export const HOST_FOR_TARGET = {
  ...HOP,
  include: { jumpHost: { ...HOP, include: { jumpHost: { ...HOP, include: { jumpHost: HOP } } } } },
} as const;

/** A stored host with its secret and, as deep as it was read, its jump hosts (HOST_FOR_TARGET). */
export type HostWithJumps = Host & { jumpHost?: HostWithJumps | null };

/**
 * The one way from a stored host (read with HOST_FOR_TARGET) to what lib/ssh connects to, its jump
 * hosts as `via`, each with its own credentials and pinned key. Unless `allowUnpinned` (the
 * first-contact check, which reads the key of the host itself), a host whose key is not pinned is
 * refused before any connection is made; a jump host always is, naming it.
 */
export function hostTarget(
  host: HostWithJumps,
  { allowUnpinned = false }: { allowUnpinned?: boolean } = {},
): HostTarget {
  return targetOf(host, allowUnpinned, [host.name]);
}

// `chain`: the names from the host the user asked for to this hop, for messages and the depth bound.
function targetOf(host: HostWithJumps, allowUnpinned: boolean, chain: string[]): HostTarget {
  requireLoggedIn(host);
  const jumpOf = chain.length > 1 ? ` (the jump host of ${chain[chain.length - 2]})` : "";
  if (host.authMethod !== "local" && !host.hostKeyFingerprint && !allowUnpinned)
    throw new HostKeyNotConfirmedError(
      `the SSH host key of ${host.name}${jumpOf} is not confirmed yet: check the host, compare the fingerprint it shows with the host's own, and pin it`,
    );
  const auth: HostAuth =
    host.authMethod === "local"
      ? { method: "local" }
      : ({ method: host.authMethod, ...(host.secret ? openSecret(host.secret) : {}) } as HostAuth);
  const target: HostTarget = {
    name: host.name,
    address: host.address,
    port: host.sshPort,
    username: host.username,
    auth,
    pinnedFingerprint: host.hostKeyFingerprint,
  };
  if (host.jumpHostId === null) return target;
  // lib/inventory/jumps.ts keeps stored chains within these bounds; a query that read less is a bug here.
  const jump = host.jumpHost;
  if (!jump || jump.id !== host.jumpHostId)
    throw new Error(
      `${host.name} is reached through host ${host.jumpHostId}, which was not read: read it with HOST_FOR_TARGET`,
    );
  if (chain.length > MAX_JUMP_HOPS || chain.includes(jump.name))
    throw new Error(
      `the jump hosts of ${chain[0]} make a loop or a chain longer than ${MAX_JUMP_HOPS}: ${[...chain, jump.name].join(" → ")}`,
    );
  if (host.authMethod === "local" || jump.authMethod === "local")
    throw new Error(`${jump.name} cannot be a jump host of ${host.name}: this machine is not reached over SSH`);
  return { ...target, via: targetOf(jump, false, [...chain, jump.name]) };
}
