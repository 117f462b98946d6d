// Which end of a link ran the iperf3 client, read from the addresses an imported output names.
// Pure: the reader hands it the output's text (or its JSON `start`) and the link's addresses.
import type { IperfFormat, IperfRole } from "@/lib/iperf";
import type { ClientSide } from "@/lib/runs/contract";

/** The two addresses of this end's connection, as the output printed them (normalized). */
export type OutputAddresses = { local: string | null; remote: string | null };

// `[  5] local 198.18.0.1 port 43210 connected to 198.18.0.2 port 5201`, after any `--timestamps`
// or `-T title` prefix, whitespace collapsed or not; old versions say "connected with"
const CONNECTED_LINE = /\blocal\s+([\w.:%-]+)\s+port\s+\d+\s+connected\s+(?:to|with)\s+([\w.:%-]+)\s+port\s+\d+/;
// the server's first line about a client, when its stream lines were not pasted
const ACCEPTED_LINE = /Accepted connection from\s+([\w.:%-]+?),?\s+port\s+\d+/;
// a client's first line; the host may be a name, which matches no address
const CONNECTING_LINE = /Connecting to host\s+([\w.:%-]+?),?\s+port\s+\d+/;
// a text output states its addresses in its first lines; a long log is not read to its end for them
const MAX_LINES_SEARCHED = 2000;

/**
 * One address in the form it is compared in: lower case, without a /prefix or %zone, a v4-mapped IPv6
 * address (`::ffff:198.18.0.1`, printed by dual-stack servers before 3.x mapped them back) as
 * IPv4, an IPv6 address in full (`fd00:0:0:0:0:0:0:1`), so that `fd00::1` and `fd00:0::1` agree.
 * Null when it is not an IP literal.
 */
export function normalizeAddress(text: string): string | null {
  let address = text.trim().toLowerCase();
  // an inventory address with its prefix length (198.18.0.1/24) is the address
  const prefix = address.indexOf("/");
  if (prefix !== -1) address = address.slice(0, prefix);
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  if (address.startsWith("[") && address.endsWith("]")) address = address.slice(1, -1);
  if (isIpv4(address)) return address.split(".").map(Number).join(".");
  return expandIpv6(address);
}

function isIpv4(text: string): boolean {
  const parts = text.split(".");
  return parts.length === 4 && parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255);
}

function expandIpv6(text: string): string | null {
  if (!/^[0-9a-f:.]{2,45}$/.test(text)) return null;
  let groups = text;
  // an IPv4 tail (::ffff:a.b.c.d, 64:ff9b::a.b.c.d) is two groups
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(groups);
  if (tail) {
    if (!isIpv4(tail[1]!)) return null;
    const [a, b, c, d] = tail[1]!.split(".").map(Number) as [number, number, number, number];
    groups = `${groups.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = groups.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] === "" ? [] : halves[0]!.split(":");
  const rest = halves.length === 2 ? (halves[1] === "" ? [] : halves[1]!.split(":")) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...rest];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  const expanded = all.map((group) => Number.parseInt(group, 16).toString(16)).join(":");
  // a v4-mapped address written in hex groups (::ffff:c612:1) is the IPv4 address too
  const mappedHex = /^0:0:0:0:0:ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(expanded);
  if (mappedHex) {
    const high = Number.parseInt(mappedHex[1]!, 16);
    const low = Number.parseInt(mappedHex[2]!, 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  return expanded;
}

/** This end's addresses in a text output: its `local … connected to …` line, else the server's or client's first line. */
export function textAddresses(text: string): OutputAddresses | null {
  let accepted: string | null = null;
  let connecting: string | null = null;
  let start = 0;
  for (let count = 0; count < MAX_LINES_SEARCHED && start < text.length; count += 1) {
    const newline = text.indexOf("\n", start);
    const line = text.slice(start, newline === -1 ? text.length : newline);
    start = newline === -1 ? text.length : newline + 1;
    if (line.includes("connected")) {
      const match = CONNECTED_LINE.exec(line);
      if (match) return { local: normalizeAddress(match[1]!), remote: normalizeAddress(match[2]!) };
    }
    if (accepted === null && line.includes("Accepted connection")) accepted = ACCEPTED_LINE.exec(line)?.[1] ?? null;
    if (connecting === null && line.includes("Connecting to host"))
      connecting = CONNECTING_LINE.exec(line)?.[1] ?? null;
  }
  const remote = accepted ?? connecting;
  return remote === null ? null : { local: null, remote: normalizeAddress(remote) };
}

/** This end's addresses in a JSON `start` object (`-J`'s, or the data of `--json-stream`'s start event). */
export function jsonAddresses(start: unknown): OutputAddresses | null {
  if (typeof start !== "object" || start === null) return null;
  const { connected, accepted_connection: accepted, connecting_to: connecting } = start as Record<string, unknown>;
  const first: unknown = Array.isArray(connected) ? connected[0] : undefined;
  if (typeof first === "object" && first !== null) {
    const { local_host: local, remote_host: remote } = first as Record<string, unknown>;
    if (typeof local === "string" || typeof remote === "string") {
      return {
        local: typeof local === "string" ? normalizeAddress(local) : null,
        remote: typeof remote === "string" ? normalizeAddress(remote) : null,
      };
    }
  }
  const other = (accepted ?? connecting) as { host?: unknown } | undefined;
  return typeof other?.host === "string" ? { local: null, remote: normalizeAddress(other.host) } : null;
}

export type ClientSideDecision = { clientSide: ClientSide; clientSideFrom: "addresses" | "given" };

/**
 * This end is `a` when its local address is one of a's (or its remote one of b's), `b` likewise;
 * the client is this end for a client's output, the other end for a server's. When the addresses
 * point both ways (loopback: one address on both ends) or nowhere, the caller's side stands.
 */
export function decideClientSide(input: {
  addresses: OutputAddresses | null;
  role: IperfRole;
  linkAddresses: { a: string[]; b: string[] };
  given: ClientSide | undefined;
}): ClientSideDecision {
  const given: ClientSideDecision = { clientSide: input.given ?? "a", clientSideFrom: "given" };
  const { addresses } = input;
  if (addresses === null) return given;
  const setOf = (list: string[]) =>
    new Set(list.map(normalizeAddress).filter((address): address is string => address !== null));
  const a = setOf(input.linkAddresses.a);
  const b = setOf(input.linkAddresses.b);
  const has = (set: Set<string>, address: string | null) => address !== null && set.has(address);
  const isA = has(a, addresses.local) || has(b, addresses.remote);
  const isB = has(b, addresses.local) || has(a, addresses.remote);
  if (isA === isB) return given;
  const thisEnd: ClientSide = isA ? "a" : "b";
  const otherEnd: ClientSide = isA ? "b" : "a";
  return { clientSide: input.role === "client" ? thisEnd : otherEnd, clientSideFrom: "addresses" };
}

/** The output's addresses, by its format: text lines, or the JSON start object the reader found. */
export function outputAddresses(format: IperfFormat, text: string, jsonStart: unknown): OutputAddresses | null {
  return format === "text" ? textAddresses(text) : jsonAddresses(jsonStart);
}
