// Pure: `ifconfig -a` as macOS and FreeBSD print it (the BSD format), for their agents.
import type { DiscoveredNic, NicAddress } from "./types";

/** Mb/s from a media word: 1000baseT, 2500Base-T, 10Gbase-T, 10GBase-SR, 25GBase-SR, 100baseTX. */
export function mediaSpeedMbps(media: string): number | null {
  const match = /\b(\d+(?:\.\d+)?)(G?)base/i.exec(media);
  if (!match) return null;
  const value = Number(match[1]) * (match[2] ? 1000 : 1);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** Prefix length from a BSD netmask: hex `0xffffff00` or dotted `255.255.255.0`. */
export function netmaskToPrefix(mask: string): number | null {
  let bits: number;
  if (/^0x[0-9a-f]{8}$/i.test(mask)) bits = Number.parseInt(mask.slice(2), 16);
  else if (/^\d{1,3}(\.\d{1,3}){3}$/.test(mask)) bits = mask.split(".").reduce((acc, o) => acc * 256 + Number(o), 0);
  else return null;
  let prefix = 0;
  for (let bit = 31; bit >= 0; bit--) {
    if ((bits >>> bit) & 1) prefix++;
    else break;
  }
  return prefix;
}

/** Parses `ifconfig -a`; loopback interfaces are left out. */
export function parseIfconfig(output: string): DiscoveredNic[] {
  const nics: DiscoveredNic[] = [];
  let current: DiscoveredNic | null = null;
  let isLoopback = false;
  const push = () => {
    if (current && !isLoopback) nics.push(current);
  };
  for (const raw of output.split("\n")) {
    const line = raw.replace(/\r$/, "");
    const header = /^([A-Za-z0-9_.-]+): flags=[0-9a-f]+<([^>]*)>(.*)$/i.exec(line);
    if (header) {
      push();
      const flags = header[2]!.split(",");
      isLoopback = flags.includes("LOOPBACK");
      const mtu = /\bmtu (\d+)/.exec(header[3]!);
      current = {
        name: header[1]!,
        mac: null,
        mtu: mtu ? Number(mtu[1]) : null,
        speedMbps: null,
        duplex: null,
        isUp: flags.includes("UP"),
        addresses: [],
        driver: null,
        pcieLinkSpeed: null,
        pcieLinkWidth: null,
        description: null,
      };
      continue;
    }
    if (!current || !/^\s/.test(line)) continue;
    const text = line.trim();
    const words = text.split(/\s+/);
    if (words[0] === "ether" && words[1]) current.mac = words[1].toLowerCase();
    else if (words[0] === "inet" && words[1]) {
      const mask = words[words.indexOf("netmask") + 1];
      const prefix = words.includes("netmask") && mask ? netmaskToPrefix(mask) : null;
      current.addresses.push({ address: words[1], prefixLength: prefix ?? 32, family: "ipv4" });
    } else if (words[0] === "inet6" && words[1]) {
      const address = words[1].replace(/%.*$/, "");
      const prefix = Number(words[words.indexOf("prefixlen") + 1]);
      // link-local needs a %zone to be bound: not a test endpoint
      if (!/^fe[89ab]/i.test(address)) {
        const entry: NicAddress = { address, prefixLength: Number.isInteger(prefix) ? prefix : 128, family: "ipv6" };
        current.addresses.push(entry);
      }
    } else if (words[0] === "media:") {
      // "media: Ethernet autoselect (1000baseT <full-duplex>)": the active media is in parentheses
      const active = /\(([^)]*)\)/.exec(text)?.[1] ?? text;
      current.speedMbps = mediaSpeedMbps(active);
      if (/full-duplex/i.test(active)) current.duplex = "full";
      else if (/half-duplex/i.test(active)) current.duplex = "half";
    } else if (words[0] === "status:") {
      current.isUp = words[1] === "active";
    } else if (words[0] === "description:") {
      current.description = text.slice("description:".length).trim() || null;
    }
  }
  push();
  return nics;
}
