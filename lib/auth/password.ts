import "server-only";
import bcrypt from "bcryptjs";
import { AuthError } from "./errors";

// bcrypt (bcryptjs: pure JavaScript, no native build). Cost 12 takes a few hundred
// milliseconds here, and the asynchronous form keeps the server responsive meanwhile.
const COST = 12;

/** Hashes computed at once; the rest wait their turn, and past MAX_WAITING are refused. */
export const MAX_HASHING = 2;
export const MAX_WAITING = 32;

export type Semaphore = {
  /** Runs `task` when a slot is free; throws `refuse()` at once when too many already wait. */
  run: <T>(task: () => Promise<T>) => Promise<T>;
  /** Tasks running and waiting now. */
  load: () => { running: number; waiting: number };
};

export function createSemaphore(limit: number, maxWaiting: number, refuse: () => Error): Semaphore {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return {
    async run(task) {
      if (running >= limit) {
        if (waiting.length >= maxWaiting) throw refuse();
        // The slot is handed over by release(): `running` stays the same.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        running++;
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}

// A flood of sign-ins, with any names from any addresses, cannot take the CPU: at most MAX_HASHING
// hashes run at once, and a sign-in that finds MAX_WAITING already waiting is refused.
export const hashing = createSemaphore(
  MAX_HASHING,
  MAX_WAITING,
  () => new AuthError("rate-limited", "Too many sign-ins at once: try again in a few seconds.", { retryAfter: 5 }),
);

export async function hashPassword(password: string): Promise<string> {
  return hashing.run(() => bcrypt.hash(password, COST));
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return hashing.run(() => bcrypt.compare(password, hash));
}

/** A hash of nothing anyone can type, compared against when the user does not exist, so both answers take as long. */
let dummyHash: Promise<string> | null = null;
export async function verifyAgainstNothing(password: string): Promise<false> {
  dummyHash ??= bcrypt.hash("\u0000not-a-password\u0000", COST);
  const hash = await dummyHash;
  await hashing.run(() => bcrypt.compare(password, hash));
  return false;
}
