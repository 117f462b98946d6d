"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { runAction, type ActionResult } from "@/lib/action";
import { AppError, parseInput, type AppErrorKind } from "@/lib/errors";
import { discoverNics } from "@/lib/hosts/discover";
import { IdSchema } from "@/lib/inventory/schemas";

const DiscoverNicsSchema = z.strictObject({ hostId: IdSchema });

// SSH errors carry a kind but no hint of their own: say what to do about each.
const SSH_HINTS: Partial<Record<AppErrorKind, string>> = {
  "host-key": "Check the connection first and confirm the host's key fingerprint.",
  auth: "Check the user name and the key or password (Edit host, new credentials).",
  unreachable: "Check that the host is up, that sshd runs there, and its address and SSH port.",
  timeout: "The host did not answer in time: check the network path and that sshd runs.",
  "connection-lost": "The SSH connection dropped: try again.",
};

/** Reads the host's NICs over SSH and records them by name; answers how many it found. */
export async function discoverNicsAction(
  input: z.input<typeof DiscoverNicsSchema>,
): Promise<ActionResult<{ count: number; names: string[] }>> {
  return runAction("discover-nics", "inventory", async () => {
    const { hostId } = parseInput(DiscoverNicsSchema, input);
    try {
      const nics = await discoverNics(hostId);
      return { count: nics.length, names: nics.map((nic) => nic.name) };
    } catch (error) {
      if (error instanceof AppError && !error.hint && SSH_HINTS[error.kind]) {
        throw new AppError(error.kind, error.message, { hint: SSH_HINTS[error.kind], cause: error });
      }
      throw error;
    } finally {
      revalidatePath(`/hosts/${hostId}`);
      revalidatePath("/hosts");
      revalidatePath("/links/new");
    }
  });
}
