// The posts of a run, of an experiment of each kind, of both compares and of a link's history, in
// Markdown and BBCode, against the expected outputs stored in lib/posts/expected/. The fixtures are
// fixed (dates, figures, names): any change of the output fails here. After a change you mean, write
// the files again with UPDATE_EXPECTED=1 npx vitest run --project unit lib/posts/posts.test.ts, then
// read the diff of lib/posts/expected/ before committing it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { EnvironmentSnapshot, Hint } from "@/lib/diagnosis/contract";
import { environmentChanges } from "@/lib/diagnosis/changes";
import { compareExperiments } from "@/lib/experiments/compare";
import type { ExperimentPlan, ExperimentResult, PlanLink } from "@/lib/experiments/contract";
import { planKind } from "@/lib/experiments/kinds";
import { buildPost } from "./build";
import { renderBBCode, renderMarkdown, type PostDocument } from "./document";
import type {
  ExperimentPostSource,
  LinkHistoryPostSource,
  PostLink,
  PostSource,
  RunComparePostSource,
  RunPostSource,
} from "./sources";

const EXPECTED = path.join(__dirname, "expected");
const UPDATE = process.env.UPDATE_EXPECTED === "1";

function expectFile(name: string, actual: string) {
  const file = path.join(EXPECTED, name);
  if (UPDATE) {
    fs.mkdirSync(EXPECTED, { recursive: true });
    fs.writeFileSync(file, actual);
  }
  expect(fs.existsSync(file), `${file} is missing: write it with UPDATE_EXPECTED=1`).toBe(true);
  expect(actual).toBe(fs.readFileSync(file, "utf8"));
}

function expectBoth(name: string, document: PostDocument) {
  expectFile(`${name}.md`, renderMarkdown(document));
  expectFile(`${name}.bbcode`, renderBBCode(document));
}

// ---------------------------------------------------------------- fixtures

const LINK: PostLink = {
  name: "alpha-beta-10g",
  speedMbps: 10_000,
  a: { hostName: "alpha", nicName: "enp1s0f0", address: "192.168.10.11/24", nicSpeedMbps: 10_000, mtu: 9000 },
  b: { hostName: "beta", nicName: "enp3s0", address: "192.168.10.12", nicSpeedMbps: 10_000, mtu: 9000 },
};
const LINK_2: PostLink = {
  name: "alpha-gamma-25g",
  speedMbps: 25_000,
  a: { hostName: "alpha", nicName: "enp2s0f1", address: "10.25.0.11", nicSpeedMbps: 25_000, mtu: 1500 },
  b: { hostName: "gamma", nicName: "ens5", address: "10.25.0.13", nicSpeedMbps: 25_000, mtu: 1500 },
};

function snapshot(host: "alpha" | "beta", overrides: Partial<EnvironmentSnapshot> = {}): EnvironmentSnapshot {
  return {
    platform: "linux",
    readAt: "2026-01-05T10:00:00.000Z",
    os: "Debian GNU/Linux 12 (bookworm)",
    kernel: host === "alpha" ? "6.1.0-18-amd64" : "6.8.12-4-pve",
    iperf3Version: host === "alpha" ? "3.16" : "3.12",
    virtualization: "none",
    cpu: {
      model: host === "alpha" ? "AMD Ryzen 5 5600G" : "Intel(R) Xeon(R) E-2236",
      cores: 6,
      governor: "performance",
    },
    tcp: { congestionControl: "cubic", rmemMax: 212992, wmemMax: 212992, tcpRmem: null, tcpWmem: null },
    nic: {
      name: host === "alpha" ? "enp1s0f0" : "enp3s0",
      driver: host === "alpha" ? "ixgbe" : "mlx4_en",
      driverVersion: null,
      firmware: null,
      speedMbps: 10_000,
      duplex: "full",
      mtu: 9000,
      pcie:
        host === "alpha"
          ? { address: "0000:01:00.0", speedGTs: 5, width: 4, maxSpeedGTs: 5, maxWidth: 8 }
          : { address: "0000:03:00.0", speedGTs: 8, width: 8, maxSpeedGTs: 8, maxWidth: 8 },
      siblingPorts: [],
      offloads: { tso: true, gso: true, gro: true, lro: false },
      rings: null,
    },
    missing: [],
    ...overrides,
  };
}

