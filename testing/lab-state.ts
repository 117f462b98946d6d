/**
 * What the test lab is made of: the topology it is built from (testing/lab/topology.json) and the
 * state `labUp()` writes to lab.json, which lab tests, specs and benchmarks read. Types and the
 * lists they are made of only, so that importing them never loads the script that builds the lab.
 */

export const LAB_RATES = ["1gbit", "2.5gbit", "5gbit", "10gbit"] as const;
export type LabRate = (typeof LAB_RATES)[number];

export const LAB_FLAVORS = ["linux", "esxi"] as const;
export type LabFlavor = (typeof LAB_FLAVORS)[number];
/**
 * How Wirespeed reaches a lab host, as a host's `access` in the inventory: "ssh" (its own sshd), or
 * "iperf3-server" and "device", namespaces with no sshd at all (a test runs iperf3 in them itself).
 */
export const LAB_ACCESS = ["ssh", "iperf3-server", "device"] as const;
export type LabAccess = (typeof LAB_ACCESS)[number];
/**
 * flavor "esxi": the host's sshd runs every command in BusyBox ash with an ESXi stand-in mounted (esxi-standin/).
 * reachedThrough: the host's management network joins only that host's namespace, not this machine,
 * so SSH reaches it only through that host (a jump host).
 */
export type LabTopologyHost = { name: string; flavor?: LabFlavor; access?: LabAccess; reachedThrough?: string };
/**
 * flowCapMbit: each TCP flow is held to this many Mbit/s below the link's rate (a u32 hash of the
 * ephemeral port into htb classes). bottleneck: the link's egress also passes that shared ifb.
 */
export type LabTopologyLink = {
  name: string;
  a: string;
  b: string;
  rate: LabRate | null;
  mtu: number;
  flowCapMbit?: number;
  bottleneck?: string;
  /**
   * Another link between the same two hosts: a /32 route on each end sends the traffic to this link's
   * peer address over that one, as a route or a second address sends a test over a management port.
   */
  routedVia?: string;
};
/** A rate that every link naming it shares, on top of each link's own: "1.2gbit", "800mbit". */
export type LabTopologyBottleneck = { name: string; rate: string };
export type LabTopology = { hosts: LabTopologyHost[]; links: LabTopologyLink[]; bottlenecks: LabTopologyBottleneck[] };

export type LabNic = {
  name: string;
  address: string;
  prefixLength: number;
  mtu: number;
  mac: string;
  /** The link's shaped rate in Mb/s; null when unshaped or for mgmt0. */
  speedMbps: number | null;
  /** The link's name; null for the management NIC mgmt0. */
  link: string | null;
};

export type LabHost = {
  name: string;
  flavor: LabFlavor;
  /** "ssh", or a host with no sshd ("iperf3-server", "device"), whose SSH fields are empty. */
  access: LabAccess;
  /** The lab host whose namespace alone reaches this one's sshd; null when this machine reaches it. */
  reachedThrough: string | null;
  netns: string;
  sshHost: string;
  sshPort: number;
  username: string;
  hostKeyFingerprint: string;
  hostKeyPath: string;
  sshdPidFile: string;
  nics: LabNic[];
};

export type LabLinkEnd = { host: string; nic: string; address: string };
export type LabLink = {
  name: string;
  rateMbps: number | null;
  mtu: number;
  a: LabLinkEnd;
  b: LabLinkEnd;
  /** Each TCP flow's cap in Mb/s, in both directions; null when one flow may fill the link. */
  flowCapMbps: number | null;
  /** The name of the bottleneck (state.bottlenecks) this link shares with others; null when it has none. */
  bottleneck: string | null;
  /** The link its peer addresses are routed over (LabTopologyLink.routedVia); null when its traffic takes it. */
  routedVia: string | null;
};

/**
 * One ifb device of the same name in the a host's and in the b host's namespace; every link of the
 * bottleneck redirects its egress there, so both directions share `rateMbps`.
 */
export type LabBottleneck = { name: string; rateMbps: number; ifb: string; a: string; b: string; links: string[] };

export type LabState = {
  /** WIRESPEED_LAB_INSTANCE this lab was built with */
  instance: number;
  dir: string;
  clientKeyPath: string;
  clientPublicKey: string;
  hosts: LabHost[];
  links: LabLink[];
  bottlenecks: LabBottleneck[];
};
