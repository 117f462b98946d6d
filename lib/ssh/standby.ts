import "server-only";
import type { SshChannel, SshConnection } from "./pool";
import type { ExecCommand } from "./types";

// Standby sessions: a command for a POSIX login shell runs in an SSH session opened beforehand.
//
// sshd runs every command through the user's login shell, and that shell's start-up is not
// free: Debian's bash reads ~/.bashrc for every command sshd gives it (it is built with
// SSH_SOURCE_BASHRC), and an rc file that runs `pyenv init` or `nvm` takes 0.5-1 s. Nothing a
// command says can skip it: the rc file runs before the command is read. So each connection keeps
// up to STANDBY_COUNT sessions whose login shell has already started and now waits, in /bin/sh, for
// one command on its stdin; a command takes one (ready at once, or the one already starting, which
// is always sooner than a new session), and the pool fills again in the background, one session at
// a time. A run's commands on a host and the next experiment step's thus find sessions ready.
//
// The command is the very text the login shell would have been given (`quote(argv)`), run by
// `sh -c` with the environment the login shell set up (its PATH included); its stdin is the
// channel's from then on, its exit status the channel's. What the start-up printed before the
// session said it was ready is dropped.

/**
 * Sessions kept ready (or starting) per connection: the commands of a run on one host (environment, iperf3
 * detection, server or client, stop) or of the next experiment step.
 */
export const STANDBY_COUNT = 3;

/**
 * Sessions of a connection (commands taken from standbys, and standbys) beyond which no standby is
 * started: OpenSSH allows 10 per connection by default (MaxSessions), and the commands come first.
 */
const SESSION_BUDGET = 8;

const READY = "wirespeed-standby";

/**
 * One line (no single quote: the login shell gets it inside one; no newline: csh would refuse it).
 * It reads a line count, then that many lines, and becomes `sh -c` of them. EOF first (the
 * channel closed) ends it.
 */
const STANDBY_SCRIPT = [
  `echo ${READY}`,
  "IFS= read -r n || exit 0",
  'nl=$(printf "\\nx")',
  "nl=${nl%x}",
  "c=",
  "i=0",
  'while [ "$i" -lt "$n" ] && IFS= read -r l; do c="$c$l$nl"; i=$((i+1)); done',
  'exec sh -c "$c"',
].join("; ");

let enabled = true;

/**
 * Turns standby sessions off (every command then opens its own session, through the login shell's
 * start-up, as before they existed) or on again: for the benchmarks, which measure both in one process.
 */
export function setStandbySessions(on: boolean): void {
  enabled = on;
}

/** Whether a command may run in a standby: written for a POSIX login shell, and without a pseudo-terminal. */
export function runsInStandby(command: ExecCommand): boolean {
  return enabled && command.posixShell === true && !command.pty;
}

/** What a standby session is sent: the command text, line count first (the text may hold newlines inside its quotes). */
export function standbyInput(commandText: string): string {
  const lines = commandText.split("\n");
  return `${lines.length}\n${lines.join("\n")}\n`;
}

type Standby = {
  /** resolves with the session once its shell said it is ready; null if it failed or closed first */
  ready: Promise<SshChannel | null>;
  claimed: boolean;
  /** its shell said it is ready, and it has not closed */
  isReady: boolean;
};

type StandbyPool = {
  standbys: Set<Standby>;
  /** the connection is about to close: no new standby starts */
  closing: boolean;
  /** commands running in sessions taken from this pool */
  running: number;
};

const pools = new WeakMap<SshConnection, StandbyPool>();

function poolOf(connection: SshConnection): StandbyPool {
  let pool = pools.get(connection);
  if (!pool) {
    pool = { standbys: new Set(), closing: false, running: 0 };
    pools.set(connection, pool);
  }
  return pool;
}

