"use client";

import { useState, type FormEvent, type KeyboardEvent, type PointerEvent } from "react";
import { Area, CartesianGrid, ComposedChart, Tooltip, usePlotArea, useXAxisInverseScale, XAxis, YAxis } from "recharts";
import {
  clockAxisProps,
  clockTicks,
  clockTicksFormat,
  formatClockTime,
  GRID_PROPS,
  useRateAxis,
} from "@/components/charts/axes";
import { ChartFrame } from "@/components/charts/ChartFrame";
import { TooltipBox } from "@/components/charts/ChartTooltip";
import { Button, TextField } from "@/components/ui/ui";
import { formatRate } from "@/lib/format";
import { zoomOfDrag, type TimelineZoom } from "@/lib/overview/contract";
import { localInputValue, zoomedIn, zoomedOut, zoomOfForm, type ZoomFormField } from "./timeline-zoom";

export type TimelineSeries = { linkId: number; name: string; color: string; points: Array<[number, number]> };

type PlotPoint = { x: number; y: number };

/** A drag narrower than this many pixels is a click, not a zoom. */
const MIN_DRAG_PX = 4;

/**
 * Drag-to-zoom over the plot area: a pointer (mouse, pen or a finger moving sideways) dragged
 * across it shades the span, and letting go zooms to it. Drawn inside the chart, so it knows the
 * plot's place and the x scale; the tooltip still follows the pointer through it.
 */
function DragZoom({ domain, onZoom }: { domain: [number, number]; onZoom: (zoom: TimelineZoom) => void }) {
  const plot = usePlotArea();
  const invert = useXAxisInverseScale();
  const [drag, setDrag] = useState<{ start: number; end: number } | null>(null);
  if (!plot || !invert) return null;
  const xOf = (event: PointerEvent<SVGRectElement>) => {
    const left = event.currentTarget.ownerSVGElement?.getBoundingClientRect().left ?? 0;
    return Math.min(plot.x + plot.width, Math.max(plot.x, event.clientX - left));
  };
  return (
    <g>
      {drag ? (
        <rect
          x={Math.min(drag.start, drag.end)}
          y={plot.y}
          width={Math.abs(drag.end - drag.start)}
          height={plot.height}
          fill="currentColor"
          fillOpacity={0.15}
          stroke="currentColor"
          strokeOpacity={0.5}
          pointerEvents="none"
          data-testid="timeline-zoom-selection"
        />
      ) : null}
      <rect
        x={plot.x}
        y={plot.y}
        width={plot.width}
        height={plot.height}
        fill="transparent"
        // A finger moving up or down still scrolls the page; sideways it drags.
        style={{ cursor: "crosshair", touchAction: "pan-y" }}
        data-testid="timeline-zoom-area"
        onPointerDown={(event) => {
          if (event.button !== 0) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          const x = xOf(event);
          setDrag({ start: x, end: x });
        }}
        onPointerMove={(event) => {
          if (drag) setDrag({ start: drag.start, end: xOf(event) });
        }}
        onPointerUp={(event) => {
          if (!drag) return;
          const end = xOf(event);
          setDrag(null);
          if (Math.abs(end - drag.start) < MIN_DRAG_PX) return;
          const zoom = zoomOfDrag(Number(invert(drag.start)), Number(invert(end)), domain);
          if (zoom) onZoom(zoom);
        }}
        onPointerCancel={() => setDrag(null)}
      />
    </g>
  );
}

type ZoomFields = { from: string; to: string; problem: { field: ZoomFormField; message: string } | null };

/**
 * The zoom typed in: From and To as the browser's date and time fields take them (to the second),
 * folded under a summary. They show what the chart shows when opened and whenever the zoom
 * changes; a span the URL would refuse is refused here, naming the field, which takes the focus.
 */
function ZoomForm({
  from,
  to,
  viewKey,
  onZoom,
}: {
  from: number;
  to: number;
  /** changes when what the chart shows is another zoom or range (not when an unzoomed range moves on) */
  viewKey: string;
  onZoom: (zoom: TimelineZoom) => void;
}) {
  const shown = (): ZoomFields => ({ from: localInputValue(from), to: localInputValue(to), problem: null });
  const [state, setState] = useState({ viewKey, fields: shown() });
  let { fields } = state;
  if (state.viewKey !== viewKey) {
    fields = shown();
    setState({ viewKey, fields });
  }
  const set = (next: Partial<ZoomFields>) =>
    setState((previous) => ({ ...previous, fields: { ...previous.fields, ...next } }));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = zoomOfForm(fields.from, fields.to);
    if ("zoom" in result) {
      set({ problem: null });
      onZoom(result.zoom);
    } else {
      set({ problem: { field: result.field, message: result.message } });
      event.currentTarget.querySelector<HTMLInputElement>(`input[name="${result.field}"]`)?.focus();
    }
  };
  const errorOf = (field: ZoomFormField) => (fields.problem?.field === field ? fields.problem.message : undefined);
  return (
    <details
      className="mt-2"
      onToggle={(event) => {
        if (event.currentTarget.open) set(shown());
      }}
    >
      <summary className="w-fit cursor-pointer rounded text-sm font-medium text-slate-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-slate-200">
        Zoom to times…
      </summary>
      <form aria-label="Zoom to times" noValidate onSubmit={submit} className="mt-2 flex flex-wrap items-start gap-3">
        {(["from", "to"] as const).map((field) => (
          <TextField
            key={field}
            label={field === "from" ? "From" : "To"}
            name={field}
            type="datetime-local"
            step={1}
            value={fields[field]}
            onChange={(event) => set({ [field]: event.target.value })}
            error={errorOf(field)}
            className="w-60"
          />
        ))}
        {/* Level with the fields, below their labels (beside To at phone width too). */}
        <Button type="submit" className="mt-6">
          Zoom
        </Button>
      </form>
    </details>
  );
}

