// Pure subnet math for the link form: which NIC addresses share a subnet. No React, no I/O.

export type ParsedCidr = { version: 4 | 6; value: bigint; prefixLength: number };

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = BigInt(0);
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << BigInt(8)) | BigInt(Number(part));
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  let address = text.toLowerCase();
  // An IPv4 tail (::ffff:198.18.0.1) becomes two hex groups.
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4Tail) {
    const v4 = parseIpv4(v4Tail[1]!);
    if (v4 === null) return null;
    address = `${address.slice(0, -v4Tail[1]!.length)}${(v4 >> BigInt(16)).toString(16)}:${(v4 & BigInt(0xffff)).toString(16)}`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  let value = BigInt(0);
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << BigInt(16)) | BigInt(parseInt(group, 16));
  }
  return value;
}

/** "198.18.0.1/24" or "fd00::1/64"; null for a bare address (no subnet known) or anything else. */
export function parseCidr(text: string): ParsedCidr | null {
  const match = /^([^/\s]+)\/(\d{1,3})$/.exec(text.trim());
  if (!match) return null;
  const prefixLength = Number(match[2]);
  const v4 = parseIpv4(match[1]!);
  if (v4 !== null) return prefixLength <= 32 ? { version: 4, value: v4, prefixLength } : null;
  const v6 = parseIpv6(match[1]!.replace(/%.*$/, ""));
  if (v6 !== null) return prefixLength <= 128 ? { version: 6, value: v6, prefixLength } : null;
  return null;
}

const ONE = BigInt(1);

function networkOf(value: bigint, prefixLength: number, bits: number): bigint {
  const hostBits = BigInt(bits - prefixLength);
  return (value >> hostBits) << hostBits;
}

function formatNetwork(version: 4 | 6, value: bigint, prefixLength: number): string {
  if (version === 4) {
    const bytes = [24, 16, 8, 0].map((shift) => Number((value >> BigInt(shift)) & BigInt(255)));
    return `${bytes.join(".")}/${prefixLength}`;
  }
  const groups = Array.from({ length: 8 }, (_, index) =>
    Number((value >> BigInt(112 - index * 16)) & BigInt(0xffff)).toString(16),
  );
  // Shorten the longest run of zero groups to "::", as addresses are usually written.
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8; start += 1) {
    let length = 0;
    while (start + length < 8 && groups[start + length] === "0") length += 1;
    if (length > best.length && length > 1) best = { start, length };
  }
  const text =
    best.start < 0
      ? groups.join(":")
      : `${groups.slice(0, best.start).join(":")}::${groups.slice(best.start + best.length).join(":")}`;
  return `${text}/${prefixLength}`;
}

/** Addresses no link is about: loopback and link-local (every NIC has fe80::/64, so it says nothing). */
function isIgnored(cidr: ParsedCidr): boolean {
  if (cidr.version === 4)
    return cidr.value >> BigInt(24) === BigInt(127) || cidr.value >> BigInt(16) === BigInt(0xa9fe);
  return cidr.value === ONE || cidr.value >> BigInt(118) === BigInt(0x3fa);
}

/** The subnet two CIDR addresses share (at the shorter prefix), or null. */
export function sharedSubnet(a: string, b: string): string | null {
  const left = parseCidr(a);
  const right = parseCidr(b);
  if (!left || !right || left.version !== right.version || isIgnored(left) || isIgnored(right)) return null;
  if (left.value === right.value) return null;
  const prefixLength = Math.min(left.prefixLength, right.prefixLength);
  const bits = left.version === 4 ? 32 : 128;
  const network = networkOf(left.value, prefixLength, bits);
  return network === networkOf(right.value, prefixLength, bits)
    ? formatNetwork(left.version, network, prefixLength)
    : null;
}

/** The first subnet that any address of one NIC shares with any address of the other. */
export function sharedSubnetOf(aAddresses: string[], bAddresses: string[]): string | null {
  for (const a of aAddresses) {
    for (const b of bAddresses) {
      const subnet = sharedSubnet(a, b);
      if (subnet) return subnet;
    }
  }
  return null;
}

export type NicForPairing = {
  id: number;
  name: string;
  host: { id: number; name: string };
  addresses: string[];
  linkedNicIds: number[];
};
export type SuggestedPair<T extends NicForPairing> = { a: T; b: T; subnet: string };

/** Pairs of NICs on two different hosts in one subnet, not yet linked: the likely cables. */
export function suggestPairs<T extends NicForPairing>(nics: T[]): SuggestedPair<T>[] {
  const pairs: SuggestedPair<T>[] = [];
  for (let i = 0; i < nics.length; i += 1) {
    for (let j = i + 1; j < nics.length; j += 1) {
      const a = nics[i]!;
      const b = nics[j]!;
      if (a.host.id === b.host.id || a.linkedNicIds.includes(b.id)) continue;
      const subnet = sharedSubnetOf(a.addresses, b.addresses);
      if (subnet) pairs.push({ a, b, subnet });
    }
  }
  return pairs;
}

/** The link's default nominal speed: the slower NIC's, or the one known; null when neither is. */
export function defaultLinkSpeed(aSpeedMbps: number | null, bSpeedMbps: number | null): number | null {
  const known = [aSpeedMbps, bSpeedMbps].filter((speed): speed is number => speed !== null);
  return known.length > 0 ? Math.min(...known) : null;
}
