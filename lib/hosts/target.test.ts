// hostTarget's chain: a host read with HOST_FOR_TARGET becomes a target whose `via` is its jump host's
// own target, each hop with its own credentials and pinned key.
import { describe, expect, it, vi } from "vitest";
import type { Host } from "@/lib/generated/prisma/client";
import { HOST_FOR_TARGET, HostKeyNotConfirmedError, hostTarget, type HostWithJumps } from "./target";

// The stored secret is sealed in the app; here it is the plain JSON the sealing wraps.
vi.mock("@/lib/inventory/secrets", () => ({
  openSecret: (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString("utf8")) as object,
}));

let nextId = 1;

function host(name: string, over: Partial<Host> = {}, jumpHost?: HostWithJumps): HostWithJumps {
  const id = nextId++;
  const row: Host = {
    id,
    name,
    address: `192.0.2.${id}`,
    sshPort: 22,
    username: "root",
    authMethod: "key",
    secret: Buffer.from(JSON.stringify({ privateKey: `key of ${name}` })),
    platform: "linux",
    iperf3Path: null,
    iperf3Version: null,
    hostKeyFingerprint: `SHA256:pin-of-${name}`,
    iperfPortMin: 5201,
    iperfPortMax: 5299,
    openFirewall: false,
    lastSeenAt: null,
    reachable: null,
    checkedAt: null,
    notes: "",
    access: "ssh",
    jumpHostId: jumpHost?.id ?? null,
    kind: null,
    tags: [],
    site: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...over,
  };
  return jumpHost ? { ...row, jumpHost } : { ...row, jumpHost: null };
}

describe("HOST_FOR_TARGET", () => {
  it("reads each jump host with its secret, three hops deep", () => {
    let level: { omit?: unknown; include?: { jumpHost: unknown } } = HOST_FOR_TARGET;
    let depth = 0;
    while (level.include) {
      expect(level.omit).toEqual({ secret: false });
      level = level.include.jumpHost as typeof level;
      depth += 1;
      expect(level.omit).toEqual({ secret: false });
    }
    expect(depth).toBe(3);
  });
});

describe("hostTarget", () => {
  it("builds a host reached directly without via", () => {
    const target = hostTarget(host("alpha"));
    expect(target).toMatchObject({ name: "alpha", auth: { method: "key", privateKey: "key of alpha" } });
    expect(target.via).toBeUndefined();
  });

  it("puts the jump host's own target, credentials and pin in via, hop by hop", () => {
    const first = host("first", { authMethod: "password", secret: Buffer.from(JSON.stringify({ password: "pw1" })) });
    const second = host("second", { username: "admin", sshPort: 2222 }, first);
    const behind = host("behind", {}, second);
    const target = hostTarget(behind);
    expect(target.name).toBe("behind");
    expect(target.pinnedFingerprint).toBe("SHA256:pin-of-behind");
    expect(target.via).toMatchObject({
      name: "second",
      address: second.address,
      port: 2222,
      username: "admin",
      auth: { method: "key", privateKey: "key of second" },
      pinnedFingerprint: "SHA256:pin-of-second",
    });
    expect(target.via?.via).toMatchObject({
      name: "first",
      auth: { method: "password", password: "pw1" },
      pinnedFingerprint: "SHA256:pin-of-first",
    });
    expect(target.via?.via?.via).toBeUndefined();
  });

  it("takes a chain of three jump hosts", () => {
    const one = host("one");
    const two = host("two", {}, one);
    const three = host("three", {}, two);
    const names: string[] = [];
    for (let hop: ReturnType<typeof hostTarget> | undefined = hostTarget(host("end", {}, three)); hop; hop = hop.via)
      names.push(hop.name);
    expect(names).toEqual(["end", "three", "two", "one"]);
  });

  it("refuses a jump host whose key is not pinned, naming that hop, even on first contact", () => {
    const jump = host("jumpy", { hostKeyFingerprint: null });
    const behind = host("behind", {}, jump);
    for (const allowUnpinned of [false, true]) {
      const call = () => hostTarget(behind, { allowUnpinned });
      expect(call).toThrow(HostKeyNotConfirmedError);
      expect(call).toThrow(/host key of jumpy \(the jump host of behind\) is not confirmed/);
    }
  });

  it("lets the first-contact check read the unpinned key of the host behind a pinned jump host", () => {
    const target = hostTarget(host("behind", { hostKeyFingerprint: null }, host("jumpy")), { allowUnpinned: true });
    expect(target.pinnedFingerprint).toBeNull();
    expect(target.via?.pinnedFingerprint).toBe("SHA256:pin-of-jumpy");
    expect(() => hostTarget(host("behind2", { hostKeyFingerprint: null }, host("jumpy2")))).toThrow(
      /host key of behind2 is not confirmed/,
    );
  });

  it("refuses a host whose jump host was not read, rather than dial it directly", () => {
    const row = { ...host("behind"), jumpHostId: 999 };
    expect(() => hostTarget(row)).toThrow(/reached through host 999, which was not read/);
    const withoutRelation: HostWithJumps = { ...row };
    delete withoutRelation.jumpHost;
    expect(() => hostTarget(withoutRelation)).toThrow(/which was not read/);
  });

  it("refuses a chain deeper than three hops and a loop", () => {
    const deep = host("h4", {}, host("h3", {}, host("h2", {}, host("h1", {}, host("h0")))));
    expect(() => hostTarget(deep)).toThrow(/longer than 3/);
    const loopEnd = host("loop");
    const looped = host("loop-start", {}, { ...loopEnd, name: "loop-start" });
    expect(() => hostTarget(looped)).toThrow(/loop/);
  });

  it("refuses this machine as a jump host", () => {
    const local = host("here", { authMethod: "local", secret: null, hostKeyFingerprint: null });
    expect(() => hostTarget(host("behind", {}, local))).toThrow(/this machine is not reached over SSH/);
  });
});

describe("hosts Wirespeed does not log in to", () => {
  it("have no target: an iperf3 server and a device are refused with 409, saying what to do instead", () => {
    for (const [access, words] of [
      ["iperf3-server", /isp is an iperf3 server: Wirespeed does not log in to it/],
      ["device", /isp is a device: Wirespeed does not log in to it/],
    ] as const) {
      const refusal = (() => {
        try {
          hostTarget(host("isp", { access, authMethod: "none", secret: null, hostKeyFingerprint: null }));
        } catch (error) {
          return error;
        }
      })();
      expect(refusal).toMatchObject({ kind: "conflict", message: expect.stringMatching(words), hint: /by hand/ });
    }
  });
});
