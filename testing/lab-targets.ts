/**
 * For lab tests that drive lib/ssh and agents/: lab hosts as HostTargets, and looking at the
 * processes of one lab host (its network namespace) from the outside.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { HostTarget } from "../lib/ssh/types";
import { readLabState, tbfParameters, tbfQdiscArgs } from "./lab/lab";
import type { LabBottleneck, LabHost, LabLink, LabState } from "./lab-state";

export function requireLabState(): LabState {
  const state = readLabState();
  if (!state)
    throw new Error("lab is not up: the lab project's globalSetup (testing/lab/vitest-global-setup.ts) builds it");
  return state;
}

export function labHost(state: LabState, name: string): LabHost {
  const found = state.hosts.find((h) => h.name === name);
  if (!found) throw new Error(`lab has no host ${name}`);
  return found;
}

export function labLink(state: LabState, name: string): LabLink {
  const found = state.links.find((l) => l.name === name);
  if (!found) throw new Error(`lab has no link ${name}`);
  return found;
}

/** The lab host as lib/ssh sees a user's host: key auth with the lab's client key, passed by value. */
export function labTarget(state: LabState, host: LabHost, over: Partial<HostTarget> = {}): HostTarget {
  return {
    name: host.name,
    address: host.sshHost,
    port: host.sshPort,
    username: host.username,
    auth: { method: "key", privateKey: fs.readFileSync(state.clientKeyPath, "utf8") },
    pinnedFingerprint: host.hostKeyFingerprint,
    ...over,
  };
}

/**
 * labTarget, reached through its jump host when the lab puts it behind one (`reachedThrough`), as the
 * inventory records it: `via` is the jump host's own labTarget.
 */
export function labTargetThroughJump(state: LabState, host: LabHost, over: Partial<HostTarget> = {}): HostTarget {
  const via = host.reachedThrough ? labTargetThroughJump(state, labHost(state, host.reachedThrough)) : undefined;
  return labTarget(state, host, { ...(via ? { via } : {}), ...over });
}

/** Processes inside the host's network namespace whose command line contains `needle` (pgrep would see every namespace). */
export function processesInHost(host: LabHost, needle: string): { pid: number; cmdline: string }[] {
  const res = spawnSync("ip", ["netns", "pids", host.netns], { encoding: "utf8" });
  const found: { pid: number; cmdline: string }[] = [];
  for (const line of (res.stdout ?? "").split("\n")) {
    const pid = Number.parseInt(line, 10);
    if (!(pid > 0)) continue;
    let cmdline: string;
    try {
      cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    } catch {
      continue;
    }
    if (cmdline.includes(needle)) found.push({ pid, cmdline });
  }
  return found;
}

export async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function isAcceptingTcp(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 500 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(false));
    socket.once("error", () => done(false));
  });
}

