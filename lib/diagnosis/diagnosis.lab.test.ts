// Diagnosis of real runs on the lab: the environment of real Linux namespace hosts read over real
// SSH, an MTU mismatch found by the hints, and latency under load on a link whose shaper queues
// deeply (a tbf with an 80 ms queue at 500 Mbit/s: the lab cannot add delay, but it can bloat).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabLink, LabState } from "@/testing/lab-state";
import { labLink, requireLabState, setLinkRate, setNicMtu } from "@/testing/lab-targets";
import { openTestApi } from "@/testing/test-api";
import { getApp } from "@/lib/app";
import { seedLabInventory } from "@/testing/lab-inventory";
import { closeAll } from "@/lib/ssh";
import { bufferbloatGrade } from "@/lib/runs/latency";

const api = await openTestApi();
const runEngine = getApp().runs;

// A plain tbf-shaped link that no other test of this file uses while it is changed here.
const LINK = "gd-indep-2";

let state: LabState;
let link: LabLink;
let linkIds: Record<string, number>;

async function runOn(name: string, body: Record<string, unknown>) {
  const started = await api.json("POST", `/api/links/${linkIds[name]}/runs`, body);
  expect(started.status, started.text).toBe(202);
  await runEngine.waitForRun(started.body.id);
  const run = await api.json("GET", `/api/runs/${started.body.id}`);
  expect(run.status).toBe(200);
  return run.body;
}

beforeAll(async () => {
  state = requireLabState();
  link = labLink(state, LINK);
  ({ linkIds } = await seedLabInventory(state));
});

afterAll(async () => {
  setLinkRate(state, link, link.rateMbps!);
  setNicMtu(state, link, "b", link.mtu);
  await closeAll();
  await api.close();
});

describe("diagnosis on the lab", () => {
  it("stores the environment of both ends, read from the real namespace hosts", async () => {
    const run = await runOn("ab-1g", { duration: 2 });
    expect(run.status).toBe("succeeded");
    const ab = labLink(state, "ab-1g");
    for (const [role, end] of [
      ["client", ab.a],
      ["server", ab.b],
    ] as const) {
      const snapshot = run.environment[role];
      expect(snapshot.platform).toBe("linux");
      expect(snapshot.kernel).toMatch(/^\d+\.\d+/);
      expect(snapshot.iperf3Version).toMatch(/^3\.\d+/);
      expect(snapshot.cpu.cores).toBeGreaterThan(0);
      expect(snapshot.tcp.congestionControl).toMatch(/^[a-z0-9_]+$/);
      expect(snapshot.tcp.rmemMax).toBeGreaterThan(0);
      expect(snapshot.tcp.tcpRmem).toHaveLength(3);
      expect(snapshot.nic).toMatchObject({ name: end.nic, driver: "veth", mtu: ab.mtu });
      // ethtool reads a veth's offloads: GSO is on by default
      expect(snapshot.nic.offloads.gso).toBe(true);
    }
    expect(run.hints.map((hint: { id: string }) => hint.id)).not.toContain("mtu-mismatch");
  });

  it('says "MTU mismatch" when the two ends of a link differ, and not once they agree again', async () => {
    setNicMtu(state, link, "b", 1500);
    const mismatched = await runOn(LINK, { duration: 2 });
    setNicMtu(state, link, "b", link.mtu);
    expect(mismatched.status).toBe("succeeded");
    expect(mismatched.environment.client.nic.mtu).toBe(link.mtu);
    expect(mismatched.environment.server.nic.mtu).toBe(1500);
    const whileMismatched = await api.json("GET", `/api/links/${linkIds[LINK]}/hints`);
    expect(whileMismatched.body.hints.find((entry: { id: string }) => entry.id === "mtu-mismatch")?.source).toEqual({
      kind: "run",
      id: mismatched.id,
    });
    const hint = mismatched.hints.find((entry: { id: string }) => entry.id === "mtu-mismatch");
    expect(hint?.evidence).toMatch(/1500/);
    expect(hint?.evidence).toMatch(new RegExp(String(link.mtu)));

    const matched = await runOn(LINK, { duration: 2 });
    expect(matched.hints.map((entry: { id: string }) => entry.id)).not.toContain("mtu-mismatch");

    // The link's findings say how it is set up now, from its newest run: the mismatch is gone.
    const linkHints = await api.json("GET", `/api/links/${linkIds[LINK]}/hints`);
    expect(linkHints.status).toBe(200);
    expect(linkHints.body.hints.map((entry: { id: string }) => entry.id)).not.toContain("mtu-mismatch");
  });

  it("measures latency idle and under load on a deep queue, and grades the bloat", async () => {
    setLinkRate(state, link, 500, { queueLatency: "80ms" });
    const run = await runOn(LINK, { duration: 8, parallel: 8, latency: true });
    setLinkRate(state, link, link.rateMbps!);
    expect(run.status, JSON.stringify(run.error)).toBe("succeeded");
    const latency = run.latency;
    expect(latency.idleMedianMs).toBeLessThan(2);
    expect(latency.loadedMedianMs).toBeGreaterThan(3 * latency.idleMedianMs);
    expect(latency.loadedMedianMs).toBeGreaterThan(latency.idleMedianMs + 2);
    expect(latency.grade).toBe(bufferbloatGrade(latency.loadedMedianMs - latency.idleMedianMs));
    expect(latency.grade).not.toBe("A");

    const samples = (await api.json("GET", `/api/runs/${run.id}/latency`)).body.samples as Array<{
      t: number;
      rttMs: number | null;
      phase: string;
    }>;
    const idle = samples.filter((sample) => sample.phase === "idle");
    const loaded = samples.filter((sample) => sample.phase === "loaded");
    // 5 s idle at 0.2 s, then 8 s of traffic: about 25 and 40 pings, on the throughput chart's time axis
    expect(idle.length).toBeGreaterThanOrEqual(20);
    expect(loaded.length).toBeGreaterThanOrEqual(30);
    expect(idle.every((sample) => sample.t < 0 && sample.t >= -6)).toBe(true);
    expect(loaded.every((sample) => sample.t >= 0 && sample.t <= 10)).toBe(true);
    expect(latency.sent).toBe(samples.length);
    // The run's client pinged the server's link address, from the client's own
    expect(run.environment.client.missing.join(" ")).not.toMatch(/latency/);
  });

  it("a run without latency sends no ping", async () => {
    const run = await runOn("ab-1g", { duration: 1 });
    expect(run.latency).toBeUndefined();
    expect((await api.json("GET", `/api/runs/${run.id}/latency`)).body.samples).toEqual([]);
  });
});
