import "server-only";
import os from "node:os";
import { db } from "@/lib/db";
import { platformOfNode } from "@/lib/platforms";

/**
 * Records the machine Wirespeed runs on as a host with the local transport, once:
 * the first screen then lists a real host, and tests can run from it without SSH.
 */
export async function ensureLocalHost(): Promise<void> {
  const existing = await db.host.findFirst({ where: { authMethod: "local" }, select: { id: true } });
  if (existing) return;
  const hostname = os.hostname() || "localhost";
  const taken = await db.host.findUnique({ where: { name: hostname }, select: { id: true } });
  try {
    await db.host.create({
      data: {
        name: taken ? `${hostname} (local)` : hostname,
        address: "localhost",
        sshPort: 22,
        username: os.userInfo().username,
        authMethod: "local",
        platform: platformOfNode(process.platform),
        notes: "The machine Wirespeed runs on: commands run here directly, without SSH.",
      },
    });
  } catch (error) {
    // Two server processes starting at once: the other one created it.
    const created = await db.host.findFirst({ where: { authMethod: "local" }, select: { id: true } });
    if (!created) throw error;
  }
}
