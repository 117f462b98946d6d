// Form text to the values the inventory takes, and a host's values as the pages write them. Pure: the
// server's schemas judge what a form sends.
import { MAX_JUMP_HOPS, type DeviceKind, type HostAccess } from "@/lib/inventory/schemas";

/** "22" → 22; anything else goes as typed, so the server's message names what is allowed. */
export function wholeNumberOrText(text: string): number | string {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
}

type TargetHost = {
  isLocal: boolean;
  username: string;
  address: string;
  port: number;
  access?: string;
  iperfPortMin?: number;
  iperfPortMax?: number;
};

/**
 * Where Wirespeed reaches a host, as the host lists write it: "local", user@address:port for SSH, the
 * address and its iperf3 ports for an iperf3 server, and a device's address (or that it has none).
 */
export function sshTarget(host: TargetHost): string {
  if (host.access === "iperf3-server") {
    const ports =
      host.iperfPortMin === undefined || host.iperfPortMin === host.iperfPortMax
        ? `${host.iperfPortMin ?? ""}`
        : `${host.iperfPortMin}-${host.iperfPortMax}`;
    return ports ? `${host.address}:${ports}` : host.address;
  }
  if (host.access === "device") return host.address || "no address";
  return host.isLocal ? "local" : `${host.username}@${host.address}:${host.port}`;
}

/** The access choices of the add-host form, in its order, with what each means. */
export const ACCESS_CHOICES: { access: HostAccess; label: string; detail: string }[] = [
  { access: "ssh", label: "SSH", detail: "Wirespeed logs in" },
  { access: "iperf3-server", label: "iperf3 server", detail: "an appliance or a public server, no login" },
  { access: "device", label: "Device", detail: "phone, TV, laptop: no SSH" },
];

export const DEVICE_KIND_LABELS: Record<DeviceKind, string> = {
  phone: "phone",
  tablet: "tablet",
  laptop: "laptop",
  tv: "TV",
  console: "game console",
  other: "other",
};

/** A host's access as the pages write it: "SSH", "This machine", "iperf3 server", "Device: phone". */
export function accessLabel(host: { access: string; kind: string | null; isLocal?: boolean }): string {
  if (host.access === "iperf3-server") return "iperf3 server";
  if (host.access === "device")
    return `Device: ${DEVICE_KIND_LABELS[(host.kind ?? "other") as DeviceKind] ?? host.kind ?? "other"}`;
  return host.isLocal ? "This machine" : "SSH";
}

/** A host's jump chain and the host itself, as a "Reach through" option says it: "bastion → gamma". */
export function chainLabel(host: { name: string; jumpChain: { name: string }[] }): string {
  return [...host.jumpChain.map((hop) => hop.name), host.name].join(" → ");
}

export type JumpOption = { id: number; label: string };

type JumpCandidate = {
  id: number;
  name: string;
  access: string;
  isLocal: boolean;
  jumpChain: { id: number; name: string }[];
};

/**
 * The hosts a host may be reached through: SSH hosts other than this machine, not the host itself
 * nor one reached through it (a loop), and none whose own chain leaves no hop to spare. The server
 * checks the same (and the hosts below the edited one), and says so on the field.
 */
export function jumpOptionsFor(hosts: readonly JumpCandidate[], hostId: number | null = null): JumpOption[] {
  return hosts
    .filter(
      (host) =>
        host.access === "ssh" &&
        !host.isLocal &&
        host.id !== hostId &&
        !host.jumpChain.some((hop) => hop.id === hostId) &&
        host.jumpChain.length < MAX_JUMP_HOPS,
    )
    .map((host) => ({ id: host.id, label: chainLabel(host) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** "rack1, lab-vlan  10g" → ["rack1", "lab-vlan", "10g"]: tags as typed, split at commas and spaces; the server judges each. */
export function tagsFromText(text: string): string[] {
  return text.split(/[\s,]+/).filter((tag) => tag !== "");
}

/** A refused tag (`tags.2`) shows on the Tags field, naming the tag. */
export function placeTagError(error: { field: string; message: string }, tags: readonly string[]) {
  const match = /^tags\.(\d+)$/.exec(error.field);
  if (!match) return error;
  const tag = tags[Number(match[1])];
  return { field: "tags", message: tag === undefined ? error.message : `"${tag}" ${error.message}` };
}
