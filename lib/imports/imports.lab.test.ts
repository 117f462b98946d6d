// Imports of real iperf3 outputs made on the lab: the raw output of a run Wirespeed made, imported
// back into its link, gives the same figures and intervals as the run itself; and a `-J` run typed
// by hand between two namespace hosts, as a user would over SSH, keeps iperf3's exact figures and
// its own time, with the client's end read from the link's addresses.
import { spawn, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabLink, LabState } from "@/testing/lab-state";
import { labHost, labLink, requireLabState } from "@/testing/lab-targets";
import { openTestApi } from "@/testing/test-api";
import { getApp } from "@/lib/app";
import { seedLabInventory } from "@/testing/lab-inventory";
import { closeAll } from "@/lib/ssh";

const api = await openTestApi();
const runEngine = getApp().runs;

const LINK = "ab-1g";
// Outside every host's range for Wirespeed's own servers (5201-5299), so no run can collide.
const HAND_PORT = 5391;

let state: LabState;
let link: LabLink;
let linkId = 0;

type Sample = {
  start: number;
  end: number;
  bytes: number;
  bitsPerSecond: number;
  retransmits: number | null;
  direction: string;
};

async function samplesOf(runId: number): Promise<Sample[]> {
  const response = await api.json("GET", `/api/runs/${runId}/samples`);
  expect(response.status).toBe(200);
  return (response.body.samples as Sample[]).map(({ start, end, bytes, bitsPerSecond, retransmits, direction }) => ({
    start,
    end,
    bytes,
    bitsPerSecond,
    retransmits,
    direction,
  }));
}

/** `iperf3 …` inside a lab host's namespace: the way a user runs it on that host over SSH. */
function iperf3In(hostName: string, args: string[]) {
  const host = labHost(state, hostName);
  return spawn("ip", ["netns", "exec", host.netns, "iperf3", ...args], { stdio: ["ignore", "pipe", "pipe"] });
}

function outputOf(child: ReturnType<typeof spawn>, onLine?: (line: string) => void): Promise<string> {
  let text = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    if (onLine) for (const line of chunk.toString("utf8").split("\n")) onLine(line);
  });
  child.stderr!.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => resolve(text));
  });
}

beforeAll(async () => {
  state = requireLabState();
  link = labLink(state, LINK);
  const { linkIds } = await seedLabInventory(state);
  linkId = linkIds[LINK]!;
  expect(spawnSync("which", ["iperf3"]).status, "iperf3 must be installed on this machine for the lab").toBe(0);
});

afterAll(async () => {
  await closeAll();
  await api.close();
});

