// What the database benches share: reading their options, the median of repeated reads after a
// warm-up, and the line that says on what machine and under what load the figures were taken.
import os from "node:os";

/** `--name value` of the command line, or undefined. */
export function argValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : undefined;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export type Timed<T> = { ms: number; min: number; max: number; value: T };

/**
 * The median wall time of `repeat` calls after one more that is not counted: the first call fills
 * the statement caches and brings the pages it reads into memory, which every later view finds.
 */
export async function timed<T>(body: () => Promise<T>, repeat = 7): Promise<Timed<T>> {
  let value = await body();
  const times: number[] = [];
  for (let index = 0; index < repeat; index += 1) {
    const started = performance.now();
    value = await body();
    times.push(performance.now() - started);
  }
  return { ms: median(times), min: Math.min(...times), max: Math.max(...times), value };
}

export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}

export function machineLine(): string {
  return `node ${process.version}, ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim()}), load average ${loadAverage()}`;
}

/** A deterministic stream of numbers in [0, 1): the same database at every run of a bench. */
export function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A time as the app's client stores it in SQLite (ISO 8601 with an explicit offset). */
export function sqliteTime(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+00:00");
}
