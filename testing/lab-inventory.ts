import fs from "node:fs";
import type { LabState } from "@/testing/lab-state";
import { createHost } from "@/lib/inventory/hosts";
import { createLink } from "@/lib/inventory/links";
import { createNic } from "@/lib/inventory/nics";

export type LabInventory = {
  hostIds: Record<string, number>;
  nicIds: Record<string, number>;
  linkIds: Record<string, number>;
};

// Unshaped lab links run at whatever the CPU gives (9-10 Gbit/s here): called 10G.
const UNSHAPED_SPEED_MBPS = 10_000;

/**
 * The name ESXi discovery gives a lab NIC on the ESXi stand-in: its VMkernel interface, vmkN, N
 * counting mgmt0 then eth1, eth2… in order, as the stand-in's esxcli does (testing/lab/esxi-standin).
 */
function esxiNicName(host: LabState["hosts"][number], nicName: string): string {
  const order = host.nics
    .map((nic) => nic.name)
    .sort((a, b) =>
      a === "mgmt0" ? -1 : b === "mgmt0" ? 1 : Number(a.replace(/\D/g, "")) - Number(b.replace(/\D/g, "")),
    );
  return `vmk${order.indexOf(nicName)}`;
}

/**
 * Records the lab's hosts (key auth, pinned host keys), NICs and links through the
 * same inventory functions the API calls, as a user would have set them up.
 */
export async function seedLabInventory(state: LabState): Promise<LabInventory> {
  const privateKey = fs.readFileSync(state.clientKeyPath, "utf8");
  const inventory: LabInventory = { hostIds: {}, nicIds: {}, linkIds: {} };
  for (const host of state.hosts) {
    // A host with no sshd is recorded as what it stands for: an iperf3 server at its link's address, or a device.
    const created =
      host.access === "ssh"
        ? await createHost({
            name: host.name,
            address: host.sshHost,
            port: host.sshPort,
            username: host.username,
            auth: { method: "key", privateKey },
            platform: host.flavor === "esxi" ? "esxi" : "linux",
            hostKeyFingerprint: host.hostKeyFingerprint,
            ...(host.reachedThrough ? { jumpHostId: inventory.hostIds[host.reachedThrough] } : {}),
          })
        : await createHost({
            name: host.name,
            access: host.access,
            ...(host.access === "iperf3-server" ? { address: host.nics[0]!.address } : { kind: "phone" }),
          });
    inventory.hostIds[host.name] = created.id;
    for (const nic of host.nics.filter((n) => n.link !== null)) {
      const createdNic = await createNic({
        hostId: created.id,
        name: host.flavor === "esxi" ? esxiNicName(host, nic.name) : nic.name,
        address: `${nic.address}/${nic.prefixLength}`,
        mtu: nic.mtu,
        ...(nic.speedMbps ? { speedMbps: nic.speedMbps } : {}),
      });
      inventory.nicIds[`${host.name}:${nic.name}`] = createdNic.id;
    }
  }
  for (const link of state.links) {
    const created = await createLink({
      name: link.name,
      aNicId: inventory.nicIds[`${link.a.host}:${link.a.nic}`],
      bNicId: inventory.nicIds[`${link.b.host}:${link.b.nic}`],
      speedMbps: link.rateMbps ?? UNSHAPED_SPEED_MBPS,
    });
    inventory.linkIds[link.name] = created.id;
  }
  return inventory;
}
