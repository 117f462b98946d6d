// A run's summary made exact. Before 3.17 the client streams text, whose figures keep 3 significant
// digits ("917 Mbits/sec") and whose times keep 1/100 s; its server then writes one -J document at
// the end (lib/iperf chooseServerOutput), and what the server measured itself replaces the client's
// rounded line for that side. A --json-stream client (3.17+) needs none of this: its end event has
// every figure as iperf3 computed it, and the parser keeps them as they are.
import type { IperfResult, IperfSideSummary, IperfSummary } from "@/lib/iperf";

export type RunSummaries = Pick<IperfResult, "summary" | "reverseSummary">;

/**
 * Whether the server's output is a -J document of a test it saw to its end. One with an `error` is
 * not: a listener that failed has no figures, and a test stopped by the client makes iperf3 3.12's
 * server print a duration of hundreds of seconds (its clock read against an unset start).
 */
export function isCompleteServerReport(server: IperfResult | null): server is IperfResult {
  return server !== null && server.format === "json" && server.role === "server" && server.error === null;
}

/**
 * The client's summaries, each side the server measured replaced by the server's own figures:
 * the receiver of a normal test, the sender of -R, the forward receiver and the reverse sender of
 * --bidir (with UDP, the receiver's jitter and loss too). The client's side stays as the client printed it, and
 * so does everything when the server's report is missing, cut off or failed. A side the server left
 * at 0 bytes while the client counted some is iperf3's placeholder for the other end (3.1.x UDP
 * servers, for one, put their sent bytes in `sum`): it is not a measurement.
 */
export function exactSummaries(client: RunSummaries, server: IperfResult | null): RunSummaries {
  if (!isCompleteServerReport(server)) return { summary: client.summary, reverseSummary: client.reverseSummary };
  return {
    summary: mergeSummary(client.summary, server.summary),
    reverseSummary: mergeSummary(client.reverseSummary, server.reverseSummary),
  };
}

// Only into a summary the client printed: a client that ended without one failed, whatever the server counted.
function mergeSummary(client: IperfSummary | null, server: IperfSummary | null): IperfSummary | null {
  if (client === null || server === null) return client;
  return { sender: pickSide(client.sender, server.sender), receiver: pickSide(client.receiver, server.receiver) };
}

function pickSide(client: IperfSideSummary | null, server: IperfSideSummary | null): IperfSideSummary | null {
  if (server === null) return client;
  if (server.bytes === 0 && (client?.bytes ?? 0) > 0) return client;
  return server;
}