/** Stops the host's sshd (by its pid file); existing sessions keep running, new connections are refused. */
export async function stopSshd(host: LabHost): Promise<void> {
  const pid = Number.parseInt(fs.readFileSync(host.sshdPidFile, "utf8"), 10);
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + 5000;
  while (await isAcceptingTcp(host.sshHost, host.sshPort)) {
    if (Date.now() > deadline) throw new Error(`sshd of ${host.name} still listens`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts the host's sshd again the way lab.ts does, and waits until it accepts connections. */
export async function startSshd(host: LabHost): Promise<void> {
  const hostDir = path.dirname(host.sshdPidFile);
  const res = spawnSync("ip", ["netns", "exec", host.netns, ...sshdCommand(host, hostDir)], { encoding: "utf8" });
  if (res.status !== 0) throw new Error(`restarting sshd of ${host.name} failed: ${res.stderr}`);
  const deadline = Date.now() + 10_000;
  while (!(await isAcceptingTcp(host.sshHost, host.sshPort))) {
    if (Date.now() > deadline) throw new Error(`sshd of ${host.name} did not come back`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The ESXi stand-in's sshd runs in its own mount namespace: lab.ts records the exact argv it used.
function sshdCommand(host: LabHost, hostDir: string): string[] {
  const recorded = path.join(hostDir, "sshd.argv.json");
  if (fs.existsSync(recorded)) return JSON.parse(fs.readFileSync(recorded, "utf8")) as string[];
  return ["/usr/sbin/sshd", "-f", path.join(hostDir, "sshd_config"), "-E", path.join(hostDir, "sshd.log")];
}

/** The first link on which each TCP flow is capped below the link's rate (topology field flowCapMbit). */
export function flowCappedLink(state: LabState): LabLink {
  const found = state.links.find((l) => l.flowCapMbps !== null);
  if (!found)
    throw new Error(
      'lab has no flow-capped link: the default topology (testing/lab/topology.json) has one with "flowCapMbit"',
    );
  return found;
}

/** The first bottleneck that two or more links share, and those links. */
export function sharedBottleneckLinks(state: LabState): { bottleneck: LabBottleneck; links: LabLink[] } {
  for (const bottleneck of state.bottlenecks) {
    const links = state.links.filter((l) => l.bottleneck === bottleneck.name);
    if (links.length >= 2) return { bottleneck, links };
  }
  throw new Error(
    'lab has no bottleneck shared by two links: the default topology (testing/lab/topology.json) has one in "bottlenecks"',
  );
}

/**
 * `count` links that do not slow each other down: between the same two hosts, shaped to the same
 * rate and MTU, with no flow cap and no shared bottleneck. The first such group in topology order.
 */
export function independentLinks(state: LabState, count = 2): LabLink[] {
  const groups = new Map<string, LabLink[]>();
  for (const link of state.links) {
    if (link.rateMbps === null || link.flowCapMbps !== null || link.bottleneck !== null) continue;
    const key = `${link.a.host}>${link.b.host} ${link.rateMbps} ${link.mtu}`;
    const group = groups.get(key) ?? [];
    group.push(link);
    if (group.length === count) return group;
    groups.set(key, group);
  }
  throw new Error(
    `lab has no ${count} independent links (same hosts, rate and MTU, no flow cap, no bottleneck): the default topology (testing/lab/topology.json) has them`,
  );
}

/**
 * Changes the tbf rate of a plain shaped link on both ends (`tc qdisc change`), as a degraded
 * cable or a port renegotiated lower would; `setLinkRate(state, link, link.rateMbps)` restores it.
 * Only for links shaped by tbf alone (no flow cap, no shared bottleneck).
 */
export function setLinkRate(
  state: LabState,
  link: LabLink,
  rateMbps: number,
  { queueLatency }: { queueLatency?: string } = {},
): void {
  if (link.rateMbps === null || link.flowCapMbps !== null || link.bottleneck !== null) {
    throw new Error(`${link.name} is not a plain tbf-shaped link: its rate cannot be changed this way`);
  }
  // A long queue latency ("80ms") lets the shaper hold that much traffic: latency under load, bufferbloat.
  const tbf = { ...tbfParameters(`${rateMbps}mbit`), ...(queueLatency ? { latency: queueLatency } : {}) };
  for (const end of [link.a, link.b]) {
    const host = labHost(state, end.host);
    const res = spawnSync("tc", tbfQdiscArgs(host.netns, "change", end.nic, tbf), { encoding: "utf8" });
    if (res.status !== 0) throw new Error(`tc qdisc change on ${end.host}/${end.nic} failed: ${res.stderr}`);
  }
}

/**
 * Sets the MTU of one end's NIC of a lab link (an end configured differently from the other, as
 * a host whose jumbo frames were forgotten); `setNicMtu(state, link, side, link.mtu)` restores it.
 */
export function setNicMtu(state: LabState, link: LabLink, side: "a" | "b", mtu: number): void {
  const end = link[side];
  const host = labHost(state, end.host);
  const res = spawnSync("ip", ["-n", host.netns, "link", "set", "dev", end.nic, "mtu", String(mtu)], {
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`setting the MTU of ${end.host}/${end.nic} to ${mtu} failed: ${res.stderr}`);
}
