"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions/action";
import { discoverNics } from "@/lib/hosts/discover";
import { parseInput } from "@/lib/errors";
import { IdSchema } from "@/lib/inventory/schemas";

const DiscoverNicsInputSchema = IdSchema;

// SSH errors carry a kind but no hint of their own: say what to do about each.
const SSH_HINTS: Record<string, string> = {
  "host-key": "Check the connection first and confirm the host's key fingerprint.",
  auth: "Check the user name and the key or password (Edit host, new credentials).",
  unreachable: "Check that the host is up, that sshd runs there, and its address and SSH port.",
  timeout: "The host did not answer in time: check the network path and that sshd runs.",
  "connection-lost": "The SSH connection dropped: try again.",
};

/** Reads the host's NICs over SSH and records them by name; answers how many it found. */
export async function discoverNicsAction(hostId: unknown): Promise<ActionResult<{ count: number; names: string[] }>> {
  return runAction("discover-nics", "inventory", async () => {
    const id = parseInput(DiscoverNicsInputSchema, hostId, "hostId");
    try {
      const nics = await discoverNics(id);
      return { count: nics.length, names: nics.map((nic) => nic.name) };
    } catch (error) {
      const kind = (error as { kind?: unknown }).kind;
      if (error instanceof Error && typeof kind === "string" && !("hint" in error) && SSH_HINTS[kind]) {
        Object.assign(error, { hint: SSH_HINTS[kind] });
      }
      throw error;
    } finally {
      revalidatePath(`/hosts/${id}`);
      revalidatePath("/hosts");
      revalidatePath("/links/new");
    }
  });
}
