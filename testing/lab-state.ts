/**
 * What the test lab is made of: the topology it is built from (e2e/lab/topology.json) and the
 * state `labUp()` writes to lab.json, which lab tests, specs and benchmarks read. Types and the
 * lists they are made of only, so that importing them never loads the script that builds the lab.
 */

export const LAB_RATES = ["1gbit", "2.5gbit", "5gbit", "10gbit"] as const;
export type LabRate = (typeof LAB_RATES)[number];

export const LAB_FLAVORS = ["linux", "esxi"] as const;
export type LabFlavor = (typeof LAB_FLAVORS)[number];
/** flavor "esxi": the host's sshd runs every command in BusyBox ash with an ESXi stand-in mounted (esxi-standin/). */
export type LabTopologyHost = { name: string; flavor?: LabFlavor };
export type LabTopologyLink = { name: string; a: string; b: string; rate: LabRate | null; mtu: number };
export type LabTopology = { hosts: LabTopologyHost[]; links: LabTopologyLink[] };

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
export type LabLink = { name: string; rateMbps: number | null; mtu: number; a: LabLinkEnd; b: LabLinkEnd };

export type LabState = {
  /** WIRESPEED_LAB_INSTANCE this lab was built with */
  instance: number;
  dir: string;
  clientKeyPath: string;
  clientPublicKey: string;
  hosts: LabHost[];
  links: LabLink[];
};
