import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { getApp } from "@/lib/running-app";
import { RUN_DURATION_BUCKETS, readMetricsSnapshot, type MetricsSnapshot } from "./read";

// GET /metrics in Prometheus' text format, rendered by prom-client. The process metrics live in
// one registry per process (their collectors keep state between scrapes: GC and event-loop
// histograms); Wirespeed's own are built afresh at each scrape from a snapshot of the database,
// in a registry of their own, so two scrapes at once never see each other's half-filled figures.

/** The process metrics (CPU, memory, event loop, GC, handles), one registry per app (lib/app.ts), so that dev-mode reloads do not register them twice. */
export function processRegistry(): Registry {
  const state = getApp().metrics;
  if (!state.process) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    // Gauges that prom-client names like counters (promtool rejects the suffix); their per-type
    // siblings (nodejs_active_handles{type}, …) remain, and sum to the same.
    for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"])
      registry.removeSingleMetric(name);
    state.process = registry;
  }
  return state.process;
}

/** Whether /metrics answers without a token (WIRESPEED_METRICS_PUBLIC=1). */
export function metricsPublic(env: Record<string, string | undefined> = process.env): boolean {
  return env.WIRESPEED_METRICS_PUBLIC === "1";
}

/**
 * A histogram whose buckets are counted by the database (prom-client's own only observes values
 * one by one): get() answers the snapshot's counts in the shape prom-client renders.
 */
class StoredHistogram extends Histogram {
  private stored: MetricsSnapshot["durations"] = { buckets: [], count: 0, sumSeconds: 0 };

  constructor(
    private readonly metricName: string,
    private readonly helpText: string,
    registers: Registry[],
  ) {
    super({ name: metricName, help: helpText, buckets: [...RUN_DURATION_BUCKETS], registers });
  }

  setStored(durations: MetricsSnapshot["durations"]): void {
    this.stored = durations;
  }

  // The registry renders the text from getForPromString, and Histogram's get() (the JSON) reads it too.
  async getForPromString() {
    const { buckets, count, sumSeconds } = this.stored;
    const name = this.metricName;
    return {
      name,
      help: this.helpText,
      type: "histogram" as const,
      aggregator: "sum" as const,
      values: [
        ...RUN_DURATION_BUCKETS.map((bound, index) => ({
          metricName: `${name}_bucket`,
          labels: { le: bound },
          value: buckets[index] ?? 0,
        })),
        { metricName: `${name}_bucket`, labels: { le: "+Inf" }, value: count },
        { metricName: `${name}_sum`, labels: {}, value: sumSeconds },
        { metricName: `${name}_count`, labels: {}, value: count },
      ],
    };
  }
}

type Labels = Record<string, string>;
type GaugeValue = { value: number; labels: Labels; sharedLabels?: Labels };

/**
 * A gauge whose values are handed over as they are, already labelled: with 500 links and thousands
 * of series, prom-client's own set() (hashing each label set) and its formatting of every label of
 * every line were most of a scrape. A series' labels go in as `sharedLabels`, one object per link
 * or signature shared by every metric of it, which prom-client formats once and remembers.
 */
class SnapshotGauge extends Gauge {
  private readonly values: GaugeValue[] = [];

  constructor(
    private readonly metricName: string,
    private readonly helpText: string,
    registers: Registry[],
  ) {
    super({ name: metricName, help: helpText, registers });
  }

  /** One series: `labels` is a shared, never-changed object (formatted once per scrape by identity). */
  add(labels: Labels, value: number): void {
    this.values.push({ value, labels: NO_LABELS, sharedLabels: labels });
  }

  async getForPromString() {
    return {
      name: this.metricName,
      help: this.helpText,
      type: "gauge" as const,
      aggregator: "sum" as const,
      values: this.values,
    };
  }
}
const NO_LABELS: Labels = Object.freeze({}) as Labels;

// The label sets of the last scrape, by their values. prom-client remembers the text of each label
// object it has formatted (by the object's identity), so handing it the same object while a
// link's labels stay the same formats them once, not at every scrape. They are kept on the app.

/** This scrape's label sets: last scrape's objects where the values are the same, new ones otherwise. */
class LabelSets {
  private readonly previous: ReadonlyMap<string, Labels> = getApp().metrics.labels ?? new Map<string, Labels>();
  private readonly current = new Map<string, Labels>();

  get(key: string, make: () => Labels): Labels {
    let labels = this.current.get(key) ?? this.previous.get(key);
    if (!labels) labels = Object.freeze(make()) as Labels;
    this.current.set(key, labels);
    return labels;
  }

  /** Keeps this scrape's sets for the next one (those of deleted links go). */
  keep(): void {
    getApp().metrics.labels = this.current;
  }
}

