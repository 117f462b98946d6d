import { ipv4Bytes, ipv6Groups } from "@/lib/format/ip";

// Failed attempts (sign-ins, bearer tokens) are counted per key in memory, and slow the key down
// progressively instead of locking it: past `free` failures, each further one doubles the wait
// before the key is heard again, up to `maxMs`. Nobody can lock a user out from elsewhere, since
// the keys include the client's address, and guessing gets slower the longer it goes on. A key is
// forgotten `forgetMs` after its last failure; a restart forgets all, which costs an attacker a
// restart they cannot cause.

/** Past this many keys, forgotten ones are dropped at the next failure. */
const MAX_KEYS = 10_000;

export type ThrottleOptions = {
  /** Failures heard at once before any wait. */
  free: number;
  /** The wait after the first failure past `free`; each further one doubles it. */
  baseMs: number;
  maxMs: number;
  /** A key with no failure for this long starts afresh. */
  forgetMs: number;
};

export type Throttle = {
  /** Milliseconds before the key is heard again, else 0. */
  waitFor: (key: string, now?: number) => number;
  fail: (key: string, now?: number) => void;
  reset: (key: string) => void;
  /** How many keys are remembered (to check that forgotten ones go). */
  keyCount: () => number;
};

type Entry = { failures: number; last: number };

/** The wait after `failures` failures: none for the free ones, then base, 2×base, 4×base … up to max. */
export function waitAfter(failures: number, options: ThrottleOptions): number {
  const over = failures - options.free;
  if (over <= 0) return 0;
  return Math.min(options.maxMs, options.baseMs * 2 ** Math.min(over - 1, 30));
}

export function createThrottle(options: ThrottleOptions): Throttle {
  const entries = new Map<string, Entry>();
  const current = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && now - entry.last >= options.forgetMs) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    waitFor(key, now = Date.now()) {
      const entry = current(key, now);
      return entry ? Math.max(0, entry.last + waitAfter(entry.failures, options) - now) : 0;
    },
    fail(key, now = Date.now()) {
      const entry = current(key, now);
      entries.set(key, { failures: (entry?.failures ?? 0) + 1, last: now });
      // Guessing with ever new keys must not grow the map without end: drop what is forgotten.
      if (entries.size > MAX_KEYS) for (const other of [...entries.keys()]) current(other, now);
    },
    reset(key) {
      entries.delete(key);
    },
    keyCount: () => entries.size,
  };
}

/**
 * The client a throttle counts, from its address (lib/auth/client.ts): an IPv4 address as it is, an
 * IPv6 one by its /64 (`2001:db8:1:2::/64`), since a single subscriber or host holds a whole /64 and
 * would otherwise start afresh with each of its 2^64 addresses. An IPv4-mapped address
 * (`::ffff:192.0.2.1`, `::ffff:c000:201`) counts as its IPv4 address. "" (unknown) stays "".
 */
export function throttleClientKey(address: string): string {
  const bare = address
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (ipv4Bytes(bare)) return bare;
  const groups = ipv6Groups(bare);
  if (!groups) return bare;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}

/** "12 seconds", "3 minutes": how long a throttled caller waits, for its message. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}
