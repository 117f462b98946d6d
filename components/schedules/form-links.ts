// The links as the experiment and schedule forms know them (FormLink): each end's host, its
// iperf3 version (options it lacks are disabled) and port range. Pure: the pages hand in what
// lib/runs/link-reads.ts read.
import type { FormLink } from "@/components/experiments/form/fields";

type LinkRow = {
  id: number;
  name: string;
  speedMbps: number;
  a: { host: { id: number; name: string } };
  b: { host: { id: number; name: string } };
};
type HostRow = { id: number; iperf3Version: string | null; iperfPortMin: number; iperfPortMax: number };

export function formLinksOf(links: readonly LinkRow[], hosts: readonly HostRow[]): FormLink[] {
  const hostById = new Map(hosts.map((host) => [host.id, host]));
  const endOf = (end: LinkRow["a"]) => {
    const host = hostById.get(end.host.id);
    return {
      hostName: end.host.name,
      iperf3Version: host?.iperf3Version ?? null,
      portMin: host?.iperfPortMin ?? 0,
      portMax: host?.iperfPortMax ?? 0,
    };
  };
  return links.map((link) => ({
    id: link.id,
    name: link.name,
    speedMbps: link.speedMbps,
    a: endOf(link.a),
    b: endOf(link.b),
  }));
}
