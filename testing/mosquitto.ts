// A real MQTT broker for the Home Assistant tests: Debian's mosquitto, started by the test in a
// folder of its own on 127.0.0.1 and a port of this test run (WIRESPEED_LAB_INSTANCE), with users
// made by mosquitto_passwd and no anonymous access. Nothing persists: a restart forgets every
// retained message, as a broker that lost its disk would.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const MOSQUITTO = "/usr/sbin/mosquitto";
const MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd";

/** Whether the broker can run here; under CI=true a test fails without it rather than skipping. */
export function hasMosquitto(): boolean {
  return fs.existsSync(MOSQUITTO) && fs.existsSync(MOSQUITTO_PASSWD);
}

/** The broker's port of this test run: one per lab instance, so that parallel runs do not meet. */
export function mosquittoTestPort(env: NodeJS.ProcessEnv = process.env): number {
  return 21_883 + Number(env.WIRESPEED_LAB_INSTANCE || 0);
}

export type Mosquitto = {
  port: number;
  /** mqtt://127.0.0.1:<port> */
  url: string;
  /** Stops the broker (SIGTERM) and waits for it to exit. */
  stop: () => Promise<void>;
  /** Starts it again on the same port, with nothing retained. */
  start: () => Promise<void>;
  /** Stops it and removes its folder. */
  close: () => Promise<void>;
};

function waitForPort(port: number, timeoutMs: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`mosquitto exited (${child.exitCode}): ${log()}`));
      const socket = net.connect({ host: "127.0.0.1", port }, () => {
        socket.destroy();
        resolve();
      });
      socket.on("error", () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`mosquitto did not listen on 127.0.0.1:${port}: ${log()}`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** Starts mosquitto with `users` (name → password) as its only logins. */
export async function startMosquitto({
  users,
  port = mosquittoTestPort(),
}: {
  users: Record<string, string>;
  port?: number;
}): Promise<Mosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-mosquitto-"));
  const passwords = path.join(dir, "passwords");
  for (const [index, [name, password]] of Object.entries(users).entries()) {
    // -c creates the file with the first user; -b takes the password from the command line.
    const made = spawnSync(MOSQUITTO_PASSWD, [...(index === 0 ? ["-c"] : []), "-b", passwords, name, password], {
      encoding: "utf8",
    });
    if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
  }
  fs.chmodSync(passwords, 0o600);
  const config = path.join(dir, "mosquitto.conf");
  fs.writeFileSync(
    config,
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous false",
      `password_file ${passwords}`,
      // Started as root, mosquitto would become the mosquitto user, who cannot read this 0700 folder: it stays who started it.
      `user ${os.userInfo().username}`,
      "persistence false",
      "log_dest stderr",
      "log_type error",
      "log_type warning",
      "",
    ].join("\n"),
  );
  let child: ChildProcess | null = null;
  let output = "";
  const start = async () => {
    output = "";
    const started = spawn(MOSQUITTO, ["-c", config], { stdio: ["ignore", "pipe", "pipe"] });
    started.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child = started;
    await waitForPort(port, 10_000, started, () => output.trim());
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.kill("SIGTERM");
    await exited;
  };
  await start();
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    start,
    stop,
    close: async () => {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