/** Wirespeed's metrics for one scrape, filled from `snapshot`. */
export function wirespeedRegistry(snapshot: MetricsSnapshot, schedulerLagSeconds: number): Registry {
  const registers = [new Registry()];
  const gauge = (name: string, help: string) => new SnapshotGauge(name, help, registers);

  const received = gauge(
    "wirespeed_link_last_received_bits_per_second",
    "Received rate of the newest succeeded run of each test signature of a link, outside experiments, in bits per second.",
  );
  const lineRate = gauge(
    "wirespeed_link_last_line_rate_ratio",
    "Received rate of the newest succeeded run of each test signature over the link's nominal line rate (0 to 1).",
  );
  const retransmits = gauge(
    "wirespeed_link_last_retransmits",
    "TCP retransmits of the newest succeeded run of each TCP test signature of a link.",
  );
  const jitter = gauge(
    "wirespeed_link_last_jitter_seconds",
    "UDP jitter of the newest succeeded run of each UDP test signature of a link, in seconds.",
  );
  const lost = gauge(
    "wirespeed_link_last_lost_ratio",
    "Share of UDP datagrams lost in the newest succeeded run of each UDP test signature of a link (0 to 1).",
  );
  const baseline = gauge(
    "wirespeed_link_baseline_bits_per_second",
    "Baseline of each test signature of a link: the median received rate of its latest successful runs outside experiments, in bits per second.",
  );
  const lastRun = gauge(
    "wirespeed_link_last_run_timestamp_seconds",
    "When the newest finished run of a link ended (or was created, without an end), as a Unix time in seconds.",
  );
  const firing = gauge("wirespeed_link_alert_firing", "1 when an alert of the link is firing, else 0.");
  const runs = new Counter({
    name: "wirespeed_runs_total",
    help: "Runs Wirespeed ran (imported runs left out) that ended, by final status.",
    labelNames: ["status"],
    registers,
  });
  const durations = new StoredHistogram(
    "wirespeed_run_duration_seconds",
    "Time from the start to the end of the runs Wirespeed ran that ended, in seconds.",
    registers,
  );
  const active = gauge("wirespeed_runs_active", "Runs preparing, listening for a device or running now.");
  const queued = gauge("wirespeed_runs_queued", "Runs waiting for their link.");
  const reachable = gauge(
    "wirespeed_host_reachable",
    "1 when the latest check of the host reached it over SSH, else 0; hosts never checked are left out.",
  );
  const lag = gauge(
    "wirespeed_scheduler_lag_seconds",
    "How late the scheduler's latest starts came after their due time, in seconds.",
  );

  const labelSets = new LabelSets();
  for (const link of snapshot.links) {
    const linkKey = `${link.id}\u0000${link.name}\u0000${link.aHost}\u0000${link.bHost}\u0000${link.speedMbps}`;
    const linkLabels = labelSets.get(linkKey, () => ({
      link: link.name,
      link_id: String(link.id),
      a_host: link.aHost,
      b_host: link.bHost,
      nominal_mbps: String(link.speedMbps),
    }));
    for (const signature of link.signatures) {
      const { protocol, direction, parallel, bitrate } = signature.labels;
      const labels = labelSets.get(`${linkKey}\u0000${signature.signature}`, () => ({
        ...linkLabels,
        protocol,
        direction,
        parallel,
        bitrate,
      }));
      const last = signature.last;
      if (last?.receivedBitsPerSecond != null) {
        received.add(labels, last.receivedBitsPerSecond);
        if (link.speedMbps > 0) lineRate.add(labels, last.receivedBitsPerSecond / (link.speedMbps * 1e6));
      }
      if (last?.retransmits != null && protocol === "tcp") retransmits.add(labels, last.retransmits);
      if (last?.jitterMs != null && protocol === "udp") jitter.add(labels, last.jitterMs / 1000);
      if (last?.lostRatio != null && protocol === "udp") lost.add(labels, last.lostRatio);
      if (signature.baselineBitsPerSecond !== null) baseline.add(labels, signature.baselineBitsPerSecond);
    }
    if (link.lastRunAt) lastRun.add(linkLabels, link.lastRunAt.getTime() / 1000);
    firing.add(linkLabels, link.alertFiring ? 1 : 0);
  }
  for (const [status, count] of Object.entries(snapshot.runsByStatus)) runs.inc({ status }, count);
  durations.setStored(snapshot.durations);
  active.add(NO_LABELS, snapshot.active);
  queued.add(NO_LABELS, snapshot.queued);
  for (const host of snapshot.hosts) reachable.add({ host: host.name }, host.reachable ? 1 : 0);
  lag.add(NO_LABELS, schedulerLagSeconds);
  labelSets.keep();
  return registers[0]!;
}

/** The body and content type of GET /metrics: the database read now, and the process metrics. */
export async function renderMetrics(): Promise<{ body: string; contentType: string }> {
  const snapshot = await readMetricsSnapshot();
  const registry = Registry.merge([processRegistry(), wirespeedRegistry(snapshot, getApp().scheduler.lagSeconds)]);
  return { body: await registry.metrics(), contentType: registry.contentType };
}
