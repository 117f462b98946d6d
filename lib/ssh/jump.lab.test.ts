/**
 * Jump hosts against real sshd in the lab: `hidden`'s sshd is reachable only from inside `gamma`'s
 * namespace, so Wirespeed reaches it as OpenSSH's ProxyJump does, through gamma's pooled connection.
 * The host check, NIC discovery, runs and their cancel all go through the same target.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { posixCommand } from "@/agents/posix";
import { checkHost } from "@/lib/hosts/check";
import { discoverNics } from "@/lib/hosts/discover";
import { HOST_FOR_TARGET, hostTarget } from "@/lib/hosts/target";
import { updateHost } from "@/lib/inventory/hosts";
import { RunEventBus } from "@/lib/runs/bus";
import { RunEngine } from "@/lib/runs/engine";
import { agentRunRemote } from "@/lib/runs/remote-agents";
import { parseRunRequest } from "@/lib/runs/request";
import {
  closeAll,
  closeHost,
  connectHost,
  execCapture,
  getConnection,
  poolSize,
  readHostKey,
  type HostTarget,
} from "@/lib/ssh";
import { sshErrorOf } from "@/testing/ssh-error";
import { openLabDatabase } from "@/testing/lab-database";
import { labHost, labLink, labTarget, labTargetThroughJump, processesInHost, waitFor } from "@/testing/lab-targets";
import type { LabHost } from "@/testing/lab-state";
import { runToEnd } from "@/testing/run-to-end";

const { db, state, hostIds, linkIds } = await openLabDatabase();
const gamma = labHost(state, "gamma");
const hidden = labHost(state, "hidden");
const bus = new RunEventBus();
const engine = new RunEngine(agentRunRemote, bus);

/** The target of a stored host, read as every connection-making query reads it. */
async function storedTarget(name: string): Promise<HostTarget> {
  return hostTarget(await db.host.findUniqueOrThrow({ where: { id: hostIds[name]! }, ...HOST_FOR_TARGET }));
}

/** How many connections a lab host's sshd logged (LogLevel VERBOSE: "Connection from ..."). */
function sshdConnectionsLogged(host: LabHost): number {
  const log = path.join(path.dirname(host.sshdPidFile), "sshd.log");
  return fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.includes("Connection from")).length;
}

