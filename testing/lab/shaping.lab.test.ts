/**
 * The lab's shaped links hold what the topology promises, measured with real iperf3 inside
 * the hosts' namespaces: one TCP flow capped below the link's rate, two links that share one
 * ifb bottleneck, and two links that share nothing. The experiments' tests rely on these.
 */
import { runProgram } from "../run-program";
import { beforeAll, describe, expect, it } from "vitest";
import type { LabHost, LabLink, LabState } from "../lab-state";
import { flowCappedLink, independentLinks, labHost, requireLabState, sharedBottleneckLinks } from "../lab-targets";

// Short runs keep the file under a minute; 3 s is steady at 1 Gbit/s once slow start is over (well under 0.1 s here).
const SECONDS = 3;
const PORT = 5201;

type Measure = { parallel?: number; reverse?: boolean };

let state: LabState;

beforeAll(() => {
  state = requireLabState();
});

function inNamespace(host: LabHost, argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runProgram("ip", ["netns", "exec", host.netns, ...argv]);
}

/** Mbit/s received over the link: server on b, client on a (-R: the server on b sends). */
async function measureMbps(link: LabLink, { parallel = 1, reverse = false }: Measure = {}): Promise<number> {
  // -1: the server exits after one test; --idle-timeout: a client that never comes leaves nothing behind.
  const server = inNamespace(labHost(state, link.b.host), [
    "iperf3",
    "-s",
    "-1",
    "--idle-timeout",
    "20",
    "-B",
    link.b.address,
    "-p",
    String(PORT),
  ]);
  const clientArgv = [
    "iperf3",
    "-c",
    link.b.address,
    "-B",
    link.a.address,
    "-p",
    String(PORT),
    "-t",
    String(SECONDS),
    "-P",
    String(parallel),
    "-J",
  ];
  if (reverse) clientArgv.push("-R");
  // The server listens a moment after it starts: retry while it refuses, for at most 5 s.
  const deadline = Date.now() + 5000;
  for (;;) {
    const client = await inNamespace(labHost(state, link.a.host), clientArgv);
    const report = JSON.parse(client.stdout || "{}") as {
      error?: string;
      end?: { sum_received?: { bits_per_second?: number } };
    };
    if (report.error?.includes("Connection refused") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    if (report.error || client.code !== 0)
      throw new Error(`iperf3 over ${link.name}: ${report.error ?? client.stderr}`);
    const serverDone = await server;
    expect(serverDone.code, `iperf3 server on ${link.name}: ${serverDone.stderr}`).toBe(0);
    const bps = report.end?.sum_received?.bits_per_second;
    if (typeof bps !== "number") throw new Error(`iperf3 over ${link.name} reported no received rate`);
    return bps / 1e6;
  }
}

/** Each link alone, one after another, then all of them at once. */
async function aloneAndTogether(links: LabLink[]): Promise<{ alone: number[]; together: number[] }> {
  const alone: number[] = [];
  for (const link of links) alone.push(await measureMbps(link));
  const together = await Promise.all(links.map((link) => measureMbps(link)));
  return { alone, together };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const mbps = (values: number[]) => values.map((value) => value.toFixed(0)).join(" + ");

describe("a flow-capped link", () => {
  it("holds one TCP stream to its flow cap in both directions, and lets five streams fill the link", async () => {
    const link = flowCappedLink(state);
    const one = await measureMbps(link);
    const oneReverse = await measureMbps(link, { reverse: true });
    const five = await measureMbps(link, { parallel: 5 });
    console.log(
      `${link.name} (${link.rateMbps} Mb/s, ${link.flowCapMbps} Mb/s per flow): -P 1 ${one.toFixed(0)}, -P 1 -R ${oneReverse.toFixed(0)}, -P 5 ${five.toFixed(0)} Mbit/s`,
    );
    const cap = link.flowCapMbps!;
    const rate = link.rateMbps!;
    // A cap of 300 measures 298 (MTU 9000): one flow never gets past it, however idle the machine.
    expect(one).toBeLessThan(1.1 * cap);
    expect(oneReverse).toBeLessThan(1.1 * cap);
    // A cap far below the topology's, or a flow starved by its own class, would read well under it.
    expect(one).toBeGreaterThan(0.66 * cap);
    // Five flows fill the parent at the link's rate even when two of them hash to the same class (then 4 x 300 > 1000).
    expect(five).toBeGreaterThan(0.85 * rate);
  });
});

describe("two links through one shared bottleneck", () => {
  it("each alone gets its own rate, both at once share the bottleneck's", async () => {
    const { bottleneck, links } = sharedBottleneckLinks(state);
    const { alone, together } = await aloneAndTogether(links);
    console.log(
      `${links.map((l) => l.name).join(", ")} via ${bottleneck.name} (${bottleneck.rateMbps} Mb/s): alone ${mbps(alone)}, together ${mbps(together)} = ${sum(together).toFixed(0)} Mbit/s`,
    );
    for (const rate of alone) expect(rate).toBeGreaterThan(800);
    // 1.2 Gbit/s shared by two 1 Gbit/s links: about 60% of the two alone.
    expect(sum(together)).toBeLessThan(0.8 * sum(alone));
    // Each run's rate is over its own 3 s, and the two start up to ~0.1 s apart: the sum reads up to ~4% above the shared rate.
    expect(sum(together)).toBeLessThan(1.15 * bottleneck.rateMbps);
  });

  it("shapes the way back too: both at once, the b ends sending, stay under the bottleneck's rate", async () => {
    const { bottleneck, links } = sharedBottleneckLinks(state);
    const together = await Promise.all(links.map((link) => measureMbps(link, { reverse: true })));
    console.log(
      `${links.map((l) => l.name).join(", ")} reversed, together ${mbps(together)} = ${sum(together).toFixed(0)} Mbit/s`,
    );
    expect(sum(together)).toBeLessThan(1.15 * bottleneck.rateMbps);
    expect(sum(together)).toBeGreaterThan(0.7 * bottleneck.rateMbps);
  });
});

describe("two independent links", () => {
  it("together give about the sum of each alone", async () => {
    const links = independentLinks(state);
    const { alone, together } = await aloneAndTogether(links);
    console.log(
      `${links.map((l) => l.name).join(", ")}: alone ${mbps(alone)}, together ${mbps(together)} = ${sum(together).toFixed(0)} Mbit/s`,
    );
    for (const rate of alone) expect(rate).toBeGreaterThan(800);
    // Nothing is shared but the CPU: 2 Gbit/s of jumbo frames takes a fraction of one core here.
    expect(sum(together)).toBeGreaterThan(0.85 * sum(alone));
  });
});
