import { describe, expect, it } from "vitest";
import { classifyConnectError, HostKeyMismatchError } from "./errors";

const context = { host: "nas1", where: "nas1 (10.0.0.5:22)", timeoutMs: 10_000, pinned: null, presented: null };

describe("classifyConnectError", () => {
  it("names both fingerprints when the presented key differs from the pinned one", () => {
    const err = classifyConnectError(new Error("Host denied (verification failed)"), {
      ...context,
      pinned: "SHA256:aaa",
      presented: "SHA256:bbb",
    });
    expect(err).toBeInstanceOf(HostKeyMismatchError);
    expect(err.kind).toBe("host-key");
    expect(err.message).toBe(
      "host key of nas1 changed: pinned SHA256:aaa, presented SHA256:bbb; if the host was reinstalled, re-pin it",
    );
  });

  it("sorts ssh2's errors into auth, unreachable and timeout", () => {
    const auth = Object.assign(new Error("All configured authentication methods failed"), {
      level: "client-authentication",
    });
    expect(classifyConnectError(auth, context).kind).toBe("auth");
    expect(
      classifyConnectError(
        new Error("Cannot parse privateKey: Encrypted private key detected, but no passphrase given"),
        context,
      ).kind,
    ).toBe("auth");
    for (const code of ["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]) {
      expect(classifyConnectError(Object.assign(new Error(code), { code }), context).kind).toBe("unreachable");
    }
    const timeout = Object.assign(new Error("Timed out while waiting for handshake"), { level: "client-timeout" });
    const err = classifyConnectError(timeout, context);
    expect(err.kind).toBe("timeout");
    expect(err.message).toBe("no SSH handshake with nas1 (10.0.0.5:22) within 10000 ms");
    expect(classifyConnectError(new Error("something else"), context).kind).toBe("unknown");
  });

  it("never puts key material into a message", () => {
    const leaky = new Error(
      "Malformed key -----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----",
    );
    const err = classifyConnectError(leaky, context);
    expect(err.message).not.toContain("AAAA");
    expect(err.message).toContain("[key]");
  });
});
