// For the metrics tests: Prometheus' text format read back into samples, and the seeded
// database they share. Not a module of the app.

export type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of an exposition (comments left out); label values unescaped. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[label[1]!] = label[2]!.replace(/\\(.)/g, (_, char: string) => (char === "n" ? "\n" : char));
    }
    samples.push({
      name: match[1]!,
      labels,
      value: match[3] === "+Inf" ? Infinity : match[3] === "-Inf" ? -Infinity : Number(match[3]),
    });
  }
  return samples;
}

/** The names a text declares with # TYPE (a histogram's, not its _bucket/_sum/_count series). */
export function declaredNames(text: string): string[] {
  return [...text.matchAll(/^# TYPE (\S+) \S+$/gm)].map((match) => match[1]!);
}