const HINTS: Hint[] = [
  {
    id: "pcie-slot",
    severity: "warning",
    title: "PCIe slot narrower than the card",
    evidence: "alpha's enp1s0f0 runs at PCIe 2.0 x4 (16 Gbit/s usable) where the card can do x8.",
    suggestion: "Move the card on alpha to a slot wired x8, or expect about 14 Gbit/s at most.",
  },
  {
    id: "retransmits",
    severity: "info",
    title: "Retransmits",
    evidence: "412 retransmits in 10 s from 192.168.10.11.",
    suggestion: "Check the cable and the switch port's error counters.",
  },
];

const RUN: RunPostSource = {
  kind: "run",
  id: 42,
  createdAt: "2026-01-05T10:00:00.000Z",
  status: "succeeded",
  link: LINK,
  test: { protocol: "tcp", parallel: 4, duration: 10, direction: "a-to-b" },
  summary: {
    sentBitsPerSecond: 9_412_345_678,
    receivedBitsPerSecond: 9_401_234_567,
    sentBytes: 11_765_432_097,
    receivedBytes: 11_751_543_208,
    retransmits: 412,
    jitterMs: null,
    lostPackets: null,
    packets: null,
    lostPercent: null,
    lineRatePercent: 94,
    clientCpuPercent: 38.2,
    serverCpuPercent: 61.5,
    reverse: null,
  },
  error: null,
  againstBaseline: "−2% against the baseline of 9.6 Gbit/s",
  ends: {
    clientSide: "a",
    commands: {
      server: "iperf3 -s -p 5201 -1 -B 192.168.10.12 -i 1 -f k",
      client: "iperf3 -c 192.168.10.12 -p 5201 -B 192.168.10.11 -t 10 -P 4 -i 1 -f k --json-stream",
    },
    versions: { server: "3.12", client: "3.16" },
    environment: { client: snapshot("alpha"), server: snapshot("beta") },
  },
  hints: HINTS,
};

const UDP_BIDIR_RUN: RunPostSource = {
  ...RUN,
  id: 43,
  test: { protocol: "udp", parallel: 1, duration: 30, bitrate: 2e9, direction: "bidir" },
  summary: {
    ...RUN.summary!,
    sentBitsPerSecond: 2_000_000_000,
    receivedBitsPerSecond: 1_987_654_321,
    retransmits: null,
    jitterMs: 0.0123,
    lostPackets: 1234,
    packets: 2_000_000,
    lostPercent: 0.0617,
    lineRatePercent: 19.9,
    clientCpuPercent: null,
    serverCpuPercent: null,
    reverse: {
      sentBitsPerSecond: 2_000_000_000,
      receivedBitsPerSecond: 1_912_345_678,
      sentBytes: null,
      receivedBytes: null,
      retransmits: null,
      lineRatePercent: 19.1,
    },
  },
  againstBaseline: null,
  ends: { ...RUN.ends, clientSide: "b", environment: null },
  hints: [],
};

function planLink(link: PostLink, id: number): PlanLink {
  return {
    id,
    name: link.name,
    speedMbps: link.speedMbps,
    portRanges: { a: { min: 5201, max: 5210 }, b: { min: 5201, max: 5210 } },
    hosts: { a: { id: id * 10 + 1, name: link.a.hostName }, b: { id: id * 10 + 2, name: link.b.hostName } },
  };
}
const PLAN_LINKS = [planLink(LINK, 1), planLink(LINK_2, 2)];
const BASE = { protocol: "tcp", duration: 10 };

