import { execFile } from "node:child_process";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "@/testing/database";
import { declaredNames, parseExposition, type Sample } from "./exposition.test-support";
import { GET } from "@/app/metrics/route";
import { getLinkBaseline } from "@/lib/alerts/baseline";
import { createUser } from "@/lib/auth/users";
import { createApiToken } from "@/lib/auth/tokens";

// GET /metrics on a real SQLite file seeded with runs of every kind: each metric's value and
// labels, the baselines against lib/alerts/baseline.ts, the route's auth, and promtool's verdict.

const database = await openTestDatabase();
const { db } = database;

const MBIT = 1e6;
const TCP = "tcp a-to-b P1";
const TCP_P4_BA = "tcp b-to-a P4";
const UDP_1G = "udp a-to-b P1 1000000000";
const UDP_500M = "udp a-to-b P1 500000000";
const T0 = Date.UTC(2026, 10, 1);

let viewerToken = "";
const ids = { nasPve: 0, pveEsx: 0, idle: 0 };
/** Durations (s) of the finished runs Wirespeed ran, for the histogram. */
const durations: number[] = [];
let minute = 0;

type RunSpec = {
  link: number;
  signature?: string | null;
  status?: string;
  rate?: number | null;
  source?: "wirespeed" | "imported";
  experimentId?: number | null;
  /** minutes after T0; default: one after the run before */
  at?: number;
  seconds?: number | null;
  retransmits?: number | null;
  jitterMs?: number | null;
  lostPercent?: number | null;
  lostPackets?: number | null;
  packets?: number | null;
};

let importCount = 0;

async function addRun(spec: RunSpec) {
  const at = spec.at ?? (minute += 1);
  const status = spec.status ?? "succeeded";
  const createdAt = new Date(T0 + at * 60_000);
  const startedAt = ["queued"].includes(status) ? null : new Date(createdAt.getTime() + 500);
  const seconds = spec.seconds === undefined ? 12 : spec.seconds;
  const final = ["succeeded", "failed", "cancelled", "interrupted"].includes(status);
  const endedAt = final && startedAt && seconds !== null ? new Date(startedAt.getTime() + seconds * 1000) : null;
  const source = spec.source ?? "wirespeed";
  if (final && source === "wirespeed" && endedAt) durations.push(seconds!);
  return db.run.create({
    data: {
      linkId: spec.link,
      status,
      source,
      importHash: source === "imported" ? `hash-${(importCount += 1)}` : null,
      options: {},
      signature: spec.signature === undefined ? TCP : spec.signature,
      experimentId: spec.experimentId ?? null,
      receivedBitsPerSecond: spec.rate === undefined ? (status === "succeeded" ? 900 * MBIT : null) : spec.rate,
      retransmits: spec.retransmits ?? null,
      jitterMs: spec.jitterMs ?? null,
      lostPercent: spec.lostPercent ?? null,
      lostPackets: spec.lostPackets ?? null,
      packets: spec.packets ?? null,
      createdAt,
      startedAt,
      endedAt,
    },
  });
}

