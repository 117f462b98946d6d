import { RunError } from "./errors";
import type { PortLeases } from "./ports";
import type { RunEndpoint } from "./remote";

// The one-off server's port. iperf3 serves one test per process, so each run's server gets a port of
// its own: the run's own (option `port`), or one leased from the host's range (PortLeases). A port
// some other program holds on the host shows only when the server cannot listen there: that port is
// skipped and the next one tried.

export const MAX_PORT_ATTEMPTS = 5;

/** A port for the server until `release()`, which gives a leased port back once (a no-op for the run's own). */
export type ServerPort = { port: number; release: () => void };

/** What one try on a port gave: a server that listens there, or the host's answer that the port is in use. */
export type PortAttempt<T> = { listening: T } | { busy: RunError };

/** The lowest free port of the server's host range, skipping `skip`. */
export function leaseServerPort(
  ports: PortLeases,
  server: Pick<RunEndpoint, "hostId" | "hostName" | "portRange">,
  skip: ReadonlySet<number>,
): ServerPort {
  const port = ports.lease(server.hostId, server.hostName, server.portRange, skip);
  let isLeased = true;
  return {
    port,
    // Once only: by a second release the port may be another run's lease.
    release: () => {
      if (!isLeased) return;
      isLeased = false;
      ports.release(server.hostId, port);
    },
  };
}

/**
 * Tries ports until `listen(port)` has a server listening on one. The run's own port (`fixed`) is tried
 * once; otherwise a leased port found busy is given back and skipped, up to MAX_PORT_ATTEMPTS. Each port
 * goes to `hold` before its try, so that the run gives it back when it closes, whatever happens.
 */
export async function listenOnFreePort<T>({
  ports,
  server,
  fixed,
  signal,
  hold,
  listen,
}: {
  ports: PortLeases;
  server: Pick<RunEndpoint, "hostId" | "hostName" | "portRange">;
  fixed: number | undefined;
  signal: AbortSignal;
  hold: (port: ServerPort) => void;
  listen: (port: number) => Promise<PortAttempt<T>>;
}): Promise<{ port: number; listening: T }> {
  const busyPorts = new Set<number>();
  for (let attempt = 0; attempt < MAX_PORT_ATTEMPTS; attempt += 1) {
    if (signal.aborted) throw new RunError("interrupted", "The test was cancelled.");
    const lease = fixed === undefined ? leaseServerPort(ports, server, busyPorts) : { port: fixed, release: () => {} };
    hold(lease);
    const tried = await listen(lease.port);
    if ("listening" in tried) return { port: lease.port, listening: tried.listening };
    if (fixed !== undefined) throw tried.busy;
    busyPorts.add(lease.port);
    lease.release();
  }
  throw new RunError("listener-failed", `No free iperf3 port on ${server.hostName} after ${MAX_PORT_ATTEMPTS} tries.`);
}
