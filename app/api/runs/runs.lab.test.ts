// The runs REST API and its server-sent events, on the lab (real sshd, iperf3, SQLite).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labHost, labLink, processesInHost, requireLabState } from "@/testing/lab-targets";
import { openTestApi, type TestApi } from "@/testing/test-api";
import { seedLabInventory } from "@/testing/lab-inventory";
import { closeAll } from "@/lib/ssh";

let api: TestApi;
let linkIds: Record<string, number>;

type SseEvent = { id: number; event: string; data: unknown; receivedAt: number };

/** Reads a text/event-stream body to its end, stamping each event with when it arrived. */
async function readEvents(response: Response): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split("\n")
          .filter((line) => !line.startsWith(":"))
          .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]),
      );
      if (fields.event)
        events.push({
          id: Number(fields.id),
          event: fields.event,
          data: JSON.parse(fields.data ?? "null"),
          receivedAt: Date.now(),
        });
    }
  }
  return events;
}

beforeAll(async () => {
  api = await openTestApi();
  ({ linkIds } = await seedLabInventory(requireLabState()));
});

afterAll(async () => {
  await closeAll();
  await api.close();
});

describe("POST /api/links/:id/runs", () => {
  it("refuses bad options with 400 naming each field and what it allows", async () => {
    const response = await api.json("POST", `/api/links/${linkIds["ab-1g"]}/runs`, {
      protocol: "udp",
      parallel: 0,
      direction: "sideways",
    });
    expect(response.status).toBe(400);
    const fields = Object.fromEntries(
      response.body.error.fields.map((f: { field: string; message: string }) => [f.field, f.message]),
    );
    expect(fields.parallel).toBe("must be a whole number from 1 to 128 streams");
    expect(fields.direction).toBe('must be "a-to-b", "b-to-a" or "bidir"');
    expect(fields.bitrate).toMatch(/required for udp/);
  });

  it("answers 404 for a link that does not exist, and 401 without the token", async () => {
    expect((await api.json("POST", "/api/links/999999/runs", {})).status).toBe(404);
    expect((await api.json("POST", `/api/links/${linkIds["ab-1g"]}/runs`, {}, { token: null })).status).toBe(401);
  });

  it("starts a run (202) whose samples stream live over SSE, then shows it with its line-rate share", async () => {
    const started = await api.json("POST", `/api/links/${linkIds["ab-1g"]}/runs`, { duration: 4 });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      status: "queued",
      linkId: linkIds["ab-1g"],
      options: { protocol: "tcp", duration: 4 },
    });
    const runId = started.body.id as number;

    const events = await readEvents(await api.call("GET", `/api/runs/${runId}/events`));
    const samples = events.filter((e) => e.event === "sample");
    const final = events.at(-1)!;
    expect(final).toMatchObject({ event: "status", data: { status: "succeeded" } });
    expect(events.map((e) => e.event)).toContain("summary");
    expect(samples.length).toBeGreaterThanOrEqual(4);
    expect(samples.map((e) => e.id)).toEqual(samples.map((_, i) => i + 1));
    // Live, not replayed at the end: the first sample came seconds before the final status.
    expect(final.receivedAt - samples[0]!.receivedAt).toBeGreaterThan(1500);

    const run = await api.json("GET", `/api/runs/${runId}`);
    expect(run.body.status).toBe("succeeded");
    expect(run.body.summary.lineRatePercent).toBeGreaterThan(95);
    expect(run.body.summary.receivedBitsPerSecond).toBeGreaterThan(0.95e9);
    expect(run.body.commands.client).toContain(`-c ${labLink(requireLabState(), "ab-1g").b.address} `);
    expect(run.body.output.client).toContain("receiver");

    const page = await api.json("GET", `/api/runs/${runId}/samples?limit=2`);
    expect(page.body.samples.map((s: { seq: number }) => s.seq)).toEqual([0, 1]);
    expect(page.body.next).toBe(2);

    // A viewer that reconnects with Last-Event-ID gets only what it missed.
    const resumed = await readEvents(
      await api.call("GET", `/api/runs/${runId}/events`, undefined, { headers: { "last-event-id": "2" } }),
    );
    const resumedSamples = resumed.filter((e) => e.event === "sample");
    expect(resumedSamples[0]!.id).toBe(3);
    expect(resumedSamples).toHaveLength(samples.length - 2);
    expect(resumed.at(-1)).toMatchObject({ event: "status", data: { status: "succeeded" } });
  });

  it("re-runs a past test with the same options, and lists the link's runs newest first", async () => {
    const first = await api.json("POST", `/api/links/${linkIds["ab-2g5"]}/runs`, {
      duration: 2,
      parallel: 2,
      direction: "b-to-a",
    });
    await readEvents(await api.call("GET", `/api/runs/${first.body.id}/events`));
    const again = await api.json("POST", `/api/runs/${first.body.id}/rerun`);
    expect(again.status).toBe(202);
    expect(again.body.id).not.toBe(first.body.id);
    expect(again.body.options).toEqual(first.body.options);
    await readEvents(await api.call("GET", `/api/runs/${again.body.id}/events`));
    const list = await api.json("GET", `/api/links/${linkIds["ab-2g5"]}/runs?pageSize=1`);
    expect(list.body.total).toBe(2);
    expect(list.body.runs.map((r: { id: number }) => r.id)).toEqual([again.body.id]);
    expect(list.body.runs[0].status).toBe("succeeded");
  });

  it("cancels a running test, keeping its samples", async () => {
    const started = await api.json("POST", `/api/links/${linkIds["ab-1g"]}/runs`, { duration: 30 });
    const response = await api.call("GET", `/api/runs/${started.body.id}/events`);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while ((text.match(/event: sample/g) ?? []).length < 2) text += (await reader.read()).value ?? "";
    const cancelled = await api.json("POST", `/api/runs/${started.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(text).toMatch(/event: status\ndata: \{"status":"cancelled"\}/);
    const samples = await api.json("GET", `/api/runs/${started.body.id}/samples`);
    expect(samples.body.samples.length).toBeGreaterThanOrEqual(2);
  });

  it("serves many viewers of one run from one iperf3 stream", async () => {
    const started = await api.json("POST", `/api/links/${linkIds["ab-1g"]}/runs`, { duration: 3 });
    const viewers = await Promise.all([1, 2, 3].map(() => api.call("GET", `/api/runs/${started.body.id}/events`)));
    // iperf3 client processes themselves (not the shells that started them) on alpha, mid-run.
    const countClients = () =>
      processesInHost(labHost(requireLabState(), "alpha"), " -c ").filter((p) =>
        p.cmdline.split(" ")[0]!.endsWith("iperf3"),
      ).length;
    // Counted every 100 ms until the viewers' streams end: "running" is set as the SSH command is sent,
    // and on a loaded machine iperf3 itself appears a second or more later.
    let mostClients = 0;
    const counter = setInterval(() => (mostClients = Math.max(mostClients, countClients())), 100);
    const seen = await Promise.all(viewers.map(readEvents)).finally(() => clearInterval(counter));
    const sampleIds = seen.map((events) => events.filter((e) => e.event === "sample").map((e) => e.id));
    expect(sampleIds[0]!.length).toBeGreaterThanOrEqual(3);
    expect(sampleIds[1]).toEqual(sampleIds[0]);
    expect(sampleIds[2]).toEqual(sampleIds[0]);
    // one client for the three viewers, and seen at least once
    expect(mostClients).toBe(1);
  });
});