beforeAll(async () => {
  const host = async (name: string, reachable: boolean | null) =>
    db.host.create({
      data: {
        name,
        address: "198.18.0.1",
        authMethod: "local",
        platform: "linux",
        reachable,
        checkedAt: reachable === null ? null : new Date(T0),
      },
    });
  const [nas, pve, esx] = [await host("nas1", true), await host("pve", false), await host("esx", null)];
  const nic = async (hostId: number, name: string) => (await db.nic.create({ data: { hostId, name } })).id;
  const link = async (
    name: string,
    a: number,
    b: number,
    speedMbps: number,
    baselineRuns: number,
    importsInBaseline: boolean,
  ) => (await db.link.create({ data: { name, aNicId: a, bNicId: b, speedMbps, baselineRuns, importsInBaseline } })).id;
  ids.nasPve = await link("nas1-pve 10G", await nic(nas.id, "eth1"), await nic(pve.id, "eth1"), 10_000, 5, false);
  ids.pveEsx = await link("pve-esx", await nic(pve.id, "eth2"), await nic(esx.id, "vmnic1"), 1000, 3, true);
  ids.idle = await link("idle", await nic(nas.id, "eth2"), await nic(esx.id, "vmnic2"), 2500, 10, false);
  const experiment = await db.experiment.create({ data: { kind: "sweep", status: "succeeded", plan: {} } });

  // nas1-pve, TCP: 7 runs outside experiments (the last 5 make the baseline: 930, 940, 950, 960, 970 → 950),
  // then a failed run, a faster run inside an experiment, two imported runs (not in this link's
  // baseline), the newest of which is the last result.
  for (const rate of [100, 200, 930, 940, 950, 960, 970])
    await addRun({ link: ids.nasPve, rate: rate * MBIT, retransmits: 7, seconds: 10 });
  await addRun({ link: ids.nasPve, status: "failed", seconds: 0.4 });
  await addRun({ link: ids.nasPve, rate: 9000 * MBIT, experimentId: experiment.id, seconds: 30 });
  await addRun({ link: ids.nasPve, rate: 500 * MBIT, source: "imported", seconds: 10 });
  await addRun({ link: ids.nasPve, rate: 9410 * MBIT, source: "imported", retransmits: 12, seconds: 10 });
  // TCP ×4 B → A: three runs, one without a received rate (not in the baseline); two created at the same
  // instant, the later id being the newer.
  await addRun({ link: ids.nasPve, signature: TCP_P4_BA, rate: 9300 * MBIT, retransmits: 1, at: 100, seconds: 700 });
  await addRun({ link: ids.nasPve, signature: TCP_P4_BA, rate: null, at: 101, seconds: 60 });
  await addRun({ link: ids.nasPve, signature: TCP_P4_BA, rate: 9100 * MBIT, retransmits: 3, at: 102, seconds: 12 });
  await addRun({ link: ids.nasPve, signature: TCP_P4_BA, rate: 9200 * MBIT, retransmits: 4, at: 102, seconds: 12 });
  // UDP at 1 Gbit/s (with a baseline) and at 500 Mbit/s (two runs: none).
  // The newest as a 3.12 client prints a -R test at 600 Mbit/s over a slower link: "27399/206961 (13%)",
  // stored with the 2 digits of the text by Wirespeed before the percent came from the counts.
  for (const [rate, jitterMs, lostPercent, lostPackets, packets] of [
    [990, 0.02, 0.1, 1, 1000],
    [980, 0.03, 0.2, 2, 1000],
    [995, 0.01, 13, 27_399, 206_961],
  ] as const) {
    await addRun({
      link: ids.nasPve,
      signature: UDP_1G,
      rate: rate * MBIT,
      jitterMs,
      lostPercent,
      lostPackets,
      packets,
    });
  }
  await addRun({
    link: ids.nasPve,
    signature: UDP_500M,
    rate: 499 * MBIT,
    jitterMs: 0.5,
    lostPercent: null,
    lostPackets: 25,
    packets: 10_000,
  });
  await addRun({
    link: ids.nasPve,
    signature: UDP_500M,
    rate: 498 * MBIT,
    jitterMs: 0.25,
    lostPercent: null,
    lostPackets: 30,
    packets: 12_000,
  });
  // A run without a signature (before signatures existed) and the ones going on now.
  await addRun({ link: ids.nasPve, signature: null, status: "cancelled", at: 150, seconds: 3 });
  await addRun({ link: ids.nasPve, status: "running", at: 200 });
  await addRun({ link: ids.nasPve, status: "preparing", at: 201 });
  await addRun({ link: ids.nasPve, status: "queued", at: 202 });
  await addRun({ link: ids.nasPve, status: "queued", at: 203 });

  // pve-esx counts imported runs in its baseline (N = 3: 600, 610 and the imported 620 → 610).
  await addRun({ link: ids.pveEsx, rate: 100 * MBIT, at: 10 });
  await addRun({ link: ids.pveEsx, rate: 600 * MBIT, at: 11, seconds: 1 });
  await addRun({ link: ids.pveEsx, rate: 610 * MBIT, at: 12, seconds: 2.5 });
  await addRun({ link: ids.pveEsx, rate: 620 * MBIT, at: 13, source: "imported" });
  // Its newest finished run was interrupted, and never started: the timestamp is its creation.
  await addRun({ link: ids.pveEsx, status: "interrupted", at: 14, seconds: null, rate: null });
  await db.run.update({
    where: { id: (await db.run.findFirst({ where: { linkId: ids.pveEsx, status: "interrupted" } }))!.id },
    data: { startedAt: null },
  });

  const rule = await db.alertRule.create({ data: { name: "slow", belowLineRatePercent: 80 } });
  await db.alert.create({ data: { ruleId: rule.id, linkId: ids.nasPve, status: "firing", title: "slow", body: "…" } });
  await db.alert.create({
    data: { ruleId: rule.id, linkId: ids.nasPve, status: "resolved", title: "slow", body: "…" },
  });
  await db.alert.create({
    data: { ruleId: rule.id, linkId: ids.pveEsx, status: "resolved", title: "slow", body: "…" },
  });

  const viewer = await createUser({ username: "grafana", password: "correct horse battery", role: "viewer" });
  viewerToken = (await createApiToken(viewer.id, "prometheus")).token;
}, 60_000);

