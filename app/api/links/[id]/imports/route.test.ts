import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IperfOptionsSchema } from "@/lib/iperf";
import { HOSTILE_TEXT } from "@/testing/hostile-values";
import { openTestApi, type TestApi } from "@/testing/test-api";

// POST /api/links/:id/imports on a real database: outputs read, stored as runs with their samples,
// duplicates and unreadable outputs reported one by one, and what they become everywhere a run
// shows (the run, the link's history and runs, baselines). The reader itself is
// lib/imports/read.test.ts; a real lab output against Wirespeed's own run is imports.lab.test.ts.

const fixture = (path: string) =>
  readFileSync(new URL(`../../../../../lib/imports/fixtures/${path}`, import.meta.url), "utf8");
const SEED_1G = fixture("seed/000-windows-n1000M.pasted.txt");
const JSON_CLIENT = fixture("real/json-tcp.client.txt");
const TEXT_CLIENT = fixture("real/tcp.client.txt");

let api: TestApi;
let linkId = 0;
let otherLinkId = 0;

async function runCount(id = linkId): Promise<number> {
  return api.db.run.count({ where: { linkId: id } });
}

const hostIds: number[] = [];

/** A link between new NICs of the two hosts, with the seed's addresses: ESXi's end is a. */
async function makeLink(name: string, nicName: string): Promise<number> {
  const nics = [];
  for (const [host, address] of [
    [hostIds[1], "192.168.0.40/24"],
    [hostIds[0], "192.168.0.10/24"],
  ] as const) {
    const nic = await api.json("POST", "/api/nics", {
      hostId: host,
      name: nicName,
      speedMbps: 1000,
      mtu: 1500,
      addresses: [address],
    });
    expect(nic.status, nic.text).toBe(201);
    nics.push(nic.body.id);
  }
  const link = await api.json("POST", "/api/links", { name, aNicId: nics[0], bNicId: nics[1] });
  expect(link.status, link.text).toBe(201);
  return link.body.id as number;
}

beforeAll(async () => {
  api = await openTestApi();
  for (const [name, address] of [
    ["win-pc", "192.168.0.10"],
    ["esxi7", "192.168.0.40"],
  ] as const) {
    hostIds.push((await api.json("POST", "/api/hosts", { name, address, auth: { method: "local" } })).body.id);
  }
  // The seed's client (192.168.0.10) is the link's b end, which the addresses must tell.
  linkId = await makeLink("desk-to-esxi", "eth0");
  otherLinkId = await makeLink("desk-to-esxi-2", "eth1");
});

afterAll(async () => {
  await api?.close();
});

