import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { invalidInput } from "@/lib/errors";
import { InventoryError } from "@/lib/inventory/errors";
import { MAX_JUMP_HOPS } from "@/lib/inventory/schemas";

// Jump hosts: a host reached through another (as OpenSSH's ProxyJump), in chains of up to
// MAX_JUMP_HOPS hops. The rules a chain keeps are checked here, for the API and the forms alike.

/** A host's jump hosts, the first hop (the one Wirespeed connects to) first. */
export type JumpChain = { id: number; name: string }[];

/** The select of a host's jump host, its jump host's, and so on, as deep as a chain may go. */
export const JUMP_CHAIN_SELECT = {
  select: {
    id: true,
    name: true,
    jumpHost: { select: { id: true, name: true, jumpHost: { select: { id: true, name: true } } } },
  },
} as const satisfies { select: Prisma.HostSelect };

type ChainRow = { id: number; name: string; jumpHost?: ChainRow | null } | null;

/** The chain of a host read with JUMP_CHAIN_SELECT: the hop Wirespeed connects to first. */
export function jumpChainOf(jumpHost: ChainRow): JumpChain {
  const outward: JumpChain = [];
  for (let hop = jumpHost; hop; hop = hop.jumpHost ?? null) outward.push({ id: hop.id, name: hop.name });
  return outward.reverse();
}

type Tx = Pick<typeof db, "host">;

/** How deep the hosts reached through `hostId` go below it: 0 when none jumps through it. */
async function depthBelow(hostId: number, tx: Tx): Promise<number> {
  let depth = 0;
  let level = [hostId];
  // A stored chain is never longer than MAX_JUMP_HOPS; the bound also stops a loop made by hand in the database.
  while (level.length > 0 && depth <= MAX_JUMP_HOPS) {
    const below = await tx.host.findMany({ where: { jumpHostId: { in: level } }, select: { id: true } });
    if (below.length === 0) break;
    depth += 1;
    level = below.map((row) => row.id);
  }
  return depth;
}

const jumpProblem = (message: string) => invalidInput([{ field: "jumpHostId", message }]);

/**
 * Refuses (400 naming `jumpHostId`) a jump host that does not exist, is this machine or not reached
 * over SSH, makes a loop, or makes a chain (this host's, or a host's reached through this one)
 * longer than MAX_JUMP_HOPS. `hostId` is the host being changed, null for a new one.
 */
export async function checkJumpHost(hostId: number | null, jumpHostId: number, tx: Tx = db): Promise<void> {
  const seen = new Set<number>(hostId === null ? [] : [hostId]);
  let hops = 0;
  for (let id: number | null = jumpHostId; id !== null;) {
    if (seen.has(id)) throw jumpProblem(`must not make a loop: host ${id} is already reached through this host`);
    seen.add(id);
    const hop: { id: number; name: string; access: string; authMethod: string; jumpHostId: number | null } | null =
      await tx.host.findUnique({
        where: { id },
        select: { id: true, name: true, access: true, authMethod: true, jumpHostId: true },
      });
    if (!hop) throw jumpProblem(`must be the id of a host: no host has id ${id}`);
    if (hop.authMethod === "local")
      throw jumpProblem(`must be a host reached over SSH: ${hop.name} is this machine (auth local)`);
    if (hop.access !== "ssh")
      throw jumpProblem(`must be a host reached over SSH: ${hop.name} is an ${hop.access} host`);
    hops += 1;
    id = hop.jumpHostId;
  }
  const below = hostId === null ? 0 : await depthBelow(hostId, tx);
  if (hops + below > MAX_JUMP_HOPS)
    throw jumpProblem(
      `must make a chain of at most ${MAX_JUMP_HOPS} jump hosts: this one makes ${hops + below}` +
        (below > 0 ? ` for a host reached through this one` : ""),
    );
}

/**
 * Refuses (409, or 400 naming `field`) to delete a host, or to make it one no SSH goes through, while
 * others are reached through it, naming them.
 */
export async function checkNotJumpedThrough(hostId: number, field: string | null, tx: Tx = db): Promise<void> {
  const behind = await tx.host.findMany({
    where: { jumpHostId: hostId },
    select: { name: true },
    orderBy: { name: "asc" },
  });
  if (behind.length === 0) return;
  const names = behind.map((row) => row.name).join(", ");
  const [verb, their] = behind.length === 1 ? ["is", "its"] : ["are", "their"];
  const message = `${names} ${verb} reached through this host: change ${their} Reach through first`;
  if (field === null) throw new InventoryError("conflict", message, { fields: [{ field: "jumpHostId", message }] });
  throw invalidInput([{ field, message: `cannot be local while ${message}` }]);
}