afterAll(() => database.close());

const savedPublic = process.env.WIRESPEED_METRICS_PUBLIC;
afterEach(() => {
  if (savedPublic === undefined) delete process.env.WIRESPEED_METRICS_PUBLIC;
  else process.env.WIRESPEED_METRICS_PUBLIC = savedPublic;
});

async function scrape(token: string | null = viewerToken): Promise<Response> {
  return GET(
    new Request("http://localhost/metrics", { headers: token === null ? {} : { authorization: `Bearer ${token}` } }),
  );
}

let text = "";
let samples: Sample[] = [];

function seriesOf(name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

function valueOf(name: string, labels: Record<string, string> = {}): number {
  const found = seriesOf(name, labels);
  if (found.length !== 1) throw new Error(`${found.length} series of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}

function linkLabels(linkId: number) {
  return { link_id: String(linkId) };
}

function signatureLabels(linkId: number, protocol: string, direction: string, parallel: string, bitrate = "") {
  return { link_id: String(linkId), protocol, direction, parallel, bitrate };
}

describe("GET /metrics", () => {
  beforeAll(async () => {
    const response = await scrape();
    expect(response.status).toBe(200);
    text = await response.text();
    samples = parseExposition(text);
  });

  it("answers Prometheus' text format, not cached", async () => {
    const response = await scrape();
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("labels each link's series with its name, id, hosts and nominal rate", () => {
    const tcp = seriesOf(
      "wirespeed_link_last_received_bits_per_second",
      signatureLabels(ids.nasPve, "tcp", "a-to-b", "1"),
    );
    expect(tcp).toHaveLength(1);
    expect(tcp[0]!.labels).toEqual({
      link: "nas1-pve 10G",
      link_id: String(ids.nasPve),
      a_host: "nas1",
      b_host: "pve",
      nominal_mbps: "10000",
      protocol: "tcp",
      direction: "a-to-b",
      parallel: "1",
      bitrate: "",
    });
  });

  it("reports the newest succeeded run of each signature outside experiments, imported or not", () => {
    const tcp = signatureLabels(ids.nasPve, "tcp", "a-to-b", "1");
    expect(valueOf("wirespeed_link_last_received_bits_per_second", tcp)).toBe(9410 * MBIT);
    expect(valueOf("wirespeed_link_last_line_rate_ratio", tcp)).toBeCloseTo(0.941, 12);
    expect(valueOf("wirespeed_link_last_retransmits", tcp)).toBe(12);
    // Same createdAt: the higher id is the newer.
    const p4 = signatureLabels(ids.nasPve, "tcp", "b-to-a", "4");
    expect(valueOf("wirespeed_link_last_received_bits_per_second", p4)).toBe(9200 * MBIT);
    expect(valueOf("wirespeed_link_last_retransmits", p4)).toBe(4);
    // TCP runs have no jitter or loss series.
    expect(seriesOf("wirespeed_link_last_jitter_seconds", { protocol: "tcp" })).toEqual([]);
    expect(seriesOf("wirespeed_link_last_lost_ratio", { protocol: "tcp" })).toEqual([]);
  });

  it("keeps UDP tests of different bitrates apart, with jitter in seconds and loss as a ratio", () => {
    const udp1g = signatureLabels(ids.nasPve, "udp", "a-to-b", "1", "1000000000");
    const udp500 = signatureLabels(ids.nasPve, "udp", "a-to-b", "1", "500000000");
    expect(valueOf("wirespeed_link_last_received_bits_per_second", udp1g)).toBe(995 * MBIT);
    expect(valueOf("wirespeed_link_last_received_bits_per_second", udp500)).toBe(498 * MBIT);
    expect(valueOf("wirespeed_link_last_jitter_seconds", udp1g)).toBeCloseTo(0.00001, 15);
    // From the exact counts, not the stored percent's 2 digits.
    expect(valueOf("wirespeed_link_last_lost_ratio", udp1g)).toBe(27_399 / 206_961);
    expect(valueOf("wirespeed_link_last_jitter_seconds", udp500)).toBeCloseTo(0.00025, 15);
    // Without lostPercent, from the packets.
    expect(valueOf("wirespeed_link_last_lost_ratio", udp500)).toBeCloseTo(30 / 12_000, 15);
    expect(seriesOf("wirespeed_link_last_retransmits", { protocol: "udp" })).toEqual([]);
    expect(seriesOf("wirespeed_link_baseline_bits_per_second", udp500)).toEqual([]);
  });

  it("gives each signature's baseline, imported runs only where the link counts them", () => {
    expect(valueOf("wirespeed_link_baseline_bits_per_second", signatureLabels(ids.nasPve, "tcp", "a-to-b", "1"))).toBe(
      950 * MBIT,
    );
    expect(valueOf("wirespeed_link_baseline_bits_per_second", signatureLabels(ids.nasPve, "tcp", "b-to-a", "4"))).toBe(
      9200 * MBIT,
    );
    expect(
      valueOf(
        "wirespeed_link_baseline_bits_per_second",
        signatureLabels(ids.nasPve, "udp", "a-to-b", "1", "1000000000"),
      ),
    ).toBe(990 * MBIT);
    expect(valueOf("wirespeed_link_baseline_bits_per_second", signatureLabels(ids.pveEsx, "tcp", "a-to-b", "1"))).toBe(
      610 * MBIT,
    );
  });

  it("has exactly the baselines lib/alerts/baseline.ts computes, for every link and signature", async () => {
    const expected: string[] = [];
    for (const linkId of Object.values(ids)) {
      const baseline = await getLinkBaseline(linkId);
      for (const signature of baseline!.signatures) {
        if (signature.medianBitsPerSecond === null) continue;
        const [protocol, direction, streams, bitrate = ""] = signature.signature.split(" ");
        expected.push(
          `${linkId} ${protocol} ${direction} ${streams!.slice(1)} ${bitrate} ${signature.medianBitsPerSecond}`,
        );
      }
    }
    const reported = seriesOf("wirespeed_link_baseline_bits_per_second").map(
      ({ labels, value }) =>
        `${labels.link_id} ${labels.protocol} ${labels.direction} ${labels.parallel} ${labels.bitrate} ${value}`,
    );
    expect(reported.sort()).toEqual(expected.sort());
    expect(reported).toHaveLength(4);
  });

  it("times each link's newest finished run: its end, else its creation; nothing for a link without runs", () => {
    // nas1-pve: the newest finished run is the cancelled one (3 s); the active ones are newer but not finished.
    expect(valueOf("wirespeed_link_last_run_timestamp_seconds", linkLabels(ids.nasPve))).toBe(
      (T0 + 150 * 60_000 + 500 + 3000) / 1000,
    );
    expect(valueOf("wirespeed_link_last_run_timestamp_seconds", linkLabels(ids.pveEsx))).toBe(
      (T0 + 14 * 60_000) / 1000,
    );
    expect(seriesOf("wirespeed_link_last_run_timestamp_seconds", linkLabels(ids.idle))).toEqual([]);
  });

  it("says which links have an alert firing, 0 for the others", () => {
    expect(valueOf("wirespeed_link_alert_firing", linkLabels(ids.nasPve))).toBe(1);
    expect(valueOf("wirespeed_link_alert_firing", linkLabels(ids.pveEsx))).toBe(0);
    expect(valueOf("wirespeed_link_alert_firing", linkLabels(ids.idle))).toBe(0);
  });

  it("counts the runs Wirespeed ran by final status, imported runs left out", () => {
    expect(seriesOf("wirespeed_runs_total").map(({ labels, value }) => [labels.status, value])).toEqual([
      ["succeeded", 20],
      ["failed", 1],
      ["cancelled", 1],
      ["interrupted", 1],
    ]);
  });

  it("has a histogram of the durations of those runs, a 10.000 s run in le=10", () => {
    const count = valueOf("wirespeed_run_duration_seconds_count");
    expect(count).toBe(durations.length);
    expect(valueOf("wirespeed_run_duration_seconds_sum")).toBeCloseTo(
      durations.reduce((sum, value) => sum + value, 0),
      6,
    );
    const buckets = seriesOf("wirespeed_run_duration_seconds_bucket").map(({ labels, value }) => [labels.le, value]);
    const bounds = ["1", "2.5", "5", "10", "15", "30", "60", "120", "300", "600", "1800", "3600"];
    expect(buckets).toEqual([
      ...bounds.map((le) => [le, durations.filter((seconds) => seconds <= Number(le)).length]),
      ["+Inf", durations.length],
    ]);
    expect(valueOf("wirespeed_run_duration_seconds_bucket", { le: "10" })).toBe(
      durations.filter((seconds) => seconds <= 10).length,
    );
    expect(durations.filter((seconds) => seconds === 10).length).toBeGreaterThan(0);
  });

  it("counts the runs going on and waiting", () => {
    expect(valueOf("wirespeed_runs_active")).toBe(2);
    expect(valueOf("wirespeed_runs_queued")).toBe(2);
  });

  it("reports the latest check of each host that has one", () => {
    expect(seriesOf("wirespeed_host_reachable").map(({ labels, value }) => [labels.host, value])).toEqual([
      ["nas1", 1],
      ["pve", 0],
    ]);
  });

  it("reports the scheduler's lag and the process metrics", () => {
    expect(valueOf("wirespeed_scheduler_lag_seconds")).toBe(0);
    expect(seriesOf("process_cpu_user_seconds_total")).toHaveLength(1);
    expect(seriesOf("process_resident_memory_bytes")).toHaveLength(1);
    expect(seriesOf("nodejs_eventloop_lag_seconds")).toHaveLength(1);
  });

  it("declares each name once, with HELP and TYPE", () => {
    const names = declaredNames(text);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(text).toMatch(new RegExp(`^# HELP ${name} \\S`, "m"));
  });
});