/** One experiment of each kind: its plan and a result, the table and answer made by the kind itself. */
const KINDS: Array<{ plan: ExperimentPlan; result: ExperimentResult; links: PostLink[] }> = [
  {
    plan: {
      kind: "sweep",
      name: "Streams 1 to 8",
      linkIds: [1],
      options: BASE,
      factor: "parallel",
      values: [1, 2, 4, 8],
      repeats: 1,
      kneePercent: 95,
    },
    links: [LINK],
    result: {
      factor: "parallel",
      rows: [1, 2, 4, 8].map((value, index) => ({
        value,
        runIds: [100 + index],
        receivedBitsPerSecond: [4.12e9, 7.65e9, 9.38e9, 9.41e9][index]!,
        minBitsPerSecond: null,
        maxBitsPerSecond: null,
        lineRatePercent: [41.2, 76.5, 93.8, 94.1][index]!,
        retransmits: [0, 12, 130, 411][index]!,
        clientCpuPercent: [99.1, 98, 97.5, 99][index]!,
        serverCpuPercent: [52, 60, 71, 80][index]!,
      })),
      knee: { value: 4, receivedBitsPerSecond: 9.38e9 },
    },
  },
  {
    plan: {
      kind: "matrix",
      name: "Both ways",
      linkIds: [1],
      options: BASE,
      directions: ["a-to-b", "b-to-a"],
      protocols: ["tcp"],
      clientSides: ["a"],
    },
    links: [LINK],
    result: {
      rows: [
        {
          direction: "a-to-b",
          protocol: "tcp",
          clientSide: "a",
          runId: 110,
          receivedBitsPerSecond: 9.41e9,
          sentBitsPerSecond: 9.42e9,
          reverseReceivedBitsPerSecond: null,
          retransmits: 3,
          jitterMs: null,
          lostPercent: null,
        },
        {
          direction: "b-to-a",
          protocol: "tcp",
          clientSide: "a",
          runId: 111,
          receivedBitsPerSecond: 6.98e9,
          sentBitsPerSecond: 7.01e9,
          reverseReceivedBitsPerSecond: null,
          retransmits: 1520,
          jitterMs: null,
          lostPercent: null,
        },
      ],
      asymmetry: { slower: "b-to-a", percent: 25.8 },
    },
  },
  {
    plan: { kind: "concurrent", name: "Both links at once", linkIds: [1, 2], options: BASE, baseline: true },
    links: [LINK, LINK_2],
    result: {
      rows: [
        { linkId: 1, runIds: [120, 122], aloneBitsPerSecond: 9.41e9, togetherBitsPerSecond: 6.2e9 },
        { linkId: 2, runIds: [121, 123], aloneBitsPerSecond: 23.5e9, togetherBitsPerSecond: 9.9e9 },
      ],
      aggregateBitsPerSecond: 16.1e9,
      lineRateSumBitsPerSecond: 35e9,
      aggregatePercentOfLineRates: 46,
      aggregatePercentOfAlone: 49.0,
      sharedBottleneck: true,
      startSkewMs: 4,
    },
  },
  {
    plan: { kind: "channels", name: "Four channels", linkIds: [2], options: BASE, channels: 4, affinity: true },
    links: [LINK_2],
    result: {
      rows: [0, 1, 2, 3].map((channel) => ({
        channel,
        port: 5201 + channel,
        runId: 130 + channel,
        sentBitsPerSecond: [6.1e9, 5.9e9, 6.0e9, 5.4e9][channel]!,
        receivedBitsPerSecond: [6.1e9, 5.9e9, 6.0e9, 5.4e9][channel]!,
        retransmits: [0, 4, 0, 17][channel]!,
        streams: 1,
        jitterMs: null,
        lostPercent: null,
      })),
      sum: {
        sentBitsPerSecond: 23.4e9,
        receivedBitsPerSecond: 23.4e9,
        retransmits: 21,
        jitterMs: null,
        lostPercent: null,
      },
      intervals: [],
    },
  },
  {
    plan: {
      kind: "udp-ceiling",
      name: "UDP ceiling",
      linkIds: [1],
      options: { ...BASE, protocol: "udp" },
      lossPercent: 0.1,
      low: null,
      high: null,
    },
    links: [LINK],
    result: {
      bitsPerSecond: 5e9,
      receivedBitsPerSecond: 4.996e9,
      lostPercent: 0.04,
      jitterMs: 0.011,
      lowestFailing: { bitrate: 7.5e9, lostPercent: 3.2 },
      gapPercent: 50,
      steps: [
        { bitrate: 10e9, runId: 140, receivedBitsPerSecond: 6.1e9, lostPercent: 38.9, jitterMs: 0.02 },
        { bitrate: 5e9, runId: 141, receivedBitsPerSecond: 4.996e9, lostPercent: 0.04, jitterMs: 0.011 },
        { bitrate: 7.5e9, runId: 142, receivedBitsPerSecond: 7.26e9, lostPercent: 3.2, jitterMs: 0.015 },
      ],
    },
  },
  {
    plan: { kind: "mesh", name: "The whole lab", linkIds: [1, 2], options: BASE, hostIds: null },
    links: [LINK, LINK_2],
    result: {
      rows: [
        { linkId: 1, direction: "a-to-b", runId: 150, receivedBitsPerSecond: 9.41e9, lineRatePercent: 94.1 },
        { linkId: 1, direction: "b-to-a", runId: 151, receivedBitsPerSecond: 9.39e9, lineRatePercent: 93.9 },
        { linkId: 2, direction: "a-to-b", runId: 152, receivedBitsPerSecond: 14.2e9, lineRatePercent: 56.8 },
        { linkId: 2, direction: "b-to-a", runId: 153, receivedBitsPerSecond: 23.1e9, lineRatePercent: 92.4 },
      ],
      grid: { hosts: [], cells: [] },
    },
  },
  {
    plan: { kind: "interference", name: "Which links share a bottleneck", linkIds: [1, 2], options: BASE },
    links: [LINK, LINK_2],
    result: {
      pairs: [
        {
          linkIds: [1, 2],
          aloneBitsPerSecond: [9.41e9, 23.5e9],
          togetherBitsPerSecond: [6.2e9, 9.9e9],
          togetherAggregateBitsPerSecond: 16.1e9,
          percentOfAlone: 48.9,
          runIds: [160, 161, 162, 163],
        },
      ],
      groups: [[1, 2]],
    },
  },
  {
    plan: {
      kind: "versus",
      name: "cubic against bbr",
      linkIds: [1],
      options: BASE,
      variants: [
        { name: "cubic", options: { congestion: "cubic" } },
        { name: "bbr", options: { congestion: "bbr" } },
      ],
      repeats: 5,
    },
    links: [LINK],
    result: {
      sides: [
        {
          side: "A",
          name: "cubic",
          linkId: 1,
          runIds: [170, 172, 174, 176, 178],
          medianBitsPerSecond: 9.12e9,
          minBitsPerSecond: 8.9e9,
          maxBitsPerSecond: 9.2e9,
          cpuPercentPerGbps: 14.2,
        },
        {
          side: "B",
          name: "bbr",
          linkId: 1,
          runIds: [171, 173, 175, 177, 179],
          medianBitsPerSecond: 9.38e9,
          minBitsPerSecond: 9.3e9,
          maxBitsPerSecond: 9.41e9,
          cpuPercentPerGbps: 13.1,
        },
      ],
      differencePercent: 2.85,
      clear: true,
      pairsAgreeing: 5,
      pairs: 5,
    },
  },
];

