import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "@/testing/database";
import { declaredNames } from "./exposition.test-support";
import { GET } from "@/app/metrics/route";

// docs/grafana/wirespeed.json imports as it is (a datasource input, no fixed datasource), and
// every metric its queries read is one GET /metrics declares.

const database = await openTestDatabase();

type Target = { expr?: string; datasource?: { type?: string; uid?: string } };
type Panel = {
  id: number;
  title: string;
  type: string;
  datasource?: { uid?: string };
  targets?: Target[];
  panels?: Panel[];
};
type Dashboard = {
  __inputs?: Array<{ name: string; type: string; pluginId: string }>;
  schemaVersion: number;
  title: string;
  uid: string;
  panels: Panel[];
  templating?: { list: Array<{ name: string; query?: { query?: string } | string; datasource?: { uid?: string } }> };
};

const dashboard = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../../docs/grafana/wirespeed.json"), "utf8"),
) as Dashboard;
const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);

let exported = new Set<string>();

beforeAll(async () => {
  process.env.WIRESPEED_METRICS_PUBLIC = "1";
  const text = await (await GET(new Request("http://localhost/metrics"))).text();
  delete process.env.WIRESPEED_METRICS_PUBLIC;
  // A histogram is read through its series: _bucket, _sum and _count.
  exported = new Set(declaredNames(text).flatMap((name) => [name, `${name}_bucket`, `${name}_sum`, `${name}_count`]));
});

afterAll(() => database.close());

const PROMQL_WORDS = new Set([
  "by",
  "without",
  "on",
  "ignoring",
  "group_left",
  "group_right",
  "bool",
  "and",
  "or",
  "unless",
  "offset",
  "inf",
  "nan",
]);

/** The metric names a PromQL expression reads: identifiers that are neither functions, keywords, labels nor strings. */
function metricNamesOf(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  return [...stripped.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?!\s*\()/g)]
    .filter(
      (match) =>
        !/[a-zA-Z0-9_:]/.test(stripped[match.index! + match[0].length] ?? "") &&
        !/\d/.test(stripped[match.index! - 1] ?? ""),
    )
    .map((match) => match[0])
    .filter((name) => !PROMQL_WORDS.has(name.toLowerCase()));
}

describe("docs/grafana/wirespeed.json", () => {
  it("is a dashboard Grafana imports as it is, asking for its Prometheus datasource", () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.title).toBe("Wirespeed");
    expect(dashboard.uid).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: "DS_PROMETHEUS", type: "datasource", pluginId: "prometheus" }),
    ]);
    expect(panels.length).toBeGreaterThan(0);
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
    for (const panel of panels) {
      expect(panel.datasource?.uid, panel.title).toBe("${DS_PROMETHEUS}");
      for (const target of panel.targets ?? []) expect(target.datasource?.uid, panel.title).toBe("${DS_PROMETHEUS}");
    }
  });

  it("shows throughput per link, the share of line rate, alerts and run counts", () => {
    const exprs = panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr ?? ""));
    expect(exprs.some((expr) => expr.includes("wirespeed_link_last_received_bits_per_second"))).toBe(true);
    expect(exprs.some((expr) => expr.includes("wirespeed_link_last_line_rate_ratio"))).toBe(true);
    expect(exprs.some((expr) => expr.includes("wirespeed_link_alert_firing"))).toBe(true);
    expect(exprs.some((expr) => /(rate|increase)\(wirespeed_runs_total\[/.test(expr))).toBe(true);
  });

  it("queries only metrics that /metrics exports", () => {
    const queries = [
      ...panels.flatMap((panel) =>
        (panel.targets ?? []).map((target) => ({ where: panel.title, expr: target.expr ?? "" })),
      ),
      ...(dashboard.templating?.list ?? []).map((variable) => ({
        where: `$${variable.name}`,
        // label_values(metric, label) reads the metric
        expr: (typeof variable.query === "string" ? variable.query : (variable.query?.query ?? "")).replace(
          /^label_values\(([^,)]+).*$/,
          "$1",
        ),
      })),
    ];
    const read = queries.flatMap(({ where, expr }) => metricNamesOf(expr).map((name) => ({ where, name })));
    expect(read.length).toBeGreaterThan(10);
    expect(read.filter(({ name }) => !exported.has(name))).toEqual([]);
  });

  it("finds the names in an expression, and only them (the parser of the check above)", () => {
    expect(
      metricNamesOf('histogram_quantile(0.95, sum by (le) (rate(wirespeed_run_duration_seconds_bucket{job="x"}[1h])))'),
    ).toEqual(["wirespeed_run_duration_seconds_bucket"]);
    expect(metricNamesOf('time() - wirespeed_link_last_run_timestamp_seconds{link=~"$link"}')).toEqual([
      "wirespeed_link_last_run_timestamp_seconds",
    ]);
    expect(metricNamesOf("a_metric / on (link_id) b_metric == bool 1")).toEqual(["a_metric", "b_metric"]);
  });
});
