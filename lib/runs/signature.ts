import { directionOf, type ClientSide } from "./contract";

// The test signature of a run: what must match for two results to be compared as the same
// test (a link's baseline, lib/alerts/baseline.ts, is per signature). Protocol, direction
// over the link, streams, and the bitrate for UDP; stored on every run (Run.signature), and
// written for earlier runs by the SQL of migration 20261215000000_schedules_alerts.

type SignatureOptions = { protocol?: string; reverse?: boolean; bidir?: boolean; parallel?: number; bitrate?: number };

export function signatureOf(options: SignatureOptions, clientSide: ClientSide): string {
  const protocol = options.protocol ?? "tcp";
  const base = `${protocol} ${directionOf(options, clientSide)} P${options.parallel ?? 1}`;
  return protocol === "udp" ? `${base} ${options.bitrate ?? 0}` : base;
}

/** "tcp a-to-b P1" → "TCP, A → B, 1 stream"; "udp … 1000000000" adds the bitrate. */
export function describeSignature(signature: string): string {
  const [protocol = "tcp", direction = "a-to-b", streams = "P1", bitrate] = signature.split(" ");
  const count = Number(streams.slice(1)) || 1;
  const way = direction === "bidir" ? "both ways" : direction === "b-to-a" ? "B → A" : "A → B";
  const parts = [protocol.toUpperCase(), way, `${count} stream${count === 1 ? "" : "s"}`];
  if (bitrate !== undefined)
    parts.push(
      Number(bitrate) === 0
        ? "unlimited"
        : `${(Number(bitrate) / 1e6).toLocaleString("en-US", { maximumFractionDigits: 1 })} Mbit/s`,
    );
  return parts.join(", ");
}