function experimentSource(
  index: number,
  id = 200 + index,
  createdAt = "2026-01-06T09:30:00.000Z",
): ExperimentPostSource {
  const { plan, result, links } = KINDS[index]!;
  const kind = planKind(plan);
  const planLinks = PLAN_LINKS.filter((link) => plan.linkIds.includes(link.id));
  return {
    kind: "experiment",
    experiment: {
      id,
      kind: plan.kind,
      name: plan.name,
      status: "succeeded",
      answer: kind.answer(planLinks, result),
      table: kind.table(planLinks, result),
      createdAt,
    },
    kindTitle: kind.title,
    links,
    firstRun: index === 0 ? { ...RUN.ends, id: 100, link: LINK } : null,
    hints: index === 0 ? HINTS.slice(0, 1) : [],
  };
}

const RUN_COMPARE: RunComparePostSource = {
  kind: "run-compare",
  link: LINK,
  runs: [
    {
      id: 40,
      createdAt: "2026-01-04T21:00:00.000Z",
      status: "succeeded",
      test: { protocol: "tcp", parallel: 1, duration: 10, direction: "a-to-b" },
      receivedBitsPerSecond: 4.12e9,
      lineRatePercent: 41.2,
      retransmits: 0,
      jitterMs: null,
      lostPercent: null,
    },
    {
      id: 42,
      createdAt: "2026-01-05T10:00:00.000Z",
      status: "succeeded",
      test: { protocol: "tcp", parallel: 4, duration: 10, direction: "a-to-b" },
      receivedBitsPerSecond: 9.4e9,
      lineRatePercent: 94,
      retransmits: 412,
      jitterMs: null,
      lostPercent: null,
    },
    {
      id: 44,
      createdAt: "2026-01-05T11:00:00.000Z",
      status: "failed",
      test: { protocol: "udp", parallel: 1, duration: 10, direction: "b-to-a" },
      receivedBitsPerSecond: null,
      lineRatePercent: null,
      retransmits: null,
      jitterMs: null,
      lostPercent: null,
    },
  ],
  changes: environmentChanges([
    { runId: 40, environment: { client: snapshot("alpha", { kernel: "6.1.0-17-amd64" }), server: snapshot("beta") } },
    { runId: 42, environment: { client: snapshot("alpha"), server: snapshot("beta") } },
  ]),
};

