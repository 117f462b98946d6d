import type { RemoteProcess } from "./remote";
import type { ServerPort } from "./server-port";

/**
 * What a run holds until it closes, whichever step it reached: the processes it started on its hosts,
 * its server's ports and the firewalls it opened. Each is added as soon as it is taken, so that a step
 * that fails half-way leaves nothing behind.
 */
export class Holdings {
  private readonly processes: RemoteProcess[] = [];
  private readonly ports: ServerPort[] = [];
  private readonly firewalls: Array<() => Promise<void>> = [];

  addProcess(process: RemoteProcess): void {
    this.processes.push(process);
  }

  /** A process the run no longer needs (a client opened for a port that turned out busy): stopped now. */
  async discard(process: RemoteProcess): Promise<void> {
    const index = this.processes.indexOf(process);
    if (index >= 0) this.processes.splice(index, 1);
    await process.stop();
  }

  addPort(port: ServerPort): void {
    this.ports.push(port);
  }

  addFirewall(restore: () => Promise<void>): void {
    this.firewalls.push(restore);
  }

  /**
   * Stops every process, gives the ports back and restores the firewalls. Resolves with why each
   * firewall that could not be restored failed.
   */
  async close(): Promise<unknown[]> {
    await Promise.allSettled(this.processes.map((process) => process.stop()));
    for (const port of this.ports) port.release();
    const restored = await Promise.allSettled(this.firewalls.map((restore) => restore()));
    return restored.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason as unknown] : []));
  }
}
