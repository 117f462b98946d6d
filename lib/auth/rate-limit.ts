// Failed sign-ins are counted per key (the username, and the client's address when a
// trusted proxy gives it) in a sliding window, in memory: a restart forgets them,
// which costs an attacker a restart they cannot cause.

/** Past this many keys, expired ones are dropped at the next failure. */
const MAX_KEYS = 10_000;

export type RateLimiter = {
  /** Milliseconds to wait when the key is over its limit, else 0. */
  blockedFor: (key: string, now?: number) => number;
  fail: (key: string, now?: number) => void;
  reset: (key: string) => void;
  /** How many keys are remembered (to check that expired ones go). */
  keyCount: () => number;
};

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const failures = new Map<string, number[]>();
  const recent = (key: string, now: number) => {
    const kept = (failures.get(key) ?? []).filter((at) => now - at < windowMs);
    if (kept.length) failures.set(key, kept);
    else failures.delete(key);
    return kept;
  };
  return {
    blockedFor(key, now = Date.now()) {
      const times = recent(key, now);
      return times.length >= limit ? windowMs - (now - times[times.length - limit]!) : 0;
    },
    fail(key, now = Date.now()) {
      const times = recent(key, now);
      times.push(now);
      failures.set(key, times.slice(-limit * 2));
      // Guessing with ever new usernames must not grow the map without end: drop what has expired.
      if (failures.size > MAX_KEYS) for (const other of [...failures.keys()]) recent(other, now);
    },
    reset(key) {
      failures.delete(key);
    },
    keyCount: () => failures.size,
  };
}
