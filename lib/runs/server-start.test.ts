// startServer's three ways to a listening server: the host saw iperf3 listen (no settle time waited out),
// a -J server presumed listening after its settle time where the host cannot tell, and a server that
// exited first (a busy port), with what it said.
import { describe, expect, it } from "vitest";
import { IperfOptionsSchema, parseIperfVersion } from "@/lib/iperf";
import type { ProcessCallbacks, RemoteProcess, RunEndpoint, RunRemote } from "./remote";
import { serverArgvFor, setListeningWatch, startServer } from "./server-start";

const SERVER: RunEndpoint = {
  access: "ssh",
  hostId: 1,
  hostName: "beta",
  platform: "linux",
  target: { name: "beta", address: "198.18.0.2", port: 22, username: "root", auth: { method: "agent" } },
  iperf3Path: null,
  portRange: { min: 5201, max: 5210 },
  address: "198.18.0.2",
  nicName: "eth1",
  openFirewall: false,
} as unknown as RunEndpoint;

type Started = { options: { listenPort?: number }; callbacks: ProcessCallbacks; exit: (code: number) => void };

/** A remote whose one server reports its pid at once and then does what `then` says. */
function remoteWith(then: (started: Started, markListening: () => void) => void): {
  remote: RunRemote;
  started: Started[];
} {
  const started: Started[] = [];
  const remote = {
    startIperf(_endpoint, _role, _path, _argv, callbacks, options = {}): RemoteProcess {
      let exit: (code: number) => void = () => {};
      const done = new Promise<{ exitCode: number | null }>(
        (resolve) => (exit = (code) => resolve({ exitCode: code })),
      );
      let markListening = () => {};
      const listening = new Promise<void>((resolve) => (markListening = resolve));
      const entry: Started = { options, callbacks, exit };
      started.push(entry);
      setTimeout(() => then(entry, markListening), 5);
      return {
        commandLine: "iperf3 -s",
        pid: Promise.resolve(4242),
        done,
        ready: Promise.resolve(),
        release: () => {},
        stop: async () => exit(143),
        // Only a start asked to watch its port can say it listens (as remote-agents does).
        ...(options.listenPort !== undefined ? { listening } : {}),
      };
    },
  } as Partial<RunRemote> as RunRemote;
  return { remote, started };
}

const version = parseIperfVersion("iperf 3.12")!;
const argv = serverArgvFor(IperfOptionsSchema.parse({ duration: 2 }), version, SERVER, 5201, "json");

function start(remote: RunRemote, settleMs: number) {
  return startServer({
    remote,
    server: SERVER,
    iperf3Path: "iperf3",
    argv,
    port: 5201,
    pty: false,
    // A settle time far beyond the test's own timeout: a start that waited it out could not pass.
    limits: { serverStartMs: 2 * settleMs, serverSettleMs: settleMs },
    onLine: () => {},
    onStart: () => {},
  });
}

describe("startServer", () => {
  it("asks the host to watch the port, and takes its word that iperf3 listens without waiting out the settle time", async () => {
    const { remote, started } = remoteWith((_started, markListening) => markListening());
    const outcome = await start(remote, 600_000);
    expect(started[0]!.options.listenPort).toBe(5201);
    expect(outcome.hasExited).toBe(false);
    if (outcome.hasExited) return;
    // It listens for certain: a refused client is not taken for a slow server (RunExecution's retry).
    expect(outcome.server.isListeningPresumed).toBe(false);
  });

  it("presumes a -J server listening after its settle time where the host cannot tell", async () => {
    const { remote } = remoteWith(() => {});
    setListeningWatch(false);
    try {
      const outcome = await start(remote, 50);
      expect(outcome.hasExited).toBe(false);
      if (outcome.hasExited) return;
      expect(outcome.server.isListeningPresumed).toBe(true);
    } finally {
      setListeningWatch(true);
    }
  });

  it("reports a server that could not listen (a busy port) with its own error, never as listening", async () => {
    const { remote } = remoteWith(({ callbacks, exit }) => {
      callbacks.onStdoutLine("{");
      callbacks.onStdoutLine('\t"start":\t{},');
      callbacks.onStdoutLine('\t"error":\t"error - unable to start listener for connections: Address already in use"');
      callbacks.onStdoutLine("}");
      exit(1);
    });
    const outcome = await start(remote, 600_000);
    expect(outcome.hasExited).toBe(true);
    if (!outcome.hasExited) return;
    expect(outcome.errorText).toMatch(/Address already in use/);
  });
});
