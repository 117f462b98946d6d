import "server-only";
import { db } from "@/lib/db";
import { listLinks as listInventoryLinks, type LinkView } from "@/lib/inventory/links";
import { listNics } from "@/lib/inventory/nics";

export type LinkListItem = LinkView;

/** Every link with the hosts and NICs at both ends. */
export async function listLinks(): Promise<LinkListItem[]> {
  return listInventoryLinks();
}

export type LinkableNic = Awaited<ReturnType<typeof listLinkableNics>>[number];

/**
 * Every NIC a link could join, with its host's name and the NIC ids it is already
 * linked to (so the form does not suggest a pair that exists).
 */
export async function listLinkableNics() {
  const [nics, links] = await Promise.all([listNics(), db.link.findMany({ select: { aNicId: true, bNicId: true } })]);
  const linkedTo = new Map<number, number[]>();
  for (const link of links) {
    linkedTo.set(link.aNicId, [...(linkedTo.get(link.aNicId) ?? []), link.bNicId]);
    linkedTo.set(link.bNicId, [...(linkedTo.get(link.bNicId) ?? []), link.aNicId]);
  }
  return nics
    .map((nic) => ({
      id: nic.id,
      name: nic.name,
      host: nic.host,
      addresses: nic.addresses,
      speedMbps: nic.speedMbps,
      mtu: nic.mtu,
      model: nic.model,
      linkedNicIds: linkedTo.get(nic.id) ?? [],
    }))
    .sort((a, b) => a.host.name.localeCompare(b.host.name) || a.name.localeCompare(b.name, undefined, { numeric: true }));
}
