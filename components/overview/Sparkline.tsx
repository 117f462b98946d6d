/** A link's recent results as a small SVG line (no chart library: twenty points do not need one). */
export function Sparkline({
  values,
  lineRateBitsPerSecond,
  label,
}: {
  values: number[];
  lineRateBitsPerSecond: number;
  label: string;
}) {
  const width = 120;
  const height = 32;
  if (values.length < 2) {
    return (
      <span className="text-xs text-slate-500 dark:text-slate-400">
        {values.length === 1 ? "one run so far" : "no runs yet"}
      </span>
    );
  }
  const peak = Math.max(lineRateBitsPerSecond, ...values) || 1;
  const step = width / (values.length - 1);
  const points = values
    .map((value, index) => `${(index * step).toFixed(1)},${(height - 2 - (value / peak) * (height - 4)).toFixed(1)}`)
    .join(" ");
  return (
    <svg
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
      data-testid="sparkline"
      data-point-count={values.length}
      className="overflow-visible text-sky-600 dark:text-sky-400"
    >
      <line
        x1={0}
        x2={width}
        y1={2}
        y2={2}
        stroke="currentColor"
        strokeOpacity={0.25}
        strokeDasharray="3 3"
        className="text-slate-500"
      />
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" />
    </svg>
  );
}
