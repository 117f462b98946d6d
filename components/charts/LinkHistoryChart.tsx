"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { CartesianGrid, ReferenceArea, ReferenceLine, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from "recharts";
import { SERIES_COLORS } from "@/components/charts/colors";
import type { BaselineJson } from "@/lib/alerts/contract";
import { DIRECTION_ARROWS } from "@/lib/runs/describe";
import { formatNumber, formatRate } from "@/lib/format";
import type { LinkHistoryPoint } from "@/lib/runs/link-reads";
import { clockAxisProps, formatClockTime, GRID_PROPS, rightAxisProps, useRateAxis } from "./axes";
import { ChartFrame } from "./ChartFrame";
import Link from "next/link";
import { NoteLine } from "@/components/notes/NoteLine";
import { pointTooltip, TooltipBox } from "./ChartTooltip";

/** One run on the chart, as `GET /api/links/:id/history` and the link page give it. */
export type HistoryPoint = LinkHistoryPoint;

type PlotPoint = HistoryPoint & { x: number; y: number };
type LatencyPlotPoint = PlotPoint & { latencyMs: number };

const SERIES_LABELS: Record<keyof typeof SERIES_COLORS, string> = {
  "tcp:a-to-b": "TCP →",
  "tcp:b-to-a": "TCP ←",
  "tcp:bidir": "TCP ⇄",
  "udp:a-to-b": "UDP →",
  "udp:b-to-a": "UDP ←",
  "udp:bidir": "UDP ⇄",
};

/** A baseline that can be drawn: a median, and the slowest and fastest of its runs as the band. */
type Band = BaselineJson & { medianBitsPerSecond: number; minBitsPerSecond: number; maxBitsPerSecond: number };

function isBand(baseline: BaselineJson): baseline is Band {
  return (
    baseline.medianBitsPerSecond !== null && baseline.minBitsPerSecond !== null && baseline.maxBitsPerSecond !== null
  );
}

/**
 * Whether a point is a run of the band's test: by its signature. A point without one (a run
 * recorded before signatures, not yet backfilled) matches on protocol, direction and streams,
 * and a UDP one on those alone, as it does not carry its bitrate.
 */
function isOfBand(point: HistoryPoint, band: Band): boolean {
  if (band.runIds.includes(point.id)) return true;
  if (point.signature) return point.signature === band.signature;
  const prefix = `${point.protocol} ${point.direction} P${point.parallel}`;
  return point.protocol === "udp" ? band.signature.startsWith(`${prefix} `) : band.signature === prefix;
}

const BAND_COLOR = "#16a34a";
const LATENCY_COLOR = "#ea580c";
// Red in both themes, drawn as a cross over the run's own point: the mark's shape says it, not only its colour.
const OFF_LINK_COLOR = "#dc2626";
/**
 * The marker of a run that has a note or labels (lib/notes): violet, as the labels' tags, and one
 * that keeps 4:1 against both themes' panels (a downloaded PNG has no style sheet to switch it).
 */
const NOTE_COLOR = "#8b5cf6";

/**
 * Each run of a link as a point: received rate over time, coloured by protocol and direction;
 * line rate as a reference line. With baselines, one test's baseline is a band (its slowest to
 * fastest run, the median dashed) and the other tests' points are faded; the newest run's test
 * is shown first, and a select picks another or none. Runs that measured latency under load add
 * their loaded median as diamonds on a right axis in ms, which a checkbox hides.
 */
