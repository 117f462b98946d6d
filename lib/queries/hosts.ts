import "server-only";
import { db } from "@/lib/db";

export type HostListItem = Awaited<ReturnType<typeof listHosts>>[number];

/** Every host with its NIC count, local machine first, then by name. */
export async function listHosts() {
  const hosts = await db.host.findMany({
    orderBy: [{ name: "asc" }],
    select: {
      id: true,
      name: true,
      address: true,
      sshPort: true,
      username: true,
      authMethod: true,
      platform: true,
      iperf3Version: true,
      lastSeenAt: true,
      _count: { select: { nics: true } },
    },
  });
  return hosts
    .map((host) => ({ ...host, isLocal: host.authMethod === "local", nicCount: host._count.nics }))
    .sort((a, b) => Number(b.isLocal) - Number(a.isLocal));
}
