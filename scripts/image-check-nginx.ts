// deploy/nginx.conf run by a real nginx (Debian's nginx-light) on this machine, as the Postgres stack's
// proxy container runs it: in a folder of its own, on 127.0.0.1, one process as whoever starts it, in
// front of the addresses given in place of the stack's wirespeed-1:3000 and wirespeed-2:3000.
// scripts/deploy.test.ts checks what it forwards; scripts/image-check.ts signs in through it.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const NGINX = "/usr/sbin/nginx";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export type LocalNginx = { port: number; stop: () => Promise<void> };

/** deploy/nginx.conf with its two instances at `upstreams` and its port on 127.0.0.1:`port`. */
export function localNginxConfig(upstreams: [string, string], port: number): string {
  const text = fs.readFileSync(path.join(ROOT, "deploy", "nginx.conf"), "utf8");
  let index = 0;
  const local = text
    .replace(/server wirespeed-\d+:3000\b/g, () => `server ${upstreams[index++] ?? upstreams[0]}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`);
  if (index !== 2 || !local.includes(`listen 127.0.0.1:${port};`)) {
    throw new Error("deploy/nginx.conf no longer has the two upstream servers wirespeed-N:3000 and `listen 80;`");
  }
  return local;
}

/** Starts nginx with deploy/nginx.conf on 127.0.0.1:`port`; resolves once it answers there. */
export async function startLocalNginx(upstreams: [string, string], port: number): Promise<LocalNginx> {
  if (!fs.existsSync(NGINX)) {
    throw new Error("nginx is not installed: apt-get install -y nginx-light (npm test installs it when run as root)");
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-nginx-"));
  fs.writeFileSync(path.join(dir, "default.conf"), localNginxConfig(upstreams, port));
  fs.writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      "events {}",
      "http {",
      "  access_log off;",
      `  client_body_temp_path ${dir}/body;`,
      `  proxy_temp_path ${dir}/proxy;`,
      `  include ${dir}/default.conf;`,
      "}",
      "",
    ].join("\n"),
  );
  // one process as whoever runs it (no workers as another user), in the foreground
  const child: ChildProcess = spawn(
    NGINX,
    ["-p", `${dir}/`, "-e", `${dir}/error.log`, "-c", `${dir}/nginx.conf`, "-g", "daemon off; master_process off;"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // listening once a request gets an answer from it (any status: the upstream may still be starting)
  for (;;) {
    if (child.exitCode !== null) {
      const log = fs.existsSync(`${dir}/error.log`) ? fs.readFileSync(`${dir}/error.log`, "utf8") : "";
      await stop();
      throw new Error(`nginx exited (${child.exitCode}): ${stderr}${log}`);
    }
    const answered = await fetch(`http://127.0.0.1:${port}/`).then(
      () => true,
      () => false,
    );
    if (answered) return { port, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
