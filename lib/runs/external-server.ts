import { AppError, invalidInput } from "@/lib/errors";
import { createIperfParser, type IperfResult } from "@/lib/iperf";
import type { ClientSide } from "./contract";
import { RunError } from "./errors";
import type { ExternalServerEndpoint } from "./remote";

// An iperf3 server Wirespeed does not manage (a host with access "iperf3-server", such as a public
// server on 5201-5209): only the client runs, on the link's managed end, and connects to the server's
// address on a port of its range. One iperf3 server process serves one test at a time and answers any
// other "the server is busy running a test": the run then tries the next port of the range, and after
// a round of busy ports waits and tries the range again, for up to `busyRetrySeconds`.

/** How long a run keeps trying a busy server when the run's options do not say (busyRetrySeconds). */
export const DEFAULT_BUSY_RETRY_SECONDS = 60;
// After a round of busy ports, the wait before the next round, doubling up to the longest: a public
// server's test lasts 10 s by default, so a round every few seconds finds a port as soon as it frees.
export const BUSY_ROUND_WAIT_FIRST_MS = 1_000;
export const BUSY_ROUND_WAIT_MAX_MS = 5_000;

/** The ports a run tries on the server, in order: the run's own (option `port`) alone, or the host's range. */
export function serverPorts(range: { min: number; max: number }, fixed: number | undefined): number[] {
  if (fixed !== undefined) return [fixed];
  return Array.from({ length: Math.max(1, range.max - range.min + 1) }, (_, index) => range.min + index);
}

/**
 * The tries of one run against a server that may be busy: which port it is on, how many tries it took
 * (Run.serverTries), and what comes after a busy answer. `now` is in milliseconds (performance.now).
 */
export class BusyServerTries {
  private index = 0;
  private rounds = 0;
  private readonly deadline: number;
  /** tries so far, the one under way included */
  count = 1;

  constructor(
    private readonly ports: readonly number[],
    readonly retrySeconds: number,
    private readonly now: () => number = () => performance.now(),
    private readonly roundWait = { firstMs: BUSY_ROUND_WAIT_FIRST_MS, maxMs: BUSY_ROUND_WAIT_MAX_MS },
  ) {
    this.deadline = now() + retrySeconds * 1000;
  }

  /** The port of the try under way. */
  get port(): number {
    return this.ports[this.index]!;
  }

  /**
   * The server answered busy on `port`: the next port of the round at once, or, after the round's last,
   * the first again once the round's wait is over; null when that wait would end after `retrySeconds`.
   */
  next(): { port: number; waitMs: number } | null {
    if (this.index + 1 < this.ports.length) {
      this.index += 1;
      this.count += 1;
      return { port: this.port, waitMs: 0 };
    }
    const waitMs = Math.min(this.roundWait.firstMs * 2 ** this.rounds, this.roundWait.maxMs);
    if (this.now() + waitMs > this.deadline) return null;
    this.rounds += 1;
    this.index = 0;
    this.count += 1;
    return { port: this.port, waitMs };
  }

  /** Every try found the server busy: the run's failure, with what the user can change. */
  failure(server: Pick<ExternalServerEndpoint, "hostName" | "address">): RunError {
    const ports = this.ports.length === 1 ? `port ${this.ports[0]}` : `ports ${this.ports[0]}-${this.ports.at(-1)}`;
    return new RunError(
      "server-busy",
      `The iperf3 server ${server.hostName} (${server.address}) was busy on ${ports} at each of ${this.count} tries over ${this.retrySeconds} s.`,
      {
        hint:
          "That server runs other people's tests, one per port at a time. Try again later, allow a longer wait " +
          "(busyRetrySeconds, up to 600), or give its host a wider port range if the server listens on more ports.",
      },
    );
  }
}

/**
 * The server's end of a run once the client is open: an iperf3 server Wirespeed does not manage. No
 * process and no pid: the client's tries (`tries`) and what the client fetched of the server's own
 * output (--get-server-output), read as it arrives.
 */
export type ExternalServer = {
  access: "iperf3-server";
  endpoint: ExternalServerEndpoint;
  tries: BusyServerTries;
  report: { push: (line: string) => void; end: () => IperfResult };
};

export function externalServer(endpoint: ExternalServerEndpoint, tries: BusyServerTries): ExternalServer {
  // A busy answer prints none of the server's output: what arrives is the test's.
  const parser = createIperfParser();
  let result: IperfResult | null = null;
  return {
    access: "iperf3-server",
    endpoint,
    tries,
    report: {
      push: (line) => void (result === null && parser.push(line)),
      end: () => (result ??= parser.end()),
    },
  };
}

/** What a run request needs to know of a link's ends: how each host is reached. */
export type LinkEnds = { a: { name: string; access: string }; b: { name: string; access: string } };

/**
 * A run's client runs on the managed end of a link to an iperf3 server Wirespeed does not manage:
 * a request with the client on the server's end is refused, naming `clientSide` (-R and --bidir give
 * the other directions). Throws a 400.
 */
export function refuseClientOnExternalServer(ends: LinkEnds, clientSide: ClientSide): void {
  // A device starts its own client: its link is measured by listening for it (lib/runs/listen.ts).
  const device = [ends.a, ends.b].find((end) => end.access === "device");
  if (device)
    throw new AppError(
      "conflict",
      `${device.name} is a device Wirespeed does not log in to: listen for it instead (POST /api/links/:id/listen)`,
      { hint: "Use Listen for a device on the link's page, then start iperf3 on the device." },
    );
  const client = ends[clientSide];
  if (client.access !== "iperf3-server") return;
  const other: ClientSide = clientSide === "a" ? "b" : "a";
  const message =
    ends[other].access === "iperf3-server"
      ? `cannot be "${clientSide}": both ends of this link are iperf3 servers Wirespeed does not manage, so neither can run the client`
      : `must be "${other}": the ${clientSide} end (${client.name}) is an iperf3 server Wirespeed does not manage, so the client runs on ${other} (${ends[other].name}): every direction is there, "a-to-b", "b-to-a" (-R) and "bidir"`;
  throw invalidInput([{ field: "clientSide", message }]);
}
