import { describe, expect, it } from "vitest";
import { classifyIperfError, isErrorLine, isNoiseLine } from "./errors";

describe("classifyIperfError", () => {
  it.each([
    ["iperf3: error - unable to connect to server: Connection refused", "connection-refused"],
    [
      "iperf3: error - unable to connect to server - server may have stopped running or use a different port, firewall issue, etc.: Connection refused",
      "connection-refused",
    ],
    ["iperf3: error - the server is busy running a test. try again later", "server-busy"],
    ["iperf3: error - unable to start listener for connections: Address already in use", "listener-failed"],
    ["iperf3: error - unable to start listener for connections: Operation not permitted", "listener-failed"],
    ["iperf3: error - control socket has closed unexpectedly", "control-socket-closed"],
    ["iperf3: error - unable to write to stream socket: Broken pipe", "control-socket-closed"],
    ["iperf3: error - unable to write to stream socket: Connection reset by peer", "control-socket-closed"],
    ["iperf3: parameter error - number of parallel streams too large (maximum = 128)", "parameter"],
    ["iperf3: interrupt - the client has terminated", "interrupted"],
    ["iperf3: the client has terminated", "interrupted"],
    ["interrupt - the client has terminated", "interrupted"],
    ["bash: line 1: iperf3: command not found", "not-found"],
    ["/bin/sh: 1: iperf3: not found", "not-found"],
    ["sh: /usr/lib/vmware/vsan/bin/iperf3: not found", "not-found"],
    ["'iperf3' is not recognized as an internal or external command,", "not-found"],
    ["iperf3: error - idle timeout for receiving data", "timeout"],
    ["iperf3: error - unable to connect to server: Connection timed out", "timeout"],
    [
      "iperf3: error - unable to set TCP_CONGESTION: Supplied congestion control algorithm not supported on this host",
      "unknown",
    ],
  ])("%s → %s", (message, kind) => {
    const error = classifyIperfError(message);
    expect(error.kind).toBe(kind);
    expect(error.message).toBe(message);
    expect(error.hint.length).toBeGreaterThan(20);
  });

  it("gives the ESXi copy hint for Operation not permitted, another for a port in use", () => {
    expect(
      classifyIperfError("iperf3: error - unable to start listener for connections: Operation not permitted").hint,
    ).toContain("cp /usr/lib/vmware/vsan/bin/iperf3 /usr/lib/vmware/vsan/bin/iperf3.copy");
    expect(
      classifyIperfError("iperf3: error - unable to start listener for connections: Address already in use").hint,
    ).toMatch(/already listens on that port/);
  });

  it("gives the install hint of the host's platform for not-found", () => {
    expect(classifyIperfError("bash: iperf3: command not found", "linux").hint).toContain("apt install iperf3");
    expect(
      classifyIperfError("'iperf3' is not recognized as an internal or external command,", "windows").hint,
    ).toContain("iperf3.exe");
    expect(classifyIperfError("sh: iperf3: not found", "esxi").hint).toContain("/usr/lib/vmware/vsan/bin/iperf3");
  });

  it("trims the message but keeps its wording", () => {
    expect(classifyIperfError("  iperf3: error - control socket has closed unexpectedly\n").message).toBe(
      "iperf3: error - control socket has closed unexpectedly",
    );
  });
});

describe("isNoiseLine and isErrorLine", () => {
  it("treats ESXi's getsockopt complaint and the farewell as noise", () => {
    expect(isNoiseLine("iperf3: getsockopt - Function not implemented")).toBe(true);
    expect(isNoiseLine("iperf3: exiting")).toBe(true);
    expect(isErrorLine("iperf3: getsockopt - Function not implemented")).toBe(false);
    expect(isErrorLine("iperf3: exiting")).toBe(false);
  });

  it("recognises iperf3's and the shell's error lines only", () => {
    expect(isErrorLine("iperf3: error - the server is busy running a test. try again later")).toBe(true);
    expect(isErrorLine("bash: iperf3: command not found")).toBe(true);
    expect(isErrorLine("[  5]   0.00-1.00   sec  1.36 GBytes  11.7 Gbits/sec    0   1.12 MBytes")).toBe(false);
    expect(isErrorLine("iperf Done.")).toBe(false);
  });
});
