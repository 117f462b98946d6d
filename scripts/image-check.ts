// `npm run image:check`: the image built and run with a real Docker engine, as a user would meet it.
//   1. docker build, with the Node.js download server out of reach (nodejs.org → 127.0.0.1)
//   2. its size (at most 300 MB) and what it holds: no dev dependency, no compiler, no npm
//   3. a container on a throwaway /data, PORT set: healthy (the image's PORT-aware check), uid 10001,
//      the database 0600 (or, with --postgres, two instances on one database)
//   4. signing in with Chromium, straight and through deploy/nginx.conf (a real nginx, when this
//      machine has one: apt-get install nginx-light), with the Host's port, as behind the Postgres stack
//   5. docker stop: a clean stop, within the grace period
// Prints the figures (build time, image size, start time, stop time); exit code 1 when a check fails.
//   npm run image:check                   (build, then check)
//   npm run image:check -- --no-build     (check the image already built)
//   npm run image:check -- --network host (an engine without a bridge network: build and run on the host's)
//   npm run image:check -- --postgres URL (two instances on that Postgres database behind nginx, as
//                                           docker-compose.postgres.yml runs them; a URL the containers reach,
//                                           of an empty database or with the WIRESPEED_SECRET it was used with)
// The container and nginx listen on 127.0.0.1 only; both are removed at the end, whatever happened.
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { chromium } from "@playwright/test";
import { NGINX, startLocalNginx, type LocalNginx } from "./image-check-nginx";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const IMAGE = `wirespeed:${VERSION}`;
const MAX_MB = 300;
const DOCKER = process.env.DOCKER || "docker";
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const network = option("--network");
// nginx on this port; the instances on the next ones
const port = Number(option("--port") ?? 3990);
const postgres = option("--postgres");
// what no image of Wirespeed may hold: dev dependencies, compilers, npm
const DEV_PACKAGES = [
  "typescript",
  "tsx",
  "prisma",
  "@playwright/test",
  "playwright",
  "prettier",
  "eslint",
  "vitest",
  "esbuild",
  "@next/swc-linux-x64-gnu",
  "@next/swc-linux-x64-musl",
  "@next/swc-linux-arm64-gnu",
];
const BUILD_TOOLS = ["gcc", "g++", "cc", "make", "python3", "npm", "npx", "tsx"];

const failures: string[] = [];
const figures: string[] = [];
const say = (line: string) => console.log(`[image:check] ${line}`);
const check = (ok: boolean, what: string) => {
  say(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
};
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function docker(dockerArgs: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(DOCKER, dockerArgs, { encoding: "utf8", maxBuffer: 64 << 20 });
  return stdout.trim();
}

/** docker build with its output shown; the Node.js download server unreachable from inside. */
function build(): Promise<void> {
  const buildArgs = ["build", "--add-host", "nodejs.org:127.0.0.1", "-t", IMAGE];
  if (network) buildArgs.push("--network", network);
  buildArgs.push(ROOT);
  return new Promise((resolve, reject) => {
    const child = spawn(DOCKER, buildArgs, { stdio: "inherit", env: { ...process.env, DOCKER_BUILDKIT: "1" } });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`docker build exited with ${code}`))));
  });
}

async function healthOf(container: string): Promise<string> {
  return docker(["inspect", "-f", "{{if .State.Health}}{{.State.Health.Status}}{{end}} {{.State.Status}}", container]);
}

/** What the container wrote, standard output and error together. */
function logsOf(container: string): Promise<string> {
  return promisify(execFile)(DOCKER, ["logs", container], { encoding: "utf8" }).then(
    ({ stdout, stderr }) => stdout + stderr,
    () => "",
  );
}

