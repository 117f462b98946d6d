/**
 * The options of a TCP run as the engine stores them: one stream for 10 s, iperf3's defaults for
 * the rest; `changes` replace or add any.
 */
export function storedRunOptions(changes: Record<string, unknown> = {}) {
  return {
    protocol: "tcp",
    parallel: 1,
    reverse: false,
    bidir: false,
    interval: 1,
    zerocopy: false,
    duration: 10,
    ...changes,
  };
}