/**
 * Throughput of every link over wall-clock time from `from` to `to`: each run its intervals, one
 * colour per link. A drag across it asks `onZoom` for the span dragged; so do + and - on the
 * focused chart (the middle half; twice as wide, no zoom once as wide as the range, `rangeMs`)
 * and the From/To form below it.
 */
export function TimelineChart({
  series,
  from,
  to,
  zoomed = false,
  rangeMs,
  onZoom,
}: {
  series: TimelineSeries[];
  from: number;
  to: number;
  zoomed?: boolean;
  /** how far back the unzoomed range reaches, which - never goes past */
  rangeMs?: number;
  onZoom?: (zoom: TimelineZoom | null) => void;
}) {
  const peak = Math.max(1, ...series.flatMap((entry) => entry.points.map(([, y]) => y)));
  const { unit, rateAxis } = useRateAxis(peak, [0, "auto"]);
  const pointCount = series.reduce((sum, entry) => sum + entry.points.length, 0);
  const ticks = clockTicks(from, to);
  const tickFormat = clockTicksFormat(ticks, to - from);
  // The chart is a Tab stop (Recharts' arrow keys move its tooltip); + and - zoom it.
  const zoomByKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!onZoom || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === "+" || event.key === "=") {
      const zoom = zoomedIn([from, to]);
      if (zoom && (zoom.from !== from || zoom.to !== to)) onZoom(zoom);
    } else if (event.key === "-") {
      if (zoomed) onZoom(zoomedOut([from, to], rangeMs ?? Infinity, Date.now()));
    } else {
      return;
    }
    event.preventDefault();
  };
  return (
    <div>
      {/* The keys reach it from the chart's own surface, the one thing in it that takes the focus. */}
      <div onKeyDown={zoomByKey}>
        <ChartFrame
          size="medium"
          label={`Throughput of ${series.length} links over time`}
          data-testid="timeline-chart"
          data-point-count={pointCount}
          data-from={from}
          data-to={to}
          data-zoomed={zoomed ? "true" : "false"}
        >
          <ComposedChart margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
            <CartesianGrid {...GRID_PROPS} />
            <XAxis
              {...clockAxisProps(to - from)}
              tickFormatter={(value: number) => tickFormat.format(new Date(value))}
              domain={[from, to]}
              allowDataOverflow
              ticks={ticks}
              interval="preserveStartEnd"
              minTickGap={16}
            />
            <YAxis {...rateAxis} dataKey="y" type="number" />
            {series.map((entry) => (
              <Area
                key={entry.linkId}
                name={entry.name}
                data={entry.points.map(([x, y]): PlotPoint => ({ x, y }))}
                dataKey="y"
                type="linear"
                stroke={entry.color}
                strokeWidth={1.5}
                fill={entry.color}
                fillOpacity={0.18}
                dot={false}
                activeDot={{ r: 3 }}
                isAnimationActive={false}
              />
            ))}
            <Tooltip
              isAnimationActive={false}
              content={({ active, payload }) => {
                const items = active
                  ? (payload ?? []).filter((item) => typeof (item.payload as PlotPoint | undefined)?.y === "number")
                  : [];
                if (items.length === 0) return null;
                const x = (items[0]!.payload as PlotPoint).x;
                return (
                  <TooltipBox
                    title={formatClockTime(x)}
                    rows={items.map((item) => ({
                      label: String(item.name),
                      value: formatRate((item.payload as PlotPoint).y, unit),
                      color: String(item.color ?? item.stroke ?? ""),
                    }))}
                  />
                );
              }}
            />
            {onZoom ? <DragZoom domain={[from, to]} onZoom={onZoom} /> : null}
          </ComposedChart>
        </ChartFrame>
      </div>
      {series.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-300" data-testid="timeline-span-empty">
          No tests in this span: zoom out, or Reset zoom.
        </p>
      ) : null}
      <ul
        className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300"
        aria-label="Links on the timeline"
        hidden={series.length === 0}
      >
        {series.map((entry) => (
          <li
            key={entry.linkId}
            className="flex items-center gap-1.5"
            data-testid="timeline-series"
            data-link-name={entry.name}
            data-point-count={entry.points.length}
          >
            <span
              aria-hidden
              className="inline-block h-2.5 w-2.5 rounded-full"
              style={{ backgroundColor: entry.color }}
            />
            {entry.name}
          </li>
        ))}
      </ul>
      {onZoom ? (
        <>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
            {zoomed
              ? "Drag again, or press + on the chart, to zoom further in; - zooms out."
              : "Drag across the chart, or focus it and press +, to zoom into a span."}
          </p>
          <ZoomForm from={from} to={to} viewKey={zoomed ? `${from} ${to}` : `range ${rangeMs}`} onZoom={onZoom} />
        </>
      ) : null}
    </div>
  );
}