async function signIn(baseUrl: string, password: string): Promise<boolean> {
  const executablePath = fs.existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined;
  const browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  try {
    const page = await browser.newPage({ baseURL: baseUrl });
    await page.goto("/login");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const account = page.getByTestId("account-link");
    await account.waitFor({ timeout: 60_000 });
    return (await account.textContent())?.includes("admin") ?? false;
  } catch (error) {
    say(`sign-in at ${baseUrl}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
    return false;
  } finally {
    await browser.close();
  }
}

async function main() {
  try {
    await docker(["version", "--format", "{{.Server.Version}}"]);
  } catch {
    say(`no Docker engine answers here (${DOCKER} version): start one, or run this where Docker runs`);
    process.exit(1);
  }

  if (!args.includes("--no-build")) {
    const started = Date.now();
    await build();
    figures.push(`build ${seconds(started)}`);
  }
  const bytes = Number(await docker(["image", "inspect", "-f", "{{.Size}}", IMAGE]));
  const megabytes = bytes / 1_000_000;
  figures.push(`image ${megabytes.toFixed(0)} MB`);
  check(megabytes <= MAX_MB, `${IMAGE} is ${megabytes.toFixed(0)} MB, at most ${MAX_MB} MB`);

  const held = await docker([
    "run",
    "--rm",
    "--network",
    "none",
    "--entrypoint",
    "sh",
    IMAGE,
    "-c",
    [
      ...DEV_PACKAGES.map((name) => `[ -e node_modules/${name} ] && echo package:${name}`),
      ...BUILD_TOOLS.map((name) => `command -v ${name} >/dev/null && echo tool:${name}`),
      "true",
    ].join("; "),
  ]);
  check(
    held === "",
    `no dev dependency, compiler or npm in the image${held ? ` (found ${held.split("\n").join(", ")})` : ""}`,
  );

  const password = randomBytes(12).toString("hex");
  // a database used before holds credentials sealed with its key: its WIRESPEED_SECRET, or a fresh database
  const secret = process.env.WIRESPEED_SECRET || randomBytes(32).toString("hex");
  // SQLite: one container, nginx in front of it twice. Postgres (--postgres URL): two instances on that
  // database, each on its own port, as docker-compose.postgres.yml runs them behind nginx.
  const instances = postgres ? [1, 2] : [1];
  const containers = instances.map((index) => ({
    name: `wirespeed-image-check-${process.pid}-${index}`,
    port: port + 1 + index,
    instance: `wirespeed-${index}`,
  }));
  let nginx: LocalNginx | null = null;
  try {
    const started = Date.now();
    for (const container of containers) {
      await docker([
        "run",
        "--detach",
        "--name",
        container.name,
        "--tmpfs",
        "/data:rw,uid=10001,gid=10001,mode=0700",
        "--env",
        `WIRESPEED_SECRET=${secret}`,
        "--env",
        `WIRESPEED_ADMIN_PASSWORD=${password}`,
        "--env",
        `WIRESPEED_INSTANCE=${container.instance}`,
        // nginx runs on this machine: its connections come from 127.0.0.1 (host network) or the gateway
        "--env",
        `WIRESPEED_TRUSTED_PROXIES=${network === "host" ? "127.0.0.1" : ""}`,
        ...(postgres ? ["--env", `DATABASE_URL=${postgres}`] : []),
        // another port than the image's 3000: the health check must follow it
        "--env",
        `PORT=${container.port}`,
        "--health-interval",
        "2s",
        ...(network ? ["--network", network] : ["--publish", `127.0.0.1:${container.port}:${container.port}`]),
        IMAGE,
      ]);
    }
    for (const container of containers) {
      let health = "";
      while (Date.now() - started < 180_000) {
        health = await healthOf(container.name);
        if (health.startsWith("healthy") || !health.endsWith("running")) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      figures.push(`${container.instance} healthy after ${seconds(started)}`);
      check(health.startsWith("healthy"), `${container.instance} is healthy on PORT=${container.port} (${health})`);
      if (!health.startsWith("healthy")) say(await logsOf(container.name));
      const uid = await docker(["exec", container.name, "id", "-u"]).catch(() => "");
      check(uid === "10001", `${container.instance} runs as uid 10001 (${uid})`);
    }
    if (!postgres) {
      const mode = await docker(["exec", containers[0]!.name, "stat", "-c", "%a", "/data/wirespeed.db"]).catch(
        () => "",
      );
      check(mode === "600", `/data/wirespeed.db is 0600 (${mode})`);
    }

    check(await signIn(`http://127.0.0.1:${containers[0]!.port}`, password), "admin signs in with Chromium");
    if (fs.existsSync(NGINX)) {
      const [first, second = first] = containers.map((container) => `127.0.0.1:${container.port}`);
      nginx = await startLocalNginx([first!, second!], port);
      // a Host with its port, as a browser sends it to the Postgres stack's 127.0.0.1:3000:80
      check(await signIn(`http://localhost:${port}`, password), "admin signs in through deploy/nginx.conf");
    } else {
      say(`no nginx here (${NGINX}): the sign-in through deploy/nginx.conf is left out (apt-get install nginx-light)`);
    }

    for (const container of containers) {
      const stopping = Date.now();
      await docker(["stop", "--time", "15", container.name]);
      figures.push(`${container.instance} stopped in ${seconds(stopping)}`);
      const exitCode = await docker(["inspect", "-f", "{{.State.ExitCode}}", container.name]);
      const logs = await logsOf(container.name);
      check(
        exitCode === "0" && logs.includes("[wirespeed] stopped"),
        `docker stop ends ${container.instance} cleanly (exit ${exitCode})`,
      );
      check(!logs.includes(password) && !logs.includes(secret), `no password or key in ${container.instance}'s log`);
    }
  } finally {
    await nginx?.stop();
    for (const container of containers) await docker(["rm", "--force", container.name]).catch(() => "");
  }

  say(figures.join(", "));
  if (failures.length > 0) {
    say(`${failures.length} check(s) failed`);
    process.exit(1);
  }
  say("all checks passed");
}

main().catch((error: unknown) => {
  say(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