describe("imports of real lab outputs", () => {
  it("gives back the figures and intervals of the Wirespeed run whose output it is", async () => {
    const started = await api.json("POST", `/api/links/${linkId}/runs`, { duration: 2, parallel: 2 });
    expect(started.status, started.text).toBe(202);
    await runEngine.waitForRun(started.body.id);
    const original = (await api.json("GET", `/api/runs/${started.body.id}`)).body;
    expect(original.status).toBe("succeeded");

    // The side given is wrong on purpose: the output's addresses are the link's, and they decide.
    const imported = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [{ text: original.output.client, name: "client.txt", clientSide: "b" }],
    });
    expect(imported.body.failed).toEqual([]);
    expect(imported.body.imported).toHaveLength(1);
    const copy = (await api.json("GET", `/api/runs/${imported.body.imported[0].runId}`)).body;

    expect(copy).toMatchObject({ source: "imported", status: "succeeded", clientSide: original.clientSide });
    // The run's figures are exact (iperf3 3.12's server writes JSON beside the client's text); the
    // client's text output, all an import has, prints 3 significant digits ("238 MBytes").
    for (const figure of ["sentBytes", "sentBitsPerSecond", "receivedBytes", "receivedBitsPerSecond"] as const) {
      const exact = original.summary[figure] as number;
      expect(exact, figure).toBeGreaterThan(0);
      expect(
        Math.abs(copy.summary[figure] - exact) / exact,
        `${figure}: ${copy.summary[figure]} imported, ${exact} in the run`,
      ).toBeLessThan(0.005);
    }
    for (const figure of ["retransmits", "clientCpuPercent"] as const)
      expect(copy.summary[figure], figure).toBe(original.summary[figure]);
    expect(copy.options).toMatchObject({ protocol: "tcp", parallel: 2, reverse: false, bidir: false, duration: 2 });
    expect(await samplesOf(copy.id)).toEqual(await samplesOf(original.id));

    // The same output again is a duplicate of that import.
    const again = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [{ text: original.output.client }],
    });
    expect(again.body.duplicates).toEqual([{ name: "output 1", runId: copy.id }]);
  });

  it("keeps a hand-made -J run's exact figures and time, and the server's text output reads as the same test", async () => {
    const client = link.a;
    const server = link.b;
    let markListening = () => {};
    const listening = new Promise<void>((resolve) => (markListening = resolve));
    // --forceflush: a pipe is not a terminal, and iperf3 would hold "Server listening" back.
    const serverProcess = iperf3In(server.host, [
      "-s",
      "-1",
      "--forceflush",
      "-B",
      server.address,
      "-p",
      String(HAND_PORT),
    ]);
    const serverOutput = outputOf(serverProcess, (line) => {
      if (line.includes("Server listening")) markListening();
    });
    const waited = setTimeout(() => serverProcess.kill(), 10_000);
    await Promise.race([
      listening,
      serverOutput.then((text) => Promise.reject(new Error(`the iperf3 server did not start listening: ${text}`))),
    ]);
    clearTimeout(waited);
    const clientOutput = await outputOf(
      iperf3In(client.host, [
        "-c",
        server.address,
        "-B",
        client.address,
        "-p",
        String(HAND_PORT),
        "-t",
        "2",
        "-R",
        "-J",
      ]),
    );
    const serverText = await serverOutput;
    const document = JSON.parse(clientOutput) as {
      start: { timestamp: { timesecs: number } };
      end: {
        sum_received: { bytes: number; bits_per_second: number };
        sum_sent: { bytes: number; retransmits: number };
      };
    };

    const response = await api.json("POST", `/api/links/${linkId}/imports`, {
      outputs: [
        { text: clientOutput, name: "by-hand.json", startedAt: "2001-01-01T00:00:00Z" },
        { text: serverText, name: "by-hand-server.txt" },
      ],
    });
    expect(response.body.failed).toEqual([]);
    const [fromClient, fromServer] = await Promise.all(
      response.body.imported.map(
        async (entry: { runId: number }) => (await api.json("GET", `/api/runs/${entry.runId}`)).body,
      ),
    );
    // -R from a: the data went b → a, whichever end's output it is.
    for (const run of [fromClient, fromServer])
      expect(run).toMatchObject({ clientSide: "a", options: { reverse: true } });
    expect(fromClient.createdAt).toBe(new Date(document.start.timestamp.timesecs * 1000).toISOString());
    expect(fromClient.summary.receivedBytes).toBe(document.end.sum_received.bytes);
    expect(fromClient.summary.receivedBitsPerSecond).toBe(document.end.sum_received.bits_per_second);
    expect(fromClient.summary.sentBytes).toBe(document.end.sum_sent.bytes);
    expect(fromClient.summary.retransmits).toBe(document.end.sum_sent.retransmits);
    // The server's text has iperf3's 3 significant digits of the same transfer.
    expect(fromServer.output.server).toContain("Accepted connection from");
    expect(
      Math.abs(fromServer.summary.sentBitsPerSecond - document.end.sum_received.bits_per_second) /
        document.end.sum_received.bits_per_second,
    ).toBeLessThan(0.02);
    const clientSamples = await samplesOf(fromClient.id);
    expect(clientSamples.length).toBeGreaterThanOrEqual(2);
    expect(clientSamples.reduce((sum, sample) => sum + sample.bytes, 0)).toBe(document.end.sum_received.bytes);
  });
});