/** Established TCP connections whose local port is the sshd's, inside a lab host's namespace. */
function sshSessionsIn(netns: string): number {
  const res = spawnSync("ip", ["netns", "exec", netns, "ss", "-Htn", "state", "established", "( sport = :22 )"], {
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`ss in ${netns} failed: ${res.stderr}`);
  return res.stdout.split("\n").filter((line) => line.trim() !== "").length;
}

async function runOn(body: Record<string, unknown>) {
  const id = await runToEnd(engine, linkIds["a-hidden"]!, body);
  return db.run.findUniqueOrThrow({ where: { id } });
}

describe("reaching hidden", () => {
  it("fails from this machine directly: hidden's sshd never sees the connection", async () => {
    const before = sshdConnectionsLogged(hidden);
    const error = await sshErrorOf(connectHost(labTarget(state, hidden), { connectTimeoutMs: 3000 }));
    // The lab routes hidden's management network to nowhere on this machine: refused at once, nothing sent out.
    expect(error.kind).toBe("unreachable");
    expect(error.host).toBe("hidden");
    expect(error.message).not.toMatch(/host key|authentication/);
    expect(sshdConnectionsLogged(hidden)).toBe(before);
    expect(poolSize()).toBe(0);
  });

  it("works through gamma, the command running in hidden's namespace", async () => {
    const target = await storedTarget("hidden");
    expect(target.via).toMatchObject({ name: "gamma", pinnedFingerprint: gamma.hostKeyFingerprint });
    expect(await connectHost(target)).toEqual({ fingerprint: hidden.hostKeyFingerprint });
    const output = await execCapture(target, posixCommand(["ip", "-o", "-4", "addr", "show", "dev", "mgmt0"]));
    expect(output.exitCode).toBe(0);
    expect(output.stdout).toContain(`inet ${hidden.sshHost}/`);
  });

  it("reads hidden's key on first contact through gamma, logging in to gamma only", async () => {
    const target = labTargetThroughJump(state, hidden, { pinnedFingerprint: null });
    expect(await readHostKey(target)).toBe(hidden.hostKeyFingerprint);
    await expect(connectHost(target)).rejects.toMatchObject({ kind: "host-key", host: "hidden" });
  });

  it("shares one connection to gamma between gamma's own commands and two hosts behind it", async () => {
    await closeAll();
    const gammaTarget = labTarget(state, gamma);
    const hiddenTarget = labTargetThroughJump(state, hidden);
    // The same sshd under another name: another host in the pool, behind the same jump host.
    const hiddenAgain = labTargetThroughJump(state, hidden, { name: "hidden-again" });
    const outputs = await Promise.all([
      execCapture(gammaTarget, posixCommand(["true"])),
      execCapture(hiddenTarget, posixCommand(["true"])),
      execCapture(hiddenTarget, posixCommand(["true"])),
      execCapture(hiddenAgain, posixCommand(["true"])),
    ]);
    expect(outputs.map((o) => o.exitCode)).toEqual([0, 0, 0, 0]);
    expect(poolSize()).toBe(3);
    expect(await getConnection(gammaTarget)).toBe(await getConnection(hiddenTarget.via!));
    // gamma's sshd: one session (this machine); hidden's: two (through gamma's channels)
    expect(sshSessionsIn(gamma.netns)).toBe(1);
    expect(sshSessionsIn(hidden.netns)).toBe(2);
  });

  it("loses the connections through gamma when gamma's is closed", async () => {
    const hiddenTarget = labTargetThroughJump(state, hidden);
    const through = await getConnection(hiddenTarget);
    await closeHost(labTarget(state, gamma));
    expect(through.isClosed()).toBe(true);
    // hidden's and hidden-again's went first, then gamma's
    expect(poolSize()).toBe(0);
  });
});

describe("hidden in the inventory, behind gamma", () => {
  it("passes the host check: key, platform and iperf3, found through gamma", async () => {
    const check = await checkHost(hostIds.hidden!);
    expect(check.error).toBeNull();
    expect(check).toMatchObject({
      reachable: true,
      hostKey: { status: "pinned", presented: hidden.hostKeyFingerprint },
      platform: "linux",
      iperf3: { version: expect.stringMatching(/^3\./) },
    });
  });

  it("shows hidden's key on first contact, through the pinned gamma", async () => {
    await db.host.update({ where: { id: hostIds.hidden! }, data: { hostKeyFingerprint: null } });
    try {
      const check = await checkHost(hostIds.hidden!);
      expect(check.hostKey).toEqual({ status: "unconfirmed", presented: hidden.hostKeyFingerprint, pinned: null });
    } finally {
      await db.host.update({ where: { id: hostIds.hidden! }, data: { hostKeyFingerprint: hidden.hostKeyFingerprint } });
    }
  });

  it("discovers hidden's NICs, the one of link a-hidden with its address", async () => {
    const end = labLink(state, "a-hidden").b;
    const nics = await discoverNics(hostIds.hidden!);
    const nic = nics.find((n) => n.name === end.nic);
    expect(nic?.addresses).toContain(
      `${end.address}/${labHost(state, "hidden").nics.find((n) => n.name === end.nic)!.prefixLength}`,
    );
    expect(nics.map((n) => n.name)).toContain("mgmt0");
  });

  it("runs iperf3 over a-hidden at close to its 1 Gbit/s, client on hidden", async () => {
    const run = await runOn({ duration: 4, clientSide: "b" });
    expect(run.errorMessage).toBeNull();
    expect(run.status).toBe("succeeded");
    console.log(`a-hidden, client on hidden: ${(run.receivedBitsPerSecond! / 1e6).toFixed(1)} Mbit/s received`);
    expect(run.receivedBitsPerSecond).toBeGreaterThan(700e6);
    // the traffic flows between the link's NICs, not through gamma
    expect(run.clientCommand).toContain(` -B ${labLink(state, "a-hidden").b.address}`);
  });

  it("runs the reverse too: server on hidden, hidden sending", async () => {
    const run = await runOn({ duration: 4, direction: "b-to-a" });
    expect(run.errorMessage).toBeNull();
    expect(run.status).toBe("succeeded");
    console.log(`a-hidden, hidden sending to alpha: ${(run.receivedBitsPerSecond! / 1e6).toFixed(1)} Mbit/s received`);
    expect(run.receivedBitsPerSecond).toBeGreaterThan(700e6);
    expect(run.serverCommand).toContain(` -B ${labLink(state, "a-hidden").b.address}`);
  });

  it("cancels a run mid-way, leaving no iperf3 in hidden's namespace", async () => {
    const request = parseRunRequest({ duration: 30, clientSide: "b" });
    const started = await engine.startRun({
      linkId: linkIds["a-hidden"]!,
      options: request.options,
      clientSide: request.clientSide,
    });
    let samples = 0;
    const unsubscribe = bus.subscribe(started.id, 0, (event) => {
      if (event.type === "sample") samples += 1;
    });
    try {
      await waitFor(() => samples >= 2, 20_000, "2 samples");
    } finally {
      unsubscribe?.();
    }
    expect(processesInHost(hidden, "iperf3").length).toBeGreaterThan(0);
    expect(await engine.cancelRun(started.id)).toBe("cancelled");
    expect((await db.run.findUniqueOrThrow({ where: { id: started.id } })).status).toBe("cancelled");
    await waitFor(() => processesInHost(hidden, "iperf3").length === 0, 5000, "no iperf3 left on hidden");
    expect(processesInHost(labHost(state, "alpha"), "iperf3")).toEqual([]);
  });

  it("refuses hidden when gamma's pinned key changed, naming gamma", async () => {
    await closeAll();
    // another valid fingerprint: alpha's
    const other = labHost(state, "alpha").hostKeyFingerprint;
    await updateHost(hostIds.gamma!, { hostKeyFingerprint: other });
    try {
      const error = await sshErrorOf(execCapture(await storedTarget("hidden"), posixCommand(["true"])));
      expect(error).toMatchObject({
        kind: "host-key",
        host: "gamma",
        pinned: other,
        presented: gamma.hostKeyFingerprint,
      });
      expect(error.message).toMatch(/^host key of gamma changed/);
      const check = await checkHost(hostIds.hidden!);
      expect(check.reachable).toBe(false);
      expect(check.error).toMatchObject({
        kind: "host-key",
        message: expect.stringMatching(/host key of gamma changed/),
      });
      // hidden's own key was never seen, so it is not reported as changed
      expect(check.hostKey.status).toBe("pinned");
    } finally {
      await updateHost(hostIds.gamma!, { hostKeyFingerprint: gamma.hostKeyFingerprint });
    }
    expect(await connectHost(await storedTarget("hidden"))).toEqual({ fingerprint: hidden.hostKeyFingerprint });
  });
});
