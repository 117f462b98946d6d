import type { ReactNode } from "react";

/**
 * A Tooltip's `content` that shows `render` of the data point under the pointer, and nothing when
 * there is none (`P`: the chart's point type).
 */
export function pointTooltip<P>(render: (point: P) => ReactNode) {
  return ({ active, payload }: { active?: boolean; payload?: ReadonlyArray<{ payload?: unknown }> }) => {
    const point = active ? (payload?.[0]?.payload as P | undefined) : undefined;
    return point ? render(point) : null;
  };
}

/** The tooltip box of every chart, styled for both themes (Recharts' default is white only). */
export function TooltipBox({
  title,
  rows,
}: {
  title: ReactNode;
  rows: Array<{ label: string; value: string; color?: string }>;
}) {
  return (
    <div
      className={
        "rounded-md border border-slate-200 bg-white px-3 py-2 text-xs text-slate-900 shadow-lg " +
        "dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      }
    >
      <p className="mb-1 font-medium">{title}</p>
      <dl className="space-y-0.5">
        {rows.map((row) => (
          <div key={row.label} className="flex items-center justify-between gap-4">
            <dt className="flex items-center gap-1.5 text-slate-600 dark:text-slate-300">
              {row.color ? (
                <span
                  aria-hidden
                  className="inline-block h-2 w-2 rounded-full"
                  style={{ backgroundColor: row.color }}
                />
              ) : null}
              {row.label}
            </dt>
            <dd className="font-mono tabular-nums">{row.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