export function LinkHistoryChart({
  points,
  lineRateBitsPerSecond,
  aName,
  bName,
  baselines = [],
  isReadOnly = false,
}: {
  points: HistoryPoint[];
  lineRateBitsPerSecond: number;
  aName: string;
  bName: string;
  baselines?: BaselineJson[];
  /** a share link's page: a point opens no run (a visitor without an account can open none) */
  isReadOnly?: boolean;
}) {
  const router = useRouter();
  const selectId = useId();
  const latencyToggleId = useId();
  const [isLatencyShown, setLatencyShown] = useState(true);
  const bands = baselines.filter(isBand);
  const newest = points.at(-1);
  const defaultSignature =
    (newest ? bands.find((band) => isOfBand(newest, band))?.signature : undefined) ?? bands[0]?.signature ?? "";
  // null: the default (it follows new runs); "": no band.
  const [chosen, setChosen] = useState<string | null>(null);
  const band = bands.find((entry) => entry.signature === (chosen ?? defaultSignature)) ?? null;
  const peak = Math.max(
    lineRateBitsPerSecond,
    band?.maxBitsPerSecond ?? 0,
    ...points.map((point) => point.receivedBitsPerSecond),
  );
  const { unit, rateAxis } = useRateAxis(peak, [0, peak * 1.08]);
  // Per colour, the band's points and (faded) the others.
  const groups = new Map<keyof typeof SERIES_COLORS, { ofBand: PlotPoint[]; others: PlotPoint[] }>();
  for (const point of points) {
    const key = `${point.protocol}:${point.direction}` as keyof typeof SERIES_COLORS;
    const group = groups.get(key) ?? { ofBand: [], others: [] };
    (band && !isOfBand(point, band) ? group.others : group.ofBand).push({
      ...point,
      x: Date.parse(point.time),
      y: point.receivedBitsPerSecond,
    });
    groups.set(key, group);
  }
  const latencyPoints: LatencyPlotPoint[] = points.flatMap((point) =>
    point.loadedLatencyMs != null && Number.isFinite(point.loadedLatencyMs)
      ? [{ ...point, x: Date.parse(point.time), y: point.receivedBitsPerSecond, latencyMs: point.loadedLatencyMs }]
      : [],
  );
  // Runs whose bytes took another route (their path check): crossed out, and said so in the key and the label.
  const offLinkPoints: PlotPoint[] = points.flatMap((point) =>
    point.offLink ? [{ ...point, x: Date.parse(point.time), y: point.receivedBitsPerSecond }] : [],
  );
  // Runs a user wrote something about ("after moving the card to slot 2"): a marked line at their time.
  const notedPoints: PlotPoint[] = points.flatMap((point) =>
    point.note || point.labels?.length ? [{ ...point, x: Date.parse(point.time), y: point.receivedBitsPerSecond }] : [],
  );
  const hasLatency = latencyPoints.length > 0;
  const showsLatency = hasLatency && isLatencyShown;
  const times = points.map((point) => Date.parse(point.time));
  const span = times.length ? Math.max(...times) - Math.min(...times) : 0;
  const padding = Math.max(span * 0.03, 60_000);
  const onPointClick = (entry: unknown) => {
    const id = (entry as { payload?: PlotPoint }).payload?.id;
    if (id && !isReadOnly) router.push(`/runs/${id}`);
  };
  return (
    <div>
      {bands.length > 0 || hasLatency ? (
        <div className="mb-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
          {bands.length > 0 ? (
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor={selectId} className="font-medium">
                Baseline band
              </label>
              <select
                id={selectId}
                value={band?.signature ?? ""}
                onChange={(event) => setChosen(event.target.value)}
                className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900"
              >
                {bands.map((entry) => (
                  <option key={entry.signature} value={entry.signature}>
                    {entry.label}
                  </option>
                ))}
                <option value="">None</option>
              </select>
            </div>
          ) : null}
          {hasLatency ? (
            <label htmlFor={latencyToggleId} className="inline-flex items-center gap-2">
              <input
                id={latencyToggleId}
                type="checkbox"
                checked={isLatencyShown}
                onChange={(event) => setLatencyShown(event.target.checked)}
                className="h-4 w-4 accent-sky-600"
                data-testid="history-latency-toggle"
              />
              Loaded latency ({latencyPoints.length} run{latencyPoints.length === 1 ? "" : "s"})
            </label>
          ) : null}
        </div>
      ) : null}
      <ChartFrame
        size="large"
        data-testid="history-chart"
        data-point-count={points.length}
        data-baseline-signature={band?.signature}
        data-latency-point-count={showsLatency ? latencyPoints.length : 0}
        data-off-link-count={offLinkPoints.length}
        label={
          `Received rate of ${points.length} runs over time` +
          (band ? `; the baseline of ${band.label} is ${formatRate(band.medianBitsPerSecond, unit)}` : "") +
          (offLinkPoints.length > 0
            ? `; ${offLinkPoints.length} run${offLinkPoints.length === 1 ? "" : "s"} went off the link`
            : "") +
          (showsLatency
            ? `; loaded latency of ${latencyPoints.length} runs, ` +
              `from ${formatNumber(Math.min(...latencyPoints.map((point) => point.latencyMs)))} ` +
              `to ${formatNumber(Math.max(...latencyPoints.map((point) => point.latencyMs)))} ms`
            : "")
        }
      >
        <ScatterChart margin={{ top: 8, right: 8, bottom: 4, left: 4 }}>
          <CartesianGrid {...GRID_PROPS} />
          <XAxis
            {...clockAxisProps(span)}
            name="time"
            domain={times.length ? [Math.min(...times) - padding, Math.max(...times) + padding] : ["auto", "auto"]}
          />
          <YAxis {...rateAxis} dataKey="y" type="number" />
          {showsLatency ? (
            <YAxis
              {...rightAxisProps(LATENCY_COLOR, 48, "ms")}
              yAxisId="latency"
              dataKey="latencyMs"
              type="number"
              domain={[0, (max: number) => Math.max(1, max * 1.1)]}
              tickFormatter={(value: number) => formatNumber(value)}
            />
          ) : null}
          {/* A band of no height (every run alike) is drawn a hair thick, so it still shows. */}
          {band ? (
            <ReferenceArea
              y1={band.minBitsPerSecond}
              y2={Math.max(band.maxBitsPerSecond, band.minBitsPerSecond * 1.002)}
              fill={BAND_COLOR}
              fillOpacity={0.14}
              stroke="none"
              ifOverflow="extendDomain"
            />
          ) : null}
          {band ? (
            <ReferenceLine
              y={band.medianBitsPerSecond}
              stroke={BAND_COLOR}
              strokeDasharray="2 3"
              strokeWidth={1.5}
              label={{
                value: `baseline ${formatRate(band.medianBitsPerSecond, unit)}`,
                position: "insideTopLeft",
                fill: BAND_COLOR,
                fontSize: 11,
              }}
            />
          ) : null}
          {notedPoints.map((point) => (
            <ReferenceLine
              key={`note-${point.id}`}
              x={point.x}
              stroke={NOTE_COLOR}
              strokeDasharray="2 3"
              strokeWidth={1.5}
              // At the foot of the line: the top is where the line rate's label sits.
              label={{ value: "✎", position: "insideBottomLeft", fill: NOTE_COLOR, fontSize: 12 }}
            />
          ))}
          <ReferenceLine
            y={lineRateBitsPerSecond}
            stroke="currentColor"
            strokeDasharray="6 4"
            strokeOpacity={0.7}
            label={{
              value: `line rate ${formatRate(lineRateBitsPerSecond, unit)}`,
              position: "insideBottomRight",
              fill: "currentColor",
              fontSize: 11,
            }}
          />
          {[...groups.entries()].flatMap(([key, group]) => [
            <Scatter
              key={key}
              name={SERIES_LABELS[key]}
              data={group.ofBand}
              fill={SERIES_COLORS[key]}
              isAnimationActive={false}
              cursor={isReadOnly ? undefined : "pointer"}
              onClick={onPointClick}
            />,
            group.others.length > 0 ? (
              <Scatter
                key={`${key}:others`}
                name={`${SERIES_LABELS[key]} (other tests)`}
                data={group.others}
                fill={SERIES_COLORS[key]}
                fillOpacity={0.3}
                isAnimationActive={false}
                cursor={isReadOnly ? undefined : "pointer"}
                onClick={onPointClick}
              />
            ) : null,
          ])}
          {offLinkPoints.length > 0 ? (
            <Scatter
              name="off the link"
              data={offLinkPoints}
              shape="cross"
              fill={OFF_LINK_COLOR}
              isAnimationActive={false}
              cursor={isReadOnly ? undefined : "pointer"}
              onClick={onPointClick}
            />
          ) : null}
          {showsLatency ? (
            <Scatter
              name="loaded latency"
              data={latencyPoints}
              dataKey="latencyMs"
              yAxisId="latency"
              shape="diamond"
              fill={LATENCY_COLOR}
              isAnimationActive={false}
              cursor={isReadOnly ? undefined : "pointer"}
              onClick={onPointClick}
            />
          ) : null}
          <Tooltip
            isAnimationActive={false}
            cursor={{ strokeDasharray: "3 3" }}
            content={pointTooltip<PlotPoint>((point) => (
              <TooltipBox
                title={`Run #${point.id}${point.imported ? " · imported" : ""}${point.offLink ? " · off the link" : ""} · ${formatClockTime(point.x)}`}
                rows={[
                  {
                    label: `${point.protocol.toUpperCase()}${point.parallel > 1 ? ` ×${point.parallel}` : ""} ${DIRECTION_ARROWS[point.direction]}`,
                    value: formatRate(point.y, unit),
                    color: SERIES_COLORS[`${point.protocol}:${point.direction}`],
                  },
                  {
                    label: "of line rate",
                    value:
                      lineRateBitsPerSecond > 0 ? `${formatNumber((point.y / lineRateBitsPerSecond) * 100)} %` : "–",
                  },
                  ...(point.loadedLatencyMs != null
                    ? [
                        {
                          label: "loaded latency, median",
                          value: `${formatNumber(point.loadedLatencyMs)} ms`,
                          color: LATENCY_COLOR,
                        },
                      ]
                    : []),
                  ...(point.labels?.length
                    ? [{ label: "labels", value: point.labels.join(", "), color: NOTE_COLOR }]
                    : []),
                  ...(point.note ? [{ label: "note", value: point.note, color: NOTE_COLOR }] : []),
                ]}
              />
            ))}
          />
        </ScatterChart>
      </ChartFrame>
      <ul
        className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300"
        aria-label="Colours"
      >
        {[...groups.keys()].map((key) => (
          <li key={key} className="flex items-center gap-1.5">
            <span
              aria-hidden
              className="inline-block h-2.5 w-2.5 rounded-full"
              style={{ backgroundColor: SERIES_COLORS[key] }}
            />
            {SERIES_LABELS[key]
              .replace("→", `${aName} → ${bName}`)
              .replace("←", `${bName} → ${aName}`)
              .replace("⇄", "both ways")}
          </li>
        ))}
        <li className="flex items-center gap-1.5">
          <svg aria-hidden width="18" height="6">
            <line x1="0" y1="3" x2="18" y2="3" stroke="currentColor" strokeWidth={2} strokeDasharray="4 3" />
          </svg>
          line rate
        </li>
        {showsLatency ? (
          <li className="flex items-center gap-1.5" data-testid="history-latency">
            <svg aria-hidden width="10" height="10">
              <path d="M5,0L10,5L5,10L0,5Z" fill={LATENCY_COLOR} />
            </svg>
            loaded latency: the median round-trip time under load of runs that measured it (right axis, ms)
          </li>
        ) : null}
        {offLinkPoints.length > 0 ? (
          <li className="flex items-center gap-1.5" data-testid="history-off-link">
            <svg aria-hidden width="10" height="10">
              <path d="M1,1L9,9M9,1L1,9" stroke={OFF_LINK_COLOR} strokeWidth={2} />
            </svg>
            off the link: {offLinkPoints.length} run{offLinkPoints.length === 1 ? "" : "s"} whose bytes took another
            route (not in the baseline)
          </li>
        ) : null}
        {notedPoints.length > 0 ? (
          <li className="flex items-center gap-1.5" data-testid="history-notes">
            <svg aria-hidden width="10" height="12">
              <line x1="5" y1="0" x2="5" y2="12" stroke={NOTE_COLOR} strokeWidth={1.5} strokeDasharray="2 3" />
            </svg>
            ✎ a run with a note or labels ({notedPoints.length}): listed under the chart
          </li>
        ) : null}
        {band ? (
          <li className="flex items-center gap-1.5" data-testid="history-baseline">
            <span
              aria-hidden
              className="inline-block h-2.5 w-4 rounded-sm"
              style={{ backgroundColor: BAND_COLOR, opacity: 0.35 }}
            />
            baseline of {band.label}: {formatRate(band.medianBitsPerSecond, unit)}, median of {band.count} runs (band:
            slowest to fastest; other tests faded)
          </li>
        ) : null}
      </ul>
      {notedPoints.length > 0 ? <HistoryNotes points={notedPoints} isReadOnly={isReadOnly} /> : null}
    </div>
  );
}

/** What the chart's ✎ lines mark, in words: the newest ten runs with a note or labels, newest first. */
function HistoryNotes({ points, isReadOnly }: { points: PlotPoint[]; isReadOnly?: boolean }) {
  const newest = [...points].sort((a, b) => b.x - a.x).slice(0, 10);
  return (
    <ul aria-label="Notes on the chart" className="mt-3 space-y-1 text-sm" data-testid="history-note-list">
      {newest.map((point) => (
        <li key={point.id} className="flex flex-wrap items-baseline gap-x-2">
          <span aria-hidden className="text-violet-700 dark:text-violet-300">
            ✎
          </span>
          {isReadOnly ? (
            <span className="font-medium">Run #{point.id}</span>
          ) : (
            <Link href={`/runs/${point.id}`} className="font-medium text-sky-700 hover:underline dark:text-sky-300">
              Run #{point.id}
            </Link>
          )}
          <span className="text-xs text-slate-600 dark:text-slate-400">{formatClockTime(point.x)}</span>
          <NoteLine note={point.note} labels={point.labels} linkLabels={!isReadOnly} className="max-w-none" />
        </li>
      ))}
    </ul>
  );
}
