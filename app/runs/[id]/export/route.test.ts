import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApi, TEST_API_TOKEN, type TestApi } from "@/testing/test-api";
import * as exportRoute from "./route";
import { getRunSeries } from "@/lib/runs/series-reads";
import { compactRuns } from "@/lib/runs/retention";

// What a run compacted by sample retention still gives: its page's series (the digest), its
// export (the thinned points and stream totals, in JSON and CSV) and the samples API (none, and
// when they went), on a real database with a run imported from a real iperf3 3.12 output.

const TEXT_CLIENT = readFileSync(
  new URL("../../../../lib/imports/fixtures/real/tcp.client.txt", import.meta.url),
  "utf8",
);

let api: TestApi;
let runId = 0;

async function exportRun(format: "csv" | "json"): Promise<Response> {
  return exportRoute.GET(
    new Request(`http://localhost/runs/${runId}/export?format=${format}`, {
      headers: { authorization: `Bearer ${TEST_API_TOKEN}` },
    }),
    { params: Promise.resolve({ id: String(runId) }) },
  );
}

beforeAll(async () => {
  api = await openTestApi();
  const hosts = [];
  for (const [name, address] of [
    ["ex-a", "127.0.0.1"],
    ["ex-b", "127.0.0.2"],
  ] as const)
    hosts.push((await api.json("POST", "/api/hosts", { name, address, auth: { method: "local" } })).body.id);
  const nics = [];
  for (const hostId of hosts)
    nics.push(
      (await api.json("POST", "/api/nics", { hostId, name: "lo", speedMbps: 10_000, addresses: ["127.0.0.1/8"] })).body
        .id,
    );
  const link = await api.json("POST", "/api/links", { name: "ex-link", aNicId: nics[0], bNicId: nics[1] });
  const imported = await api.json("POST", `/api/links/${link.body.id}/imports`, {
    outputs: [{ text: TEXT_CLIENT, name: "tcp.txt", startedAt: "2025-01-01T00:00:00Z" }],
  });
  expect(imported.status, imported.text).toBe(200);
  runId = imported.body.imported[0].runId;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

const NOTE = 'new DAC, "slot 2"\n=2+2';
const NOTE_CELLS = `"new DAC, ""slot 2""\n=2+2",dac slot-2`;

describe("a run's note and labels", () => {
  it("are in its JSON export, and in the CSV's last two columns of the first line", async () => {
    const saved = await api.json("PATCH", `/api/runs/${runId}`, { note: NOTE, labels: ["slot-2", "DAC"] });
    expect(saved.status, saved.text).toBe(200);
    const json = JSON.parse(await (await exportRun("json")).text());
    expect(json.run).toMatchObject({ id: runId, note: NOTE, labels: ["dac", "slot-2"] });
    const csv = await (await exportRun("csv")).text();
    const [header, ...rest] = csv.split("\n");
    expect(header).toBe(
      "seq,start,end,direction,bytes,bitsPerSecond,retransmits,cwndBytes,jitterMs,lostPackets,packets,omitted,streams,note,labels",
    );
    const lines = rest.join("\n");
    // The note's line break is inside its quoted cell: the first sample's line ends with the two cells.
    expect(lines.startsWith("0,")).toBe(true);
    expect(lines).toContain(`,${NOTE_CELLS}\n1,`);
    expect(lines.split(NOTE_CELLS)).toHaveLength(2);
    const second = lines.split(`${NOTE_CELLS}\n`)[1]!.split("\n")[0]!;
    expect(second.endsWith(",,")).toBe(true);
  });
});

describe("a compacted run", () => {
  it("exports its samples while they are kept, then its thinned points once retention deleted them", async () => {
    const samples = (await api.json("GET", `/api/runs/${runId}/samples`)).body;
    expect(samples.samples.length).toBeGreaterThan(1);
    expect(samples.compactedAt).toBeNull();
    const whole = JSON.parse(await (await exportRun("json")).text());
    expect(whole.compacted).toBeNull();
    expect(whole.samples).toHaveLength(samples.samples.length);
    const before = await getRunSeries({ runId, isFinished: true });

    expect(await compactRuns({ keepDays: 7, now: new Date("2026-01-01T00:00:00Z") })).toEqual({
      runs: 1,
      samples: samples.samples.length,
    });

    const after = (await api.json("GET", `/api/runs/${runId}/samples`)).body;
    expect(after).toEqual({ samples: [], next: null, compactedAt: "2026-01-01T00:00:00.000Z" });
    const json = JSON.parse(await (await exportRun("json")).text());
    expect(json.samples).toEqual([]);
    expect(json.run.summary.receivedBitsPerSecond).toBe(whole.run.summary.receivedBitsPerSecond);
    expect(json.compacted).toEqual({
      at: "2026-01-01T00:00:00.000Z",
      sampleCount: samples.samples.length,
      streamCount: 0,
      points: before.points,
      streams: [],
    });
    const csv = (await (await exportRun("csv")).text()).trim().split("\n");
    expect(csv[0]).toBe("t,bitsPerSecond,reverseBitsPerSecond,retransmits,jitterMs,lostPercent,omitted,note,labels");
    // The note's line break is quoted in the first point's line: one line more than the points.
    expect(csv).toHaveLength(before.points.length + 2);
    expect(`${csv[1]}\n${csv[2]}`.endsWith(`,${NOTE_CELLS}`)).toBe(true);
    expect(csv[3]!.endsWith(",,")).toBe(true);
    expect(json.run).toMatchObject({ note: NOTE, labels: ["dac", "slot-2"] });
    expect(csv[1]!.split(",").slice(0, 2).map(Number)).toEqual([before.points[0]!.t, before.points[0]!.bps]);
    // The run's page reads the same points as before, and says when.
    const series = await getRunSeries({ runId, isFinished: true });
    expect(series.points).toEqual(before.points);
    expect(series.compactedAt?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
  });
});
