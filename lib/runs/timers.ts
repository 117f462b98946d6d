/** `promise`, or `onTimeout()`'s error after `ms`; the timer is cleared either way so nothing lingers. */
export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(onTimeout()), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** `promise`'s value, or `fallback` after `ms`, whichever comes first; never rejects with a timeout. */
export function valueWithin<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  return withTimeout(promise, ms, () => new Error("timeout")).catch(() => fallback);
}
