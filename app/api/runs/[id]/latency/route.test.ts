import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyEnvironment, type EnvironmentSnapshot } from "@/lib/diagnosis/contract";
import { openTestApi, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { storedRunOptions } from "@/testing/run-options";

// The diagnosis of stored runs through the REST API: a run's environment, hints and latency on
// GET /api/runs/:id, its pings on GET /api/runs/:id/latency, a link's findings on
// GET /api/links/:id/hints. Runs are written as the engine leaves them; the engine writing them is
// lib/runs/diagnosis.test.ts and, on real hosts, lib/diagnosis/diagnosis.lab.test.ts.

let api: TestApi;
let linkId = 0;
let runId = 0;
let plainRunId = 0;

function snapshot(mtu: number): EnvironmentSnapshot {
  return {
    ...emptyEnvironment("linux"),
    readAt: "2026-12-01T00:00:00.000Z",
    iperf3Version: "3.12",
    kernel: "6.1.0-18-amd64",
    nic: {
      name: "eth0",
      driver: "ixgbe",
      driverVersion: "5.19",
      firmware: null,
      speedMbps: 10_000,
      duplex: "full",
      mtu,
      pcie: null,
      siblingPorts: [],
      offloads: { tso: true, gso: true, gro: true, lro: false },
      rings: null,
    },
  };
}

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["dg-a", "dg-b"]);
  linkId = await postLink(api, hosts, { name: "eth0", speedMbps: 10_000, mtu: 9000 }, { name: "dg-link" });
  const run = await api.db.run.create({
    data: {
      linkId,
      status: "succeeded",
      clientSide: "a",
      signature: "tcp a-to-b P1",
      options: storedRunOptions({ latency: true }),
      receivedBitsPerSecond: 9.4e9,
      sentBitsPerSecond: 9.4e9,
      sentBytes: 11.75e9,
      retransmits: 0,
      environment: { client: snapshot(9000), server: snapshot(1500) },
      latencyIdleMedianMs: 0.2,
      latencyIdleP95Ms: 0.3,
      latencyLoadedMedianMs: 40.2,
      latencyLoadedP95Ms: 55,
      latencyGrade: "C",
      latencySent: 3,
      latencyLost: 1,
      latencySamples: {
        create: [
          { seq: 0, t: -4.8, rttMs: 0.2, phase: "idle" },
          { seq: 2, t: 0.4, rttMs: null, phase: "loaded" },
          { seq: 1, t: 0.2, rttMs: 40.2, phase: "loaded" },
        ],
      },
    },
  });
  runId = run.id;
  plainRunId = (
    await api.db.run.create({
      data: { linkId, status: "succeeded", clientSide: "a", options: storedRunOptions(), receivedBitsPerSecond: 9.4e9 },
    })
  ).id;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

describe("GET /api/runs/:id", () => {
  it("gives both ends' environment, the hints drawn from them, and the latency summary", async () => {
    const { status, body } = await api.json("GET", `/api/runs/${runId}`);
    expect(status).toBe(200);
    expect(body.environment.client.nic.mtu).toBe(9000);
    expect(body.environment.server.nic.mtu).toBe(1500);
    expect(body.hints.map((hint: { id: string }) => hint.id)).toContain("mtu-mismatch");
    for (const hint of body.hints)
      expect(Object.keys(hint).sort()).toEqual(["evidence", "id", "severity", "suggestion", "title"]);
    expect(body.latency).toEqual({
      idleMedianMs: 0.2,
      idleP95Ms: 0.3,
      loadedMedianMs: 40.2,
      loadedP95Ms: 55,
      grade: "C",
      sent: 3,
      lost: 1,
    });
  });

  it("gives no latency, and null snapshots, for a run without them", async () => {
    const { body } = await api.json("GET", `/api/runs/${plainRunId}`);
    expect(body.environment).toEqual({ client: null, server: null });
    expect(body.latency).toBeUndefined();
    expect(Array.isArray(body.hints)).toBe(true);
  });
});

describe("GET /api/runs/:id/latency", () => {
  it("gives the pings in time order, a lost one with rttMs null", async () => {
    const { status, body } = await api.json("GET", `/api/runs/${runId}/latency`);
    expect(status).toBe(200);
    expect(body).toEqual({
      samples: [
        { t: -4.8, rttMs: 0.2, phase: "idle" },
        { t: 0.2, rttMs: 40.2, phase: "loaded" },
        { t: 0.4, rttMs: null, phase: "loaded" },
      ],
    });
  });

  it("is empty for a run without latency, and 404 for a run that does not exist", async () => {
    expect((await api.json("GET", `/api/runs/${plainRunId}/latency`)).body).toEqual({ samples: [] });
    const missing = await api.json("GET", "/api/runs/999999/latency");
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("Run 999999 does not exist.");
  });
});

describe("GET /api/links/:id/hints", () => {
  it("gives the findings of the link's latest runs, each with its source", async () => {
    const { status, body } = await api.json("GET", `/api/links/${linkId}/hints`);
    expect(status).toBe(200);
    const mismatch = body.hints.find((hint: { id: string }) => hint.id === "mtu-mismatch");
    expect(mismatch.source).toEqual({ kind: "run", id: runId });
    expect(new Set(body.hints.map((hint: { id: string }) => hint.id)).size).toBe(body.hints.length);
  });

  it("is 404 for a link that does not exist", async () => {
    expect((await api.json("GET", "/api/links/999999/hints")).status).toBe(404);
  });
});
