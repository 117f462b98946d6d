export type ChartKeyItem = { label: string; color: string; shape?: "bar" | "line" | "dashed" | "dot" };

/** The colour key under a chart: a swatch in the shape it has on the chart, and its name. */
export function ChartKey({ items }: { items: ChartKeyItem[] }) {
  return (
    <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 dark:text-slate-300">
      {items.map((item) => (
        <li key={item.label} className="flex items-center gap-1.5">
          <svg aria-hidden width="18" height="8">
            {item.shape === "dot" ? (
              <circle cx="9" cy="4" r="3" fill="none" stroke={item.color} strokeWidth={2} />
            ) : (
              <line
                x1="0"
                y1="4"
                x2="18"
                y2="4"
                stroke={item.color}
                strokeWidth={item.shape === "line" || item.shape === "dashed" ? 2.5 : 7}
                strokeDasharray={item.shape === "dashed" ? "4 3" : undefined}
              />
            )}
          </svg>
          {item.label}
        </li>
      ))}
    </ul>
  );
}
