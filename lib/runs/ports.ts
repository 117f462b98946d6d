import { AppError, type AppErrorOptions } from "@/lib/errors";

// iperf3 serves one test per process, so concurrent runs to one host need one
// port each. Ports are leased from the host's range (default 5201-5299).

export type PortRange = { min: number; max: number };

export class PortExhaustedError extends AppError {
  static override readonly errorName: string = "PortExhaustedError";
  constructor(message: string, options?: AppErrorOptions) {
    super("ports-exhausted", message, options);
  }
}

export class PortLeases {
  private readonly leased = new Map<number, Set<number>>();

  /**
   * Leases the lowest free port of the range, skipping those in `skip` (found busy
   * on the host by an earlier attempt).
   */
  lease(hostId: number, hostName: string, range: PortRange, skip: ReadonlySet<number> = new Set()): number {
    const ports = this.leased.get(hostId) ?? new Set<number>();
    for (let port = range.min; port <= range.max; port += 1) {
      if (ports.has(port) || skip.has(port)) continue;
      ports.add(port);
      this.leased.set(hostId, ports);
      return port;
    }
    throw new PortExhaustedError(
      `every iperf3 port of ${hostName} (${range.min}-${range.max}) is in use or busy; widen the host's port range or wait for a run to end`,
    );
  }

  release(hostId: number, port: number): void {
    this.leased.get(hostId)?.delete(port);
  }

  inUse(hostId: number): number[] {
    return [...(this.leased.get(hostId) ?? [])].sort((a, b) => a - b);
  }
}