describe("who may read /metrics", () => {
  it("lets a viewer's token read it", async () => {
    expect((await scrape()).status).toBe(200);
  });

  it("answers 401 without a token, or with a wrong one", async () => {
    const none = await scrape(null);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      error: { code: "unauthorized", message: expect.stringMatching(/Sign in first/) },
    });
    expect((await scrape("wst_wrong")).status).toBe(401);
  });

  it("is open to all with WIRESPEED_METRICS_PUBLIC=1, and only with 1", async () => {
    process.env.WIRESPEED_METRICS_PUBLIC = "1";
    const open = await scrape(null);
    expect(open.status).toBe(200);
    expect(await open.text()).toContain("wirespeed_runs_total");
    process.env.WIRESPEED_METRICS_PUBLIC = "true";
    expect((await scrape(null)).status).toBe(401);
  });
});

// The names Prometheus' conventions would spell in bytes: issue 14 names these metrics in bits per
// second (what network people read), and promtool's linter says so for each; any other finding fails.
const KNOWN_LINT = [
  'wirespeed_link_baseline_bits_per_second use base unit "bytes" instead of "bits"',
  'wirespeed_link_last_received_bits_per_second use base unit "bytes" instead of "bits"',
];

describe("promtool check metrics", () => {
  it("reads the output without an error, and finds nothing to lint but the bits", async () => {
    const body = await (await scrape()).text();
    const result = await new Promise<{ code: number; output: string }>((resolve, reject) => {
      const child = execFile("promtool", ["check", "metrics"], { encoding: "utf8" }, (error, stdout, stderr) => {
        const failure = error as (NodeJS.ErrnoException & { code?: number | string }) | null;
        if (failure?.code === "ENOENT") {
          reject(
            new Error(
              "promtool is not installed: apt-get install -y prometheus (npm test installs it when run as root)",
            ),
          );
          return;
        }
        resolve({ code: failure ? Number(failure.code ?? 1) : 0, output: `${stdout}${stderr}` });
      });
      child.stdin!.end(body);
    });
    const findings = result.output.split("\n").filter(Boolean);
    expect(findings).toEqual(KNOWN_LINT);
    // 3 is promtool's code for lint findings; a parse error is 1.
    expect(result.code).toBe(3);
  });
});

