import "server-only";
import type { DiscoveredNic } from "@/agents";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { InventoryError } from "@/lib/inventory/errors";
import { listNics, type NicView } from "@/lib/inventory/nics";
import { execCapture } from "@/lib/ssh";
import { resolveAgent } from "./remote";
import { HOST_FOR_TARGET, hostTarget } from "./target";
import { recordAudit } from "@/lib/auth/audit";

const DISCOVER_TIMEOUT_MS = 30_000;

/** What discovery knows of a NIC, as columns; a NIC it finds again keeps what the user typed where the OS says nothing. */
export function nicColumns(nic: DiscoveredNic): Omit<Prisma.NicUncheckedCreateInput, "hostId" | "name"> {
  return {
    mac: nic.mac,
    mtu: nic.mtu,
    ...(nic.speedMbps !== null ? { speedMbps: nic.speedMbps } : {}),
    addresses: nic.addresses.map((address) => `${address.address}/${address.prefixLength}`),
    ...(nic.driver !== null ? { driver: nic.driver } : {}),
    ...(nic.description !== null ? { model: nic.description } : {}),
    pcieLinkSpeed: nic.pcieLinkSpeed,
    pcieLinkWidth: nic.pcieLinkWidth,
  };
}

/**
 * Reads the host's NICs through its platform agent and creates or updates them by
 * name. NICs the host no longer reports are left alone: links and history may use them.
 */
export async function discoverNics(hostId: number): Promise<NicView[]> {
  const host = await db.host.findUnique({ where: { id: hostId }, ...HOST_FOR_TARGET });
  if (!host) throw new InventoryError("not-found", `no host has id ${hostId}`);
  const target = hostTarget(host);
  const agent = await resolveAgent(target, host.platform);
  const output = await execCapture(target, agent.discoverNicsCommand(), { timeoutMs: DISCOVER_TIMEOUT_MS });
  if (output.exitCode !== 0) {
    throw new Error(
      `NIC discovery on ${host.name} failed (exit ${output.exitCode}): ${output.stderr.trim().split("\n").at(-1) ?? ""}`,
    );
  }
  const found = agent.parseNics(output.stdout);
  await db.$transaction(
    found.map((nic) =>
      db.nic.upsert({
        where: { hostId_name: { hostId, name: nic.name } },
        create: { hostId, name: nic.name, ...nicColumns(nic) },
        update: nicColumns(nic),
      }),
    ),
  );
  await db.host.update({ where: { id: hostId }, data: { platform: agent.platform, lastSeenAt: new Date() } });
  await recordAudit(
    "nic.discover",
    "host",
    hostId,
    `${host.name}: ${found.map((nic) => nic.name).join(", ") || "no NICs"}`,
  );
  return listNics({ hostId });
}
