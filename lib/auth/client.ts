import { BlockList, isIP } from "node:net";

// Who sent a request: the peer (the address of the TCP connection, which scripts/server.mjs
// writes into a request header whose name only this process knows) and the client (the peer,
// or the address a trusted reverse proxy names in X-Forwarded-For). Sign-in throttling, the
// bearer token throttle and a trusted proxy's user header all start from here.

type Env = Record<string, string | undefined>;

/** The header scripts/server.mjs sets to the connection's address; unset under `next dev`. */
export function peerHeaderName(env: Env = process.env): string | null {
  const name = env.WIRESPEED_PEER_HEADER;
  return name && /^x-wirespeed-peer-[0-9a-f]{16,}$/.test(name) ? name : null;
}

/** `::ffff:10.0.0.1` is 10.0.0.1; anything that is not an IP address is "". */
export function normalizeAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, "$1");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  const plain = mapped ? mapped[1]! : trimmed;
  return isIP(plain) ? plain.toLowerCase() : "";
}

/** The address of the connection the request came on, or "" when the server does not say (`next dev`). */
export function peerAddress(headers: Headers, env: Env = process.env): string {
  const name = peerHeaderName(env);
  return name ? normalizeAddress(headers.get(name) ?? "") : "";
}

/** A bad WIRESPEED_TRUSTED_PROXIES entry: the server refuses to start, naming it. */
export class TrustedProxiesError extends Error {}

export type TrustedProxies = { list: BlockList; entries: string[] };

/**
 * WIRESPEED_TRUSTED_PROXIES: comma- or space-separated addresses and CIDRs (`10.0.0.5`,
 * `172.18.0.0/16`, `fd00::/8`). Empty or unset: no proxy is trusted.
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  const entries = (value ?? "").split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const [address = "", prefix, ...rest] = entry.split("/");
    const normalized = normalizeAddress(address);
    const family = isIP(normalized) === 6 ? "ipv6" : "ipv4";
    const bits = prefix === undefined ? (family === "ipv6" ? 128 : 32) : Number(prefix);
    const maxBits = family === "ipv6" ? 128 : 32;
    if (
      !normalized ||
      rest.length > 0 ||
      (prefix !== undefined && !/^\d{1,3}$/.test(prefix)) ||
      !(bits >= 0 && bits <= maxBits)
    ) {
      throw new TrustedProxiesError(
        `WIRESPEED_TRUSTED_PROXIES: "${entry.slice(0, 64)}" is not an address or a CIDR such as 10.0.0.5, 172.18.0.0/16 or fd00::/8`,
      );
    }
    list.addSubnet(normalized, bits, family);
  }
  return { list, entries };
}

let cached: { value: string | undefined; proxies: TrustedProxies } | null = null;
function trustedProxiesOf(env: Env): TrustedProxies {
  const value = env.WIRESPEED_TRUSTED_PROXIES;
  if (!cached || cached.value !== value) cached = { value, proxies: parseTrustedProxies(value) };
  return cached.proxies;
}

function isTrusted(address: string, proxies: TrustedProxies): boolean {
  if (!address) return false;
  return proxies.list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
}

/** Whether the request came straight from a proxy of WIRESPEED_TRUSTED_PROXIES (the peer, never a header). */
export function fromTrustedProxy(headers: Headers, env: Env = process.env): boolean {
  return isTrusted(peerAddress(headers, env), trustedProxiesOf(env));
}

/**
 * The client's address. From a trusted proxy: the nearest address in X-Forwarded-For that is not
 * itself a trusted proxy (the entries further left were written by the client and may be forged).
 * From anyone else: the peer. `WIRESPEED_TRUST_PROXY=1` (older setting) trusts every peer, and the
 * leftmost X-Forwarded-For entry, as before. "" when nothing is known (`next dev` without a proxy).
 */
export function clientAddress(headers: Headers, env: Env = process.env): string {
  const peer = peerAddress(headers, env);
  const forwarded = (headers.get("x-forwarded-for") ?? "").split(",").map(normalizeAddress);
  if (env.WIRESPEED_TRUST_PROXY === "1" && !env.WIRESPEED_TRUSTED_PROXIES) {
    return forwarded[0] || normalizeAddress(headers.get("x-real-ip") ?? "") || peer;
  }
  const proxies = trustedProxiesOf(env);
  if (!isTrusted(peer, proxies)) return peer;
  for (let index = forwarded.length - 1; index >= 0; index--) {
    const address = forwarded[index]!;
    if (!address) return peer; // a malformed entry: nothing to its left can be believed
    if (!isTrusted(address, proxies)) return address;
  }
  return forwarded[0] || peer;
}