describe("POST /api/links/:id/imports", () => {
  it("imports the seed's 1G run with its figures, intervals, output and the client's end read from the addresses", async () => {
    const response = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [{ text: SEED_1G, name: "forum-post.txt", startedAt: "2025-03-01T10:00:00Z" }],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.duplicates).toEqual([]);
    expect(response.body.failed).toEqual([]);
    expect(response.body.imported).toEqual([{ runId: expect.any(Number), name: "forum-post.txt" }]);
    const runId = response.body.imported[0].runId as number;

    const run = (await api.json("GET", `/api/runs/${runId}`)).body;
    expect(run).toMatchObject({
      source: "imported",
      importName: "forum-post.txt",
      status: "succeeded",
      clientSide: "b",
      createdAt: "2025-03-01T10:00:00.000Z",
    });
    expect(run.summary).toMatchObject({
      receivedBitsPerSecond: 917e6,
      receivedBytes: 1000 * 1024 * 1024,
      sentBytes: 1000 * 1024 * 1024,
      lineRatePercent: 91.7,
    });
    expect(Date.parse(run.endedAt) - Date.parse(run.startedAt)).toBe(9150);
    expect(run.output.client).toContain("0.00-9.15 sec 1000 MBytes 917 Mbits/sec receiver");
    expect(run.output.server).toBe("");
    // a re-run can start from the options read from the output
    expect(IperfOptionsSchema.safeParse(run.options).success).toBe(true);

    const samples = (await api.json("GET", `/api/runs/${runId}/samples`)).body.samples as Array<{
      start: number;
      end: number;
      bitsPerSecond: number;
    }>;
    expect(samples).toHaveLength(10);
    expect(samples.at(-1)).toMatchObject({ start: 9, end: 9.15, bitsPerSecond: 910e6 });

    const history = (await api.json("GET", `/api/links/${linkId}/history`)).body;
    expect(history.points).toContainEqual(
      expect.objectContaining({ id: runId, imported: true, receivedBitsPerSecond: 917e6, direction: "b-to-a" }),
    );
    const runs = (await api.json("GET", `/api/runs?linkId=${linkId}`)).body.runs as Array<{
      id: number;
      source: string;
    }>;
    expect(runs.find((row) => row.id === runId)?.source).toBe("imported");
  });

  it("keeps a JSON output's own time, and reads the side from the request when the addresses are not the link's", async () => {
    const response = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [{ text: JSON_CLIENT, name: "card-swap.json", startedAt: "2020-01-01T00:00:00Z", clientSide: "b" }],
    });
    const runId = response.body.imported[0].runId as number;
    const run = (await api.json("GET", `/api/runs/${runId}`)).body;
    const timesecs = (JSON.parse(JSON_CLIENT) as { start: { timestamp: { timesecs: number } } }).start.timestamp
      .timesecs;
    expect(run.createdAt).toBe(new Date(timesecs * 1000).toISOString());
    expect(run.clientSide).toBe("b");
    expect(run.versions.client).toBe("3.12");
  });

  it("imports the rest of a batch around a broken output and a duplicate, and stores nothing of those", async () => {
    const before = await runCount();
    const binary = String.fromCharCode(...Array.from({ length: 200 }, (_, index) => (index * 37) % 256));
    const response = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [
        { text: TEXT_CLIENT, name: "good.txt" },
        { text: binary, name: "photo.jpg" },
        { text: `${TEXT_CLIENT.replace(/\n/g, "\r\n")}\r\n\r\n`, name: "good-again-crlf.txt" },
        { text: SEED_1G, name: "forum-post-again.txt" },
        { text: "hello\nthis is not iperf3\n", name: "notes.txt" },
      ],
    });
    expect(response.status, response.text).toBe(200);
    const goodId = response.body.imported[0]?.runId as number;
    expect(response.body.imported).toEqual([{ runId: goodId, name: "good.txt" }]);
    expect(response.body.duplicates).toEqual([
      { name: "good-again-crlf.txt", runId: goodId },
      { name: "forum-post-again.txt", runId: expect.any(Number) },
    ]);
    expect(response.body.failed).toEqual([
      {
        name: "photo.jpg",
        error: {
          kind: "not-text",
          message: expect.stringMatching(/^contains a NUL byte \(0x00\) on line 1: only iperf3's/),
        },
      },
      { name: "notes.txt", error: { kind: "not-iperf3", message: expect.stringMatching(/^no iperf3 test found/) } },
    ]);
    expect(await runCount()).toBe(before + 1);
    // The same output may be imported into another link: duplicates are per link.
    const elsewhere = await api.json("POST", `/api/links/${otherLinkId}/imports`, { outputs: [{ text: TEXT_CLIENT }] });
    expect(elsewhere.body.imported).toEqual([{ runId: expect.any(Number), name: "output 1" }]);
  });

  it("reports iperf3's own error for an output that measured nothing", async () => {
    const response = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [{ text: "iperf3: error - unable to connect to server: Connection refused\n", name: "refused.txt" }],
    });
    expect(response.body.failed).toEqual([
      {
        name: "refused.txt",
        error: { kind: "iperf3-error", message: "iperf3: error - unable to connect to server: Connection refused" },
      },
    ]);
  });

  it("answers 400 naming the field for a request it cannot take, and 413 beyond 20 MB, storing nothing", async () => {
    const before = await api.db.run.count();
    const cases: Array<[unknown, string, RegExp]> = [
      [{}, "outputs", /list of outputs/],
      [{ outputs: [] }, "outputs", /at least one/],
      [{ outputs: Array.from({ length: 51 }, () => ({ text: "x" })) }, "outputs", /at most 50/],
      [{ outputs: [{ text: 42 }] }, "outputs.0.text", /iperf3 output as text/],
      [{ outputs: [{ text: "" }] }, "outputs.0.text", /is empty/],
      [{ outputs: [{ text: SEED_1G, clientSide: "c" }] }, "outputs.0.clientSide", /"a" or "b"/],
      [{ outputs: [{ text: SEED_1G, startedAt: "yesterday" }] }, "outputs.0.startedAt", /ISO 8601/],
    ];
    for (const [body, field, message] of cases) {
      const response = await api.json("POST", `/api/links/${linkId}/imports`, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error.fields).toContainEqual({ field, message: expect.stringMatching(message) });
    }
    const huge = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [{ text: "9".repeat(21 * 1024 * 1024) }],
    });
    expect(huge.status).toBe(413);
    expect((await api.json("POST", "/api/links/999999/imports", { outputs: [{ text: SEED_1G }] })).status).toBe(404);
    expect(await api.db.run.count()).toBe(before);
  });

  it("refuses NUL bytes and terminal escape sequences without echoing them", async () => {
    const before = await api.db.run.count();
    const escape = `${SEED_1G.split("\n").slice(0, 5).join("\n")}\n\u001b]0;owned\u0007\u001b[2J\n`;
    const response = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [
        { text: `${SEED_1G}\u0000`, name: "nul.txt" },
        { text: escape, name: "escape.txt" },
      ],
    });
    expect(response.body.failed.map((entry: { error: { kind: string } }) => entry.error.kind)).toEqual([
      "not-text",
      "not-text",
    ]);
    expect(response.text).not.toContain("owned");
    expect(await api.db.run.count()).toBe(before);
  });
});

