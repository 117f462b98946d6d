import "server-only";
import { listHosts as listInventoryHosts } from "@/lib/inventory/hosts";

export type HostListItem = Awaited<ReturnType<typeof listHosts>>[number];

/** Every host, this machine first, then by name. */
export async function listHosts() {
  const hosts = await listInventoryHosts();
  return hosts
    .map((host) => ({ ...host, isLocal: host.authMethod === "local" }))
    .sort((a, b) => Number(b.isLocal) - Number(a.isLocal) || a.name.localeCompare(b.name));
}
