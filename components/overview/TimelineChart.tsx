"use client";

import { useState, type PointerEvent } from "react";
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
import { formatRate } from "@/lib/format";
import { zoomOfDrag, type TimelineZoom } from "@/lib/overview/contract";

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

/**
 * Throughput of every link over wall-clock time from `from` to `to`: each run its intervals, one
 * colour per link. A drag across it asks `onZoom` for the span dragged.
 */
export function TimelineChart({
  series,
  from,
  to,
  zoomed = false,
  onZoom,
}: {
  series: TimelineSeries[];
  from: number;
  to: number;
  zoomed?: boolean;
  onZoom?: (zoom: TimelineZoom) => void;
}) {
  const peak = Math.max(1, ...series.flatMap((entry) => entry.points.map(([, y]) => y)));
  const { unit, rateAxis } = useRateAxis(peak, [0, "auto"]);
  const pointCount = series.reduce((sum, entry) => sum + entry.points.length, 0);
  const ticks = clockTicks(from, to);
  const tickFormat = clockTicksFormat(ticks, to - from);
  return (
    <div>
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
      <ul
        className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300"
        aria-label="Links on the timeline"
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
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-300">
          {zoomed ? "Drag again to zoom further in." : "Drag across the chart to zoom into a span."}
        </p>
      ) : null}
    </div>
  );
}