const HISTORY: LinkHistoryPostSource = {
  kind: "link-history",
  linkId: 1,
  link: LINK,
  total: 31,
  points: [
    {
      id: 40,
      time: "2026-01-04T21:00:00.000Z",
      receivedBitsPerSecond: 4.12e9,
      test: { protocol: "tcp", parallel: 1, direction: "a-to-b" },
      imported: false,
      offLink: false,
    },
    {
      id: 41,
      time: "2026-01-04T22:00:00.000Z",
      receivedBitsPerSecond: 0.94e9,
      test: { protocol: "tcp", parallel: 1, direction: "a-to-b" },
      imported: false,
      offLink: true,
    },
    {
      id: 42,
      time: "2026-01-05T10:00:00.000Z",
      receivedBitsPerSecond: 9.4e9,
      test: { protocol: "tcp", parallel: 4, direction: "a-to-b" },
      imported: false,
      offLink: false,
    },
    {
      id: 45,
      time: "2026-01-05T12:00:00.000Z",
      receivedBitsPerSecond: 9.1e9,
      test: { protocol: "tcp", parallel: 4, direction: "b-to-a" },
      imported: true,
      offLink: false,
    },
  ],
  hints: HINTS.slice(1),
};

// ---------------------------------------------------------------- the expected outputs

describe("posts", () => {
  it("a run, in Markdown and BBCode", () => {
    expectBoth("run", buildPost(RUN, false));
  });

  it("a run with the lab's names hidden", () => {
    const hidden = buildPost(RUN, true);
    expectBoth("run-hidden", hidden);
    const text = renderMarkdown(hidden) + renderBBCode(hidden);
    for (const secret of ["alpha", "beta", "192.168.10.11", "192.168.10.12"]) expect(text).not.toContain(secret);
    expect(text).toContain("host A");
    expect(text).toContain("192.168.10.x");
  });

  it("a UDP run both ways, whose client is on the B side", () => {
    expectBoth("run-udp-bidir", buildPost(UDP_BIDIR_RUN, false));
  });

  it.each(KINDS.map((entry, index) => [entry.plan.kind, index] as const))("an experiment: %s", (kind, index) => {
    expectBoth(`experiment-${kind}`, buildPost(experimentSource(index), false));
  });

  it("a mesh with the lab's names hidden: the table's host names too", () => {
    const index = KINDS.findIndex((entry) => entry.plan.kind === "mesh");
    const text = renderMarkdown(buildPost(experimentSource(index), true));
    expectFile("experiment-mesh-hidden.md", text);
    for (const secret of ["alpha", "beta", "gamma", "10.25.0.11"]) expect(text).not.toContain(secret);
  });

  it("two experiments compared", () => {
    const a = experimentSource(0).experiment;
    const later = { ...KINDS[0]!, result: structuredClone(KINDS[0]!.result) } as (typeof KINDS)[number];
    const rows = (later.result as { rows: { receivedBitsPerSecond: number | null }[] }).rows;
    rows[0]!.receivedBitsPerSecond = 5.2e9;
    rows[1]!.receivedBitsPerSecond = 9.1e9;
    const kind = planKind(later.plan);
    const b = {
      ...a,
      id: 230,
      name: "Streams 1 to 8 after the card moved",
      createdAt: "2026-01-07T09:30:00.000Z",
      table: kind.table(PLAN_LINKS.slice(0, 1), later.result),
      answer: kind.answer(PLAN_LINKS.slice(0, 1), later.result),
    };
    const source: PostSource = {
      kind: "experiment-compare",
      kindTitle: kind.title,
      a,
      b,
      links: [LINK],
      comparison: compareExperiments(a, b),
    };
    expectBoth("compare", buildPost(source, false));
  });

  it("runs compared on a link page", () => {
    expectBoth("compare-runs", buildPost(RUN_COMPARE, false));
  });

  it("a link's history", () => {
    expectBoth("link-history", buildPost(HISTORY, false));
  });
});

describe("renderers", () => {
  it("keep a table cell's bar, a bracket and a backtick in the code from breaking the post", () => {
    const document: PostDocument = {
      title: "a | b [b]x[/b]",
      blocks: [
        { kind: "table", columns: [{ label: "x|y", align: "left" }], rows: [["1 | 2"]] },
        { kind: "code", label: "Code", code: "echo ```; echo [/code]" },
      ],
    };
    expect(renderMarkdown(document)).toBe(
      "**a \\| b \\[b\\]x\\[/b\\]**\n\n| x\\|y |\n| --- |\n| 1 \\| 2 |\n\nCode:\n\n````sh\necho ```; echo [/code]\n````\n",
    );
    expect(renderBBCode(document)).toBe(
      "[b]a | b ［b］x［/b］[/b]\n\n[table]\n[tr][td][b]x|y[/b][/td][/tr]\n[tr][td]1 | 2[/td][/tr]\n[/table]\n\nCode:\n[code]echo ```; echo [/ code][/code]\n",
    );
  });
});