function startStandby(
  connection: SshConnection,
  quote: (argv: readonly string[]) => string,
  pool: StandbyPool,
): Standby {
  const standby: Standby = { ready: Promise.resolve(null), claimed: false, isReady: false };
  standby.ready = new Promise<SshChannel | null>((resolve) => {
    if (connection.isClosed()) return resolve(null);
    connection.client.exec(quote(["exec", "sh", "-c", STANDBY_SCRIPT]), {}, (err, channel) => {
      if (err) {
        pool.standbys.delete(standby);
        return resolve(null);
      }
      let seen = "";
      const onData = (chunk: Buffer) => {
        seen += chunk.toString("utf8");
        const at = seen.indexOf(`${READY}\n`);
        if (at === -1) {
          // Whatever an rc file prints before the marker is dropped; keep only a marker's length of it.
          if (seen.length > READY.length) seen = seen.slice(-READY.length);
          return;
        }
        channel.off("data", onData);
        channel.stderr.removeAllListeners("data");
        standby.isReady = true;
        resolve(channel);
        // One at a time: shells that start together contend (pyenv's rehash, for one, takes a lock).
        topUp(connection, quote, pool);
      };
      const onClose = () => {
        standby.isReady = false;
        pool.standbys.delete(standby);
        resolve(null);
      };
      channel.on("data", onData);
      // The start-up's own complaints are not the command's.
      channel.stderr.on("data", () => undefined);
      channel.on("error", () => undefined);
      // Unclaimed, it leaves the pool; claimed, it is out already and the command's own handlers see the close.
      channel.on("close", onClose);
    });
  });
  pool.standbys.add(standby);
  return standby;
}

function topUp(connection: SshConnection, quote: (argv: readonly string[]) => string, pool: StandbyPool): void {
  if (connection.isClosed() || pool.closing) return;
  const unclaimed = [...pool.standbys].filter((standby) => !standby.claimed);
  // The next starts once this one is ready (startStandby calls back).
  if (unclaimed.some((standby) => !standby.isReady)) return;
  if (unclaimed.length < STANDBY_COUNT && pool.running + unclaimed.length < SESSION_BUDGET)
    startStandby(connection, quote, pool);
}

/**
 * A session of this connection whose login shell is ready for `command` (sent with standbyInput),
 * or null when none could be opened (the caller then runs the command the ordinary way). The
 * pool is topped up for the next command either way.
 */
export function takeStandby(connection: SshConnection, command: ExecCommand): Promise<SshChannel | null> {
  const pool = poolOf(connection);
  const unclaimed = [...pool.standbys].filter((standby) => !standby.claimed);
  // A ready one; else the one that started first, sooner ready than a new one.
  const chosen =
    unclaimed.find((standby) => standby.isReady) ?? unclaimed[0] ?? startStandby(connection, command.quote, pool);
  chosen.claimed = true;
  pool.standbys.delete(chosen);
  pool.running += 1;
  topUp(connection, command.quote, pool);
  return chosen.ready.then((channel) => {
    // One that closed since it was ready (its shell died, the server closed it) is no use.
    if (!channel || !chosen.isReady) {
      pool.running -= 1;
      return null;
    }
    channel.once("close", () => (pool.running -= 1));
    return channel;
  });
}

/** How many standby sessions a connection holds (ready or starting, not yet claimed); for tests. */
export function standbyCount(connection: SshConnection): number {
  return [...(pools.get(connection)?.standbys ?? [])].filter((standby) => !standby.claimed).length;
}

/**
 * Resolves once no standby of this connection is still starting (or after `timeoutMs`). A login
 * shell killed in its start-up can leave its rc files' work half done: pyenv's rehash, killed while
 * it holds its lock file, makes every later shell of that user wait 60 s for the lock. Before a
 * connection is closed on purpose, its standbys finish starting; `closing` also stops new ones.
 */
export async function settleStandbys(
  connection: SshConnection,
  { closing = false, timeoutMs = 15_000 } = {},
): Promise<void> {
  const pool = pools.get(connection);
  if (!pool) return;
  if (closing) pool.closing = true;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const starting = [...pool.standbys].filter((standby) => !standby.claimed && !standby.isReady);
    const left = deadline - Date.now();
    if (starting.length === 0 || left <= 0) return;
    await Promise.race([
      Promise.all(starting.map((standby) => standby.ready)),
      new Promise((resolve) => setTimeout(resolve, left).unref()),
    ]);
  }
}
