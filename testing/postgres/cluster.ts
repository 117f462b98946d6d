// A throwaway Postgres cluster for the tests and benchmarks, from Debian's `postgresql` package: its
// own folder and port, started as the lab starts its sshd, stopped and removed at the end. Only on
// 127.0.0.1. Durability is off (fsync, synchronous_commit): nothing here outlives the run.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const TEST_POSTGRES_USER = "wirespeed";
export const TEST_POSTGRES_PASSWORD = "wirespeed-test-password";

export type PostgresCluster = {
  port: number;
  dir: string;
  /** postgres://wirespeed:…@127.0.0.1:port/<database> */
  urlOf(database: string): string;
  /** Stops the server (a clean shutdown), keeping its data: the database "goes away" until `resume`. */
  pause(): void;
  /** Starts it again on the same port and data. */
  resume(): void;
  stop(): void;
};

/** The newest installed server's bin folder, or an error saying what to install. */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((name) => fs.existsSync(path.join(root, name, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      "Postgres is not installed: the Postgres tests need Debian's postgresql package " +
        "(npm test installs it when run as root; else: sudo apt-get install -y postgresql)",
    );
  }
  return path.join(root, versions[0]!, "bin");
}

/** The port of this test run's cluster: one per lab instance (WIRESPEED_LAB_INSTANCE), so that parallel runs do not meet. */
export function testPostgresPort(env: NodeJS.ProcessEnv = process.env): number {
  return 55_432 + Number(env.WIRESPEED_LAB_INSTANCE || 0);
}

/** Postgres refuses to run as root: as root, its programs run as the `postgres` user the package creates. */
function asServerUser(bin: string, args: string[], dir: string): void {
  const isRoot = process.getuid?.() === 0;
  const command = isRoot ? "runuser" : bin;
  const fullArgs = isRoot ? ["-u", "postgres", "--", bin, ...args] : args;
  try {
    execFileSync(command, fullArgs, { cwd: dir, stdio: "pipe" });
  } catch (error) {
    // Postgres's own words, not the buffers of the failed command.
    const { stderr, stdout } = error as { stderr?: Buffer; stdout?: Buffer };
    const words = `${stderr?.toString() ?? ""}${stdout?.toString() ?? ""}`.trim().split("\n").slice(-5).join("\n");
    throw new Error(`${path.basename(bin)} ${args[0] ?? ""} failed: ${words}`);
  }
}

export function startPostgresCluster(port: number = testPostgresPort()): PostgresCluster {
  const bin = postgresBinDir();
  const dir = path.join("/tmp", `wirespeed-postgres-${port}`);
  // A cluster a killed run left behind: stopped and removed first.
  if (fs.existsSync(path.join(dir, "data", "postmaster.pid"))) {
    try {
      asServerUser(path.join(bin, "pg_ctl"), ["-D", path.join(dir, "data"), "-m", "immediate", "stop"], dir);
    } catch {
      // not running any more
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { mode: 0o700 });
  const passwordFile = path.join(dir, "password");
  fs.writeFileSync(passwordFile, `${TEST_POSTGRES_PASSWORD}\n`, { mode: 0o600 });
  if (process.getuid?.() === 0) execFileSync("chown", ["-R", "postgres", dir]);
  const data = path.join(dir, "data");
  asServerUser(
    path.join(bin, "initdb"),
    [
      "-D",
      data,
      "-U",
      TEST_POSTGRES_USER,
      "--auth-host=scram-sha-256",
      "--auth-local=trust",
      `--pwfile=${passwordFile}`,
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ],
    dir,
  );
  const settings = [
    `-p ${port}`,
    "-c listen_addresses=127.0.0.1",
    `-k ${dir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=300",
  ].join(" ");
  const start = () =>
    asServerUser(
      path.join(bin, "pg_ctl"),
      ["-D", data, "-o", settings, "-l", path.join(dir, "log"), "-w", "start"],
      dir,
    );
  start();
  return {
    port,
    dir,
    urlOf: (database) =>
      `postgresql://${TEST_POSTGRES_USER}:${TEST_POSTGRES_PASSWORD}@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    pause() {
      // fast, not immediate: the cluster runs without fsync and synchronous commits, so a crash would
      // lose the last commits, which a real server keeps; a restart of the server is what is staged.
      asServerUser(path.join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"], dir);
    },
    resume: start,
    stop() {
      try {
        asServerUser(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "stop"], dir);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
