import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { HostKeyNotConfirmedError } from "@/lib/hosts/target";
import { InventoryError } from "@/lib/inventory/errors";
import { IperfOptionError } from "@/lib/iperf";
import { RunError, runFailureOf } from "@/lib/runs/errors";
import { PortExhaustedError } from "@/lib/runs/ports";
import { SshConnectionLostError, SshTimeoutError, SshUnreachableError } from "@/lib/ssh/errors";

describe("runFailureOf", () => {
  it("keeps a RunError's kind, message and hint, an empty hint included", () => {
    expect(runFailureOf(new RunError("cancelled", "Cancelled before the test started."), "linux")).toEqual({
      kind: "cancelled",
      message: "Cancelled before the test started.",
      hint: "",
    });
    expect(
      runFailureOf(
        new RunError("timeout", "The test did not end within 40 s.", { hint: "The link or a host stalled." }),
        "linux",
      ),
    ).toEqual({
      kind: "timeout",
      message: "The test did not end within 40 s.",
      hint: "The link or a host stalled.",
    });
    expect(
      runFailureOf(new RunError("timeout", "The iperf3 server on b did not start listening within 10 s."), "linux")
        .hint,
    ).toBe("");
  });

  it("gives an SSH error the hint of its kind", () => {
    expect(
      runFailureOf(new SshUnreachableError("cannot reach b (198.18.0.2:22): no route to host", { host: "b" }), "linux"),
    ).toEqual({
      kind: "unreachable",
      message: "cannot reach b (198.18.0.2:22): no route to host",
      hint: "Check that the host is up, that sshd runs there and that its address and SSH port are right.",
    });
    expect(runFailureOf(new SshTimeoutError("no SSH handshake", { host: "b" }), "linux").hint).toMatch(
      /did not answer in time/,
    );
    expect(runFailureOf(new SshConnectionLostError("connection lost", { host: "b" }), "linux").hint).toMatch(
      /samples received so far are kept/,
    );
  });

  it("keeps the hint an error brings", () => {
    expect(
      runFailureOf(new HostKeyNotConfirmedError("the SSH host key of b is not confirmed yet"), "linux"),
    ).toMatchObject({
      kind: "host-key",
      hint: "Test the connection on the host's page and confirm the fingerprint it shows.",
    });
    expect(
      runFailureOf(
        new IperfOptionError("--bidir needs iperf3 3.7 or newer; host b has 3.6", { field: "bidir" }),
        "linux",
      ),
    ).toEqual({
      kind: "parameter",
      message: "--bidir needs iperf3 3.7 or newer; host b has 3.6",
      hint: "Choose options this host's iperf3 supports, or upgrade iperf3 there.",
    });
    expect(runFailureOf(new AppError("server-busy", "busy", { hint: "wait" }), "linux").hint).toBe("wait");
  });

  it("has no hint for a kind without one", () => {
    expect(
      runFailureOf(new PortExhaustedError("every iperf3 port of b (5201-5201) is in use or busy"), "linux"),
    ).toMatchObject({
      kind: "ports-exhausted",
      hint: "",
    });
    expect(runFailureOf(new InventoryError("invalid", "NIC eth0 of b has no address"), "linux")).toMatchObject({
      kind: "invalid",
      hint: "",
    });
  });

  it("classifies anything else as iperf3's or the shell's own text, with the platform's hint", () => {
    expect(runFailureOf(new Error("bash: line 1: iperf3: command not found"), "linux")).toMatchObject({
      kind: "not-found",
      hint: expect.stringContaining("apt install iperf3"),
    });
    expect(runFailureOf("iperf3: error - the server is busy running a test. try again later", "linux")).toMatchObject({
      kind: "server-busy",
    });
    expect(runFailureOf(undefined, "linux")).toMatchObject({ kind: "unknown", message: "undefined" });
  });
});
