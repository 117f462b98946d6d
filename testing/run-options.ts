import { IperfOptionsSchema } from "@/lib/iperf/options";

/**
 * The options of a TCP run as the engine stores them: the schema's defaults (one stream for 10 s,
 * iperf3's own for the rest); `changes` replace or add any.
 */
export function storedRunOptions(changes: Record<string, unknown> = {}) {
  return { ...IperfOptionsSchema.parse({}), ...changes };
}