describe("hostile names", () => {
  it("keeps each name as data (shown escaped), or refuses it naming outputs.0.name", async () => {
    const link = await makeLink("hostile-names", "eth3");
    for (const [index, entry] of HOSTILE_TEXT.entries()) {
      // Each output differs by a line the parser ignores, so that none is a duplicate of another.
      const text = `${SEED_1G}\n# ${index}`;
      const response = await api.json("POST", `/api/links/${link}/imports`, { outputs: [{ text, name: entry.value }] });
      if (response.status === 400) {
        expect(response.body.error.fields, entry.label).toContainEqual({
          field: "outputs.0.name",
          message: expect.stringMatching(/at most 200 characters/),
        });
        continue;
      }
      expect(response.status, entry.label).toBe(200);
      const runId = response.body.imported[0]?.runId as number;
      expect(response.body.imported, entry.label).toEqual([{ runId, name: (entry.value as string).trim() }]);
      expect((await api.json("GET", `/api/runs/${runId}`)).body.importName, entry.label).toBe(
        (entry.value as string).trim(),
      );
    }
  });
});

describe("imported runs and baselines", () => {
  it("count toward a link's baselines only when the link says so", async () => {
    const outputs = [915, 917, 919].map((rate, index) => ({
      text: SEED_1G.replace(
        "0.00-9.15 sec 1000 MBytes 917 Mbits/sec receiver",
        `0.00-9.15 sec 1000 MBytes ${rate} Mbits/sec receiver`,
      ),
      name: `run-${index}.txt`,
    }));
    const fresh = await makeLink("baseline-link", "eth2");
    const imported = await api.json("POST", `/api/links/${fresh}/imports`, { outputs });
    expect(imported.body.imported).toHaveLength(3);
    const signature = "tcp b-to-a P1";
    const without = (await api.json("GET", `/api/links/${fresh}/baseline`)).body;
    expect(without).toMatchObject({ importsInBaseline: false, signatures: [] });
    expect((await api.json("PATCH", `/api/links/${fresh}`, { importsInBaseline: true })).status).toBe(200);
    const withImports = (await api.json("GET", `/api/links/${fresh}/baseline`)).body;
    expect(withImports.importsInBaseline).toBe(true);
    expect(withImports.signatures).toEqual([
      expect.objectContaining({ signature, medianBitsPerSecond: 917e6, count: 3 }),
    ]);
    const invalid = await api.json("PATCH", `/api/links/${fresh}`, { importsInBaseline: "yes" });
    expect(invalid.body.error.fields).toContainEqual({
      field: "importsInBaseline",
      message: expect.stringMatching(/true or false/),
    });
  });
});