// The totals and durations of finished runs are kept between scrapes (lib/metrics/read.ts): each
// scrape must still give what the database holds now, as runs end, start and are deleted.
describe("run totals across scrapes", () => {
  async function expectTotalsOfDatabase() {
    const response = await scrape();
    const lines = parseExposition(await response.text());
    const finished = await db.run.findMany({
      where: { source: "wirespeed", status: { in: ["succeeded", "failed", "cancelled", "interrupted"] } },
      select: { status: true, startedAt: true, endedAt: true },
    });
    for (const status of ["succeeded", "failed", "cancelled", "interrupted"]) {
      const metric = lines.find((line) => line.name === "wirespeed_runs_total" && line.labels.status === status);
      expect(metric?.value, status).toBe(finished.filter((run) => run.status === status).length);
    }
    const timed = finished.filter((run) => run.startedAt && run.endedAt);
    expect(lines.find((line) => line.name === "wirespeed_run_duration_seconds_count")?.value).toBe(timed.length);
    const seconds = timed.reduce((sum, run) => sum + (run.endedAt!.getTime() - run.startedAt!.getTime()) / 1000, 0);
    expect(lines.find((line) => line.name === "wirespeed_run_duration_seconds_sum")?.value).toBeCloseTo(seconds, 6);
  }

  it("follows runs that end, new runs, and deleted runs", async () => {
    await expectTotalsOfDatabase();
    // The run that was going ends, a new one ends, one is still going.
    const running = await db.run.findFirstOrThrow({ where: { status: "running" } });
    await db.run.update({
      where: { id: running.id },
      data: { status: "succeeded", endedAt: new Date(running.startedAt!.getTime() + 20_000) },
    });
    await addRun({ link: ids.idle, status: "failed", seconds: 2 });
    await addRun({ link: ids.idle, status: "running" });
    await expectTotalsOfDatabase();
    // A run counted before is deleted: the totals are read again.
    const failed = await db.run.findFirstOrThrow({ where: { status: "failed", linkId: ids.nasPve } });
    await db.run.delete({ where: { id: failed.id } });
    await expectTotalsOfDatabase();
    // Imported runs never count.
    await addRun({ link: ids.idle, source: "imported", seconds: 10 });
    await expectTotalsOfDatabase();
  });
});
