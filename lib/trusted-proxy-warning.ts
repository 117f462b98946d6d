import fs from "node:fs";
import os from "node:os";
import { parseTrustedProxies } from "./auth/client";

// A trusted-proxy range wide enough to hold more than the proxy: in Docker, a published port's
// connections are relayed by Docker's userland proxy from the network's gateway (172.18.0.1 for
// 172.18.0.0/16), so a range covering the gateway or the container's own network believes
// Remote-User and X-Forwarded-For from anyone who reaches the published port (from the Docker
// host, or over IPv6). Outside Docker the same range lets every machine of the network forge them.
// Said once at start (instrumentation.ts); the server still starts, the setting may be meant.

type Env = Record<string, string | undefined>;
type Interfaces = NodeJS.Dict<os.NetworkInterfaceInfo[]>;

/** The default gateways of /proc/net/route (Linux): the Gateway of each 0.0.0.0/0 route, as 172.18.0.1. */
export function defaultGateways(routeText: string): string[] {
  const gateways: string[] = [];
  for (const line of routeText.split("\n").slice(1)) {
    const [, destination, gateway, flags, , , , mask] = line.trim().split(/\s+/);
    if (destination !== "00000000" || mask !== "00000000" || !gateway || !/^[0-9A-Fa-f]{8}$/.test(gateway)) continue;
    // RTF_GATEWAY: the route goes through the gateway named (0x0002)
    if ((Number.parseInt(flags ?? "0", 16) & 0x2) === 0) continue;
    // the kernel writes the address in host byte order: little-endian on the machines Docker runs on
    const bytes = gateway.match(/../g)!.map((pair) => Number.parseInt(pair, 16));
    const address = bytes.reverse().join(".");
    if (!gateways.includes(address)) gateways.push(address);
  }
  return gateways;
}

/** An address as a number (IPv4 in 32 bits, IPv6 in 128). */
function toBigInt(address: string, family: "IPv4" | "IPv6"): bigint {
  if (family === "IPv4") return address.split(".").reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
  const [head = "", tail] = address.split("%")[0]!.split("::");
  const groups = (text: string) => (text ? text.split(":") : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  return all.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group || "0", 16)), 0n);
}

function fromBigInt(value: bigint, family: "IPv4" | "IPv6"): string {
  const parts: string[] = [];
  const [count, bits, radix] = family === "IPv4" ? [4, 8n, 10] : [8, 16n, 16];
  for (let index = 0; index < count; index++) {
    parts.unshift(Number(value & ((1n << bits) - 1n)).toString(radix));
    value >>= bits;
  }
  return parts.join(family === "IPv4" ? "." : ":");
}

/** The first and last address of the network an interface address belongs to (its CIDR). */
function networkBounds(info: os.NetworkInterfaceInfo): [string, string] | null {
  const prefix = Number(info.cidr?.split("/")[1]);
  const family = info.family === "IPv6" ? "IPv6" : "IPv4";
  const width = family === "IPv4" ? 32 : 128;
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > width) return null;
  const hostBits = BigInt(width - prefix);
  const first = (toBigInt(info.address, family) >> hostBits) << hostBits;
  const last = first | ((1n << hostBits) - 1n);
  return [fromBigInt(first, family), fromBigInt(last, family)];
}

/**
 * The warning for WIRESPEED_TRUSTED_PROXIES when a range of it contains a default gateway of
 * `routeText` (/proc/net/route) or the whole network of one of this machine's own addresses
 * (`interfaces`, os.networkInterfaces()); null when none does. A proxy's single address inside the
 * network (172.30.80.10 of docker-compose.postgres.yml's 172.30.80.0/24) is what it should be.
 */
export function trustedProxyWarning(env: Env, routeText: string | null, interfaces: Interfaces): string | null {
  let entries: string[];
  try {
    entries = parseTrustedProxies(env.WIRESPEED_TRUSTED_PROXIES).entries;
  } catch {
    return null; // a malformed value stops the start with its own message (lib/auth/settings.ts)
  }
  const gateways = routeText === null ? [] : defaultGateways(routeText);
  const own = Object.values(interfaces)
    .flat()
    .filter((info): info is os.NetworkInterfaceInfo => info !== undefined && !info.internal);
  const findings: string[] = [];
  for (const entry of entries) {
    const { list } = parseTrustedProxies(entry);
    const covered: string[] = [];
    for (const gateway of gateways) {
      if (list.check(gateway, "ipv4")) covered.push(`the default gateway ${gateway}`);
    }
    for (const info of own) {
      const bounds = networkBounds(info);
      const family = info.family === "IPv6" ? "ipv6" : "ipv4";
      // one subnet holds the whole network when it holds both its ends
      if (bounds && list.check(bounds[0], family) && list.check(bounds[1], family)) {
        const network = `the network of this machine's address ${info.address}/${info.cidr!.split("/")[1]}`;
        if (!covered.includes(network)) covered.push(network);
      }
    }
    if (covered.length > 0) findings.push(`${entry} contains ${covered.join(" and ")}`);
  }
  if (findings.length === 0) return null;
  return (
    `warning: WIRESPEED_TRUSTED_PROXIES ${findings.join("; ")}: a connection relayed by Docker's userland proxy ` +
    "(a published port, from the Docker host or over IPv6) or from any machine on that network comes from inside it " +
    "and may name any client in X-Forwarded-For and any user in a proxy's user header. Trust the proxy's own address " +
    "(such as 172.18.0.10), and publish the port to the proxy only"
  );
}

/** At start (instrumentation.ts): the warning above in the log, once, when there is one. */
export function warnAboutTrustedProxies(env: Env = process.env): void {
  let routeText: string | null = null;
  try {
    routeText = fs.readFileSync("/proc/net/route", "utf8");
  } catch {
    // not Linux: the interfaces alone
  }
  const warning = trustedProxyWarning(env, routeText, os.networkInterfaces());
  if (warning) console.warn(`[wirespeed] ${warning}`);
}
