import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { lintCompose, lintDockerfile, lintDockerignore, parseDockerfile, parseEnv } from "./deploy-lint";
import { startLocalNginx, type LocalNginx } from "./image-check-nginx";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const DOCKERFILE = read("Dockerfile");
const COMPOSE = read("docker-compose.yml");
const VERSION = (JSON.parse(read("package.json")) as { version: string }).version;
const COMPOSE_OPTIONS = { service: "wirespeed", version: VERSION, dataDir: "/data", port: 3000 };

describe("Dockerfile", () => {
  it("passes every check", () => {
    expect(lintDockerfile(DOCKERFILE)).toEqual([]);
  });

  it("has a build stage and a runtime stage on the same pinned Node 20 slim image", () => {
    const { stages } = parseDockerfile(DOCKERFILE);
    expect(stages).toHaveLength(2);
    expect(stages[0]!.name).toBe("build");
    expect(stages[0]!.image).toMatch(/^node:20\.\d+\.\d+-bookworm-slim$/);
    // the same image: native modules built in one stage load in the other
    expect(stages[1]!.image).toBe(stages[0]!.image);
  });

  it("reads continued lines, comments inside them, and both ENV forms", () => {
    const { preamble, stages } = parseDockerfile(
      [
        "ARG BASE=x",
        "FROM node:20.20.2-bookworm-slim AS build",
        "RUN apt-get update \\",
        "  # a comment",
        "\\",
        " && true",
        'env A=1 B="two words"',
        "ENV C three",
      ].join("\n"),
    );
    expect(preamble).toEqual([{ keyword: "ARG", args: "BASE=x", line: 1 }]);
    expect(stages[0]!.instructions.map((instruction) => instruction.keyword)).toEqual(["RUN", "ENV", "ENV"]);
    expect(stages[0]!.instructions[0]).toEqual({ keyword: "RUN", args: "apt-get update && true", line: 3 });
    expect(parseEnv(stages[0]!.instructions[1]!.args)).toEqual({ A: "1", B: "two words" });
    expect(parseEnv(stages[0]!.instructions[2]!.args)).toEqual({ C: "three" });
  });

  // Each rule fails on the Dockerfile changed in the one way it guards against.
  const broken: [string, (text: string) => string, RegExp][] = [
    [
      "a floating base tag",
      (text) => text.replaceAll("node:20.20.2-bookworm-slim", "node:20-slim"),
      /pinned node:20\.X\.Y-bookworm-slim/,
    ],
    [
      "a Node older than engines",
      (text) => text.replaceAll("node:20.20.2-bookworm-slim", "node:20.8.1-bookworm-slim"),
      /Node 20\.9 or newer/,
    ],
    [
      "a runtime built on the build stage",
      (text) => text.replace(/(# --- runtime ---\n)FROM \S+/, "$1FROM build"),
      /FROM the pinned node image itself/,
    ],
    [
      "no iperf3",
      (text) => text.replace("install -y --no-install-recommends iperf3 ", "install -y --no-install-recommends "),
      /must apt-get install iperf3/,
    ],
    ["no ssh client", (text) => text.replace(" openssh-client \\", " \\"), /must apt-get install openssh-client/],
    [
      "recommends pulled in",
      (text) => text.replace("--no-install-recommends iperf3", "iperf3"),
      /needs --no-install-recommends/,
    ],
    [
      "apt lists left in the image",
      (text) =>
        text.replace(
          /iperf3 openssh-client \\\n \&\& apt-get clean \\\n \&\& rm -rf \/var\/lib\/apt\/lists\/\*/,
          "iperf3 openssh-client \\\n && apt-get clean",
        ),
      /must end with rm -rf \/var\/lib\/apt\/lists/,
    ],
    ["running as root", (text) => text.replace("USER wirespeed", "USER root"), /runs as root/],
    ["no USER", (text) => text.replace("USER wirespeed\n", ""), /non-root USER before CMD/],
    ["no HEALTHCHECK", (text) => text.replace(/HEALTHCHECK[^\n]*\\\n[^\n]*\n/, ""), /needs a HEALTHCHECK/],
    [
      "a curl health check",
      (text) => text.replace(/CMD \["node", "-e", "fetch[^\n]*/, "CMD curl -f http://127.0.0.1:3000/api/health"),
      /uses curl or wget/,
    ],
    [
      "curl piped into sh",
      (text) =>
        text.replace("RUN npm install -g", "RUN curl -fsSL https://example.invalid/install.sh | sh && npm install -g"),
      /pipes into a shell/,
    ],
    [
      "wget of a binary",
      (text) =>
        text.replace(
          "WORKDIR /app\n# Only what runs",
          "RUN wget -O /usr/local/bin/tool https://example.invalid/tool\nWORKDIR /app\n# Only what runs",
        ),
      /downloads with curl or wget/,
    ],
    [
      "ADD of a URL",
      (text) =>
        text.replace(
          "WORKDIR /app\n# Only what runs",
          "ADD https://example.invalid/tool /usr/local/bin/tool\nWORKDIR /app\n# Only what runs",
        ),
      /ADD of a URL/,
    ],
    [
      "npm install instead of npm ci",
      (text) => text.replace("RUN npm ci --no-audit --no-fund", "RUN npm install --no-audit --no-fund"),
      /no stage runs npm ci/,
    ],
    [
      "an unpinned global npm",
      (text) => text.replace("npm@11.19.1", "npm@latest"),
      /npm install npm@latest .* must name an exact version/,
    ],
    [
      "prebuilt native modules",
      (text) => text.replace("npm_config_build_from_source=true", "npm_config_build_from_source=false"),
      /npm_config_build_from_source=true/,
    ],
    ["no compilers", (text) => text.replace("python3 make g++", "python3"), /must install make, g\+\+ first/],
    ["no next build", (text) => text.replace(" && npx next build \\\n", " \\\n"), /must run next build/],
    ["no EXPOSE", (text) => text.replace("EXPOSE 3000", "EXPOSE 8080"), /EXPOSE 3000/],
    [
      "another data folder",
      (text) => text.replace("WIRESPEED_DATA_DIR=/data", "WIRESPEED_DATA_DIR=/var/lib/wirespeed"),
      /WIRESPEED_DATA_DIR=\/data/,
    ],
    [
      "no migrations at start",
      (text) => text.replace("node scripts/migrate.js && ", ""),
      /must run node scripts\/migrate\.js \(scripts\/migrate\.ts compiled\), then scripts\/server\.mjs/,
    ],
    [
      "next start, which cannot tell the app who is connected",
      (text) => text.replace("exec node scripts/server.mjs", "exec node_modules/.bin/next start"),
      /must run node scripts\/migrate\.js .*, then scripts\/server\.mjs/,
    ],
    [
      "the migration run through tsx at start",
      (text) =>
        text.replace(
          "node scripts/migrate.js && ",
          "node_modules/.bin/tsx scripts/migrate.ts && node scripts/migrate.js && ",
        ),
      /runs tsx: the image starts with node alone/,
    ],
    [
      "node-gyp left to download Node's headers",
      (text) => text.replace("    npm_config_nodedir=/usr/local \\\n", ""),
      /npm_config_nodedir=\/usr\/local, so node-gyp compiles against the image's Node headers/,
    ],
    [
      "the build's whole tree in the image",
      (text) => text.replace("COPY --from=build /app/.next/standalone ./", "COPY --from=build /app ./"),
      /the runtime stage copies \/app of the build .*: copy Next\.js's standalone output/,
    ],
    [
      "the build's node_modules in the image",
      (text) =>
        text.replace(
          "COPY --from=build /app/compiled ./scripts",
          "COPY --from=build /app/compiled ./scripts\nCOPY --from=build /app/node_modules ./node_modules",
        ),
      /the runtime stage copies \/app\/node_modules of the build/,
    ],
    [
      "a health check on a fixed port",
      (text) => text.replace("' + (process.env.PORT || 3000) + '", "3000"),
      /HEALTHCHECK .* must ask the port PORT names/,
    ],
    ["a shell-form CMD", (text) => text.replace(/^CMD \[.*$/m, "CMD next start"), /must use the exec form/],
    ["a heredoc", (text) => text.replace("RUN npm ci --no-audit --no-fund", "RUN <<EOF\nnpm ci\nEOF"), /heredoc/],
  ];
  it.each(broken)("fails with %s", (_name, mutate, message) => {
    const changed = mutate(DOCKERFILE);
    expect(changed).not.toBe(DOCKERFILE);
    expect(lintDockerfile(changed).join("\n")).toMatch(message);
  });
});

describe(".dockerignore", () => {
  it("leaves local installs, the database and local secrets out of the build context", () => {
    expect(lintDockerignore(read(".dockerignore"))).toEqual([]);
    expect(lintDockerignore(read(".dockerignore").replace(/^data$/m, ""))).toEqual([
      ".dockerignore must leave out data",
    ]);
  });
});

describe("docker-compose.yml as written", () => {
  it("passes every check", () => {
    expect(lintCompose(COMPOSE, COMPOSE_OPTIONS)).toEqual([]);
  });

  const broken: [string, (text: string) => string, RegExp][] = [
    [
      "the latest tag",
      (text) => text.replace(/image: wirespeed:\S+/, "image: wirespeed:latest"),
      /must be package.json's version/,
    ],
    ["no tag", (text) => text.replace(/image: wirespeed:\S+/, "image: wirespeed"), /must name a tag/],
    [
      "no restart policy",
      (text) => text.replace("restart: unless-stopped", 'restart: "no"'),
      /restart must be unless-stopped/,
    ],
    [
      "no data volume",
      (text) => text.replace("- ./data:/data", "- wirespeed-data:/data"),
      /must mount \.\/data on \/data/,
    ],
    ["no health check", (text) => text.replace("/api/health", "/"), /healthcheck must request \/api\/health/],
    [
      "a health check on a fixed port",
      (text) => text.replace("' + (process.env.PORT || 3000) + '", "3000"),
      /healthcheck must ask the port PORT names/,
    ],
    [
      "the port published on every interface",
      (text) => text.replace('"127.0.0.1:3000:3000"', '"3000:3000"'),
      /ports "3000:3000" publishes plain HTTP on every interface/,
    ],
    [
      "an optional secret",
      (text) => text.replace(/\$\{WIRESPEED_SECRET:\?[^}]*\}/, "${WIRESPEED_SECRET:-}"),
      /WIRESPEED_SECRET must be required/,
    ],
    [
      "a secret written in the file",
      (text) => text.replace(/\$\{WIRESPEED_SECRET:\?[^}]*\}/, "hunter2"),
      /WIRESPEED_SECRET must come from the environment/,
    ],
    [
      "a required admin password",
      (text) => text.replace("${WIRESPEED_ADMIN_PASSWORD:-}", "${WIRESPEED_ADMIN_PASSWORD:?set it}"),
      /WIRESPEED_ADMIN_PASSWORD is optional/,
    ],
    ["invalid YAML", (text) => `${text}\n  : [`, /not valid YAML/],
  ];
  it.each(broken)("fails with %s", (_name, mutate, message) => {
    const changed = mutate(COMPOSE);
    expect(changed).not.toBe(COMPOSE);
    expect(lintCompose(changed, COMPOSE_OPTIONS).join("\n")).toMatch(message);
  });

  it("publishes the port the Dockerfile exposes and mounts the folder it names", () => {
    const final = parseDockerfile(DOCKERFILE).stages.at(-1)!;
    const env = Object.assign(
      {},
      ...final.instructions.filter((i) => i.keyword === "ENV").map((i) => parseEnv(i.args)),
    ) as Record<string, string>;
    expect(env.WIRESPEED_DATA_DIR).toBe(COMPOSE_OPTIONS.dataDir);
    expect(final.instructions.find((i) => i.keyword === "EXPOSE")?.args).toBe(String(COMPOSE_OPTIONS.port));
  });
});

// Debian's docker-compose (v1) validates and interpolates the file the way `docker compose` does, without an engine.
describe("docker-compose config", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-compose-"));
  // An empty env file: a developer's own .env beside the compose file must not satisfy the checks.
  const emptyEnvFile = path.join(scratch, "empty.env");
  fs.writeFileSync(emptyEnvFile, "");
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  async function compose(env: Record<string, string>, args: string[]) {
    // Only PATH and HOME from outside: a WIRESPEED_SECRET in the caller's environment must not leak in.
    const baseEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? scratch,
      NODE_ENV: "test" as const,
    };
    try {
      const { stdout, stderr } = await promisify(execFile)(
        "docker-compose",
        ["--env-file", emptyEnvFile, "-f", path.join(ROOT, "docker-compose.yml"), ...args],
        {
          cwd: ROOT,
          env: { ...baseEnv, ...env },
          encoding: "utf8",
        },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failure = error as NodeJS.ErrnoException & { code?: number | string; stdout?: string; stderr?: string };
      if (failure.code === "ENOENT") {
        throw new Error(
          "docker-compose is not installed: apt-get install -y docker-compose (npm test installs it when run as root)",
        );
      }
      return { code: Number(failure.code ?? 1), stdout: failure.stdout ?? "", stderr: failure.stderr ?? "" };
    }
  }

  it("accepts the file when WIRESPEED_SECRET is set", async () => {
    const result = await compose({ WIRESPEED_SECRET: "0123456789abcdef0123456789abcdef" }, ["config", "-q"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("resolves to the pinned image, the data volume and the health check", async () => {
    const result = await compose(
      { WIRESPEED_SECRET: "0123456789abcdef0123456789abcdef", WIRESPEED_API_TOKEN: "a-token" },
      ["config"],
    );
    expect(result.code).toBe(0);
    const service = (parseYaml(result.stdout) as { services: Record<string, Record<string, unknown>> }).services
      .wirespeed!;
    expect(service.image).toBe(`wirespeed:${VERSION}`);
    expect(service.restart).toBe("unless-stopped");
    expect(service.volumes).toEqual([`${path.join(ROOT, "data")}:/data:rw`]);
    expect(service.environment).toMatchObject({
      WIRESPEED_DATA_DIR: "/data",
      WIRESPEED_SECRET: "0123456789abcdef0123456789abcdef",
      WIRESPEED_API_TOKEN: "a-token",
      WIRESPEED_ADMIN_PASSWORD: "",
    });
    expect((service.healthcheck as { test: string[] }).test.join(" ")).toContain("/api/health");
    // plain HTTP for the proxy on this machine only, never on every interface
    expect(service.ports).toEqual(["127.0.0.1:3000:3000/tcp"]);
  });

  it.each([
    ["unset", {}],
    ["empty", { WIRESPEED_SECRET: "" }],
  ])(
    "refuses to start when WIRESPEED_SECRET is %s, and says how to set it",
    async (_name, env: Record<string, string>) => {
      const result = await compose(env, ["config", "-q"]);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("set WIRESPEED_SECRET to a long random value, e.g. openssl rand -hex 32");
    },
  );
});

// A team's deployment: Postgres and two instances behind one port (README: "A team: Postgres and several instances").
describe("docker-compose.postgres.yml", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-compose-pg-"));
  const emptyEnvFile = path.join(scratch, "empty.env");
  fs.writeFileSync(emptyEnvFile, "");
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
  const SECRETS = { WIRESPEED_SECRET: "0123456789abcdef0123456789abcdef", POSTGRES_PASSWORD: "pg-password" };

  async function config(env: Record<string, string>) {
    const baseEnv = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: process.env.HOME ?? scratch,
      NODE_ENV: "test" as const,
    };
    try {
      const { stdout } = await promisify(execFile)(
        "docker-compose",
        ["--env-file", emptyEnvFile, "-f", path.join(ROOT, "docker-compose.postgres.yml"), "config"],
        { cwd: ROOT, env: { ...baseEnv, ...env }, encoding: "utf8" },
      );
      return { code: 0, stdout, stderr: "" };
    } catch (error) {
      const failure = error as { code?: number | string; stdout?: string; stderr?: string };
      return { code: Number(failure.code ?? 1), stdout: failure.stdout ?? "", stderr: failure.stderr ?? "" };
    }
  }

  it("runs two instances of the pinned image on one Postgres with one key, each named, behind one port", async () => {
    const result = await config(SECRETS);
    expect(result.code).toBe(0);
    const services = (parseYaml(result.stdout) as { services: Record<string, Record<string, unknown>> }).services;
    expect(Object.keys(services).sort()).toEqual(["postgres", "proxy", "wirespeed-1", "wirespeed-2"]);
    for (const name of ["wirespeed-1", "wirespeed-2"]) {
      expect(services[name]!.image).toBe(`wirespeed:${VERSION}`);
      expect(services[name]!.environment).toMatchObject({
        DATABASE_URL: "postgres://wirespeed:pg-password@postgres:5432/wirespeed",
        WIRESPEED_SECRET: SECRETS.WIRESPEED_SECRET,
        WIRESPEED_INSTANCE: name,
      });
    }
    expect(JSON.stringify(services.proxy!.ports)).toContain("3000");
    const nginx = read("deploy/nginx.conf");
    expect(nginx).toMatch(/server wirespeed-1:3000/);
    expect(nginx).toMatch(/server wirespeed-2:3000/);
    // live samples are server-sent events: never buffered by the proxy
    expect(nginx).toMatch(/proxy_buffering off;/);
  });

  it("publishes nginx's plain HTTP on loopback only, for the HTTPS proxy in front", async () => {
    const result = await config(SECRETS);
    const services = (parseYaml(result.stdout) as { services: Record<string, Record<string, unknown>> }).services;
    expect(services.proxy!.ports).toEqual(["127.0.0.1:3000:80/tcp"]);
    // the instances trust nginx's own address, not the network's range (Docker relays from its gateway)
    expect(services["wirespeed-1"]!.environment).toMatchObject({ WIRESPEED_TRUSTED_PROXIES: "172.30.80.10" });
  });

  it.each(["WIRESPEED_SECRET", "POSTGRES_PASSWORD"])("refuses to start without %s, saying so", async (name) => {
    const result = await config({ ...SECRETS, [name]: "" });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(new RegExp(`set ${name}`));
  });
});

// deploy/nginx.conf run by a real nginx (scripts/image-check-nginx.ts: Debian's nginx-light, which npm test
// installs, in a folder of its own on 127.0.0.1), in front of a server that answers with the headers it
// was sent: what the Wirespeed instances behind it would receive.
describe("deploy/nginx.conf", () => {
  // one port per test run (WIRESPEED_LAB_INSTANCE), so that parallel runs do not meet
  const port = 28_080 + Number(process.env.WIRESPEED_LAB_INSTANCE || 0);
  let upstream: http.Server | null = null;
  let nginx: LocalNginx | null = null;
  afterAll(async () => {
    await nginx?.stop();
    await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  });

  async function startNginx(): Promise<void> {
    upstream = http.createServer((request, response) => {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(request.headers));
    });
    await new Promise<void>((resolve) => upstream!.listen(0, "127.0.0.1", resolve));
    const address = `127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    nginx = await startLocalNginx([address, address], port);
  }

  /** What the instance behind nginx receives for a request sent to nginx with `headers`. */
  function through(headers: Record<string, string>, method = "GET"): Promise<Record<string, string>> {
    return new Promise((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port, path: "/", method, headers }, (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve(JSON.parse(body) as Record<string, string>));
      });
      request.on("error", reject);
      request.end();
    });
  }

  it("passes on the Host a browser sent, with its port, as a server action's Origin names it", async () => {
    await startNginx();
    // nginx published on 3000:80: the browser's Host and Origin say :3000, and Next.js refuses a server
    // action whose Origin is not the Host it received ("Invalid Server Actions request", a 500)
    const received = await through({ host: "wirespeed.lab:3000", origin: "http://wirespeed.lab:3000" }, "POST");
    expect(received.host).toBe("wirespeed.lab:3000");
    expect(received.origin).toBe("http://wirespeed.lab:3000");
    expect((await through({ host: "wirespeed.lab" })).host).toBe("wirespeed.lab");
    expect((await through({ host: "[fd00::5]:8443" })).host).toBe("[fd00::5]:8443");
  });

  it("names the client in X-Forwarded-For after what the client wrote, and keeps the connection header its own", async () => {
    if (!nginx) await startNginx();
    const received = await through({ host: "wirespeed.lab:3000", "x-forwarded-for": "203.0.113.9" });
    // the right-most entry is the one nginx saw: lib/auth/client.ts reads from the right
    expect(received["x-forwarded-for"]).toBe("203.0.113.9, 127.0.0.1");
    expect(received["x-forwarded-proto"]).toBe("http");
    expect(received.connection).toBeUndefined();
  });

  it("drops a client's own Remote-User and Remote-Groups: it signs nobody in, so no instance may believe them", async () => {
    if (!nginx) await startNginx();
    const received = await through({ host: "wirespeed.lab:3000", "remote-user": "admin", "remote-groups": "admins" });
    expect(received["remote-user"]).toBeUndefined();
    expect(received["remote-groups"]).toBeUndefined();
  });
});

// Each health check as Docker runs it (the image's, and each compose file's, which replaces it), against
// a server on the port PORT names: setting PORT must keep the service healthy.
describe("health checks", () => {
  const checks: [string, () => Promise<string[]>][] = [
    [
      "the image's HEALTHCHECK",
      async () => {
        const healthcheck = parseDockerfile(DOCKERFILE)
          .stages.at(-1)!
          .instructions.find((instruction) => instruction.keyword === "HEALTHCHECK")!;
        return ["CMD", ...(JSON.parse(healthcheck.args.slice(healthcheck.args.indexOf("CMD") + 3).trim()) as string[])];
      },
    ],
    ...(
      [
        ["docker-compose.yml", "wirespeed"],
        ["docker-compose.postgres.yml", "wirespeed-1"],
        ["docker-compose.postgres.yml", "wirespeed-2"],
      ] as const
    ).map(([file, name]): [string, () => Promise<string[]>] => [
      `${file}'s ${name}`,
      async () => {
        const document = parseYaml(read(file)) as {
          services: Record<string, { healthcheck: { test: string[] } }>;
          "x-wirespeed"?: { healthcheck: { test: string[] } };
        };
        // YAML merge keys (<<: *wirespeed) are resolved by compose; here the anchor's own test when the service has none
        return (document.services[name]!.healthcheck ?? document["x-wirespeed"]!.healthcheck).test;
      },
    ]),
  ];

  it.each(checks)("%s asks the port PORT names", async (_name, testOf) => {
    const [kind, command, ...args] = await testOf();
    expect(kind).toBe("CMD");
    expect(command).toBe("node");
    const asked: string[] = [];
    const server = http.createServer((request, response) => {
      asked.push(request.url ?? "");
      response.end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const { PATH, HOME } = process.env;
      const run = await promisify(execFile)(process.execPath, args, {
        env: { PATH, HOME, PORT: String(port), NODE_ENV: "production" },
      }).then(
        () => 0,
        (error: { code?: number }) => error.code ?? 1,
      );
      expect(asked).toEqual(["/api/health"]);
      expect(run).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

// The image's commands compiled to plain JavaScript (deploy/bundle-scripts.mjs), run with node alone from a
// folder laid out as the image's /app: the migration step needs no tsx and no Prisma CLI.
describe("deploy/bundle-scripts.mjs", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-bundle-"));
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it("compiles the migration step, which migrates a fresh SQLite file as prisma migrate deploy would", async () => {
    const app = path.join(scratch, "app");
    fs.mkdirSync(path.join(app, "prisma"), { recursive: true });
    fs.cpSync(path.join(ROOT, "prisma", "migrations"), path.join(app, "prisma", "migrations"), { recursive: true });
    // better-sqlite3 is native and stays out of the bundle: the image's node_modules has it
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(app, "node_modules"));
    const { bundleScripts } = (await import("../deploy/bundle-scripts.mjs")) as {
      bundleScripts: (outdir: string) => Promise<void>;
    };
    await bundleScripts(path.join(app, "scripts"));
    for (const name of ["migrate", "backup", "compact", "wirespeed"]) {
      expect(fs.existsSync(path.join(app, "scripts", `${name}.js`))).toBe(true);
    }
    const dataDir = path.join(scratch, "data");
    const { PATH, HOME } = process.env;
    const env = { PATH, HOME, WIRESPEED_DATA_DIR: dataDir, NODE_ENV: "production" as const };
    const node = (args: string[]) =>
      promisify(execFile)(process.execPath, args, { cwd: app, env, encoding: "utf8" }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code?: number; stdout?: string; stderr?: string }) => ({
          code: error.code ?? 1,
          stdout: error.stdout ?? "",
          stderr: error.stderr ?? "",
        }),
      );
    const first = await node(["scripts/migrate.js"]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^\[wirespeed\] SQLite database .*wirespeed\.db: applied 20261130000000_init, /);
    expect((await node(["scripts/migrate.js"])).stdout).toMatch(/: up to date\n$/);
    expect(fs.statSync(path.join(dataDir, "wirespeed.db")).mode & 0o777).toBe(0o600);
    // Prisma reads the database migrated this way as its own
    const status = await promisify(execFile)(path.join(ROOT, "node_modules/.bin/prisma"), ["migrate", "status"], {
      cwd: ROOT,
      env: {
        PATH,
        HOME,
        NODE_ENV: "test",
        DATABASE_URL: `file:${path.join(dataDir, "wirespeed.db")}`,
        CHECKPOINT_DISABLE: "1",
      },
      encoding: "utf8",
    });
    expect(status.stdout).toContain("Database schema is up to date!");
    // a file that `prisma migrate deploy` migrated (npm start before this change, any older image) is up to
    // date for the compiled step, and holds the same schema
    const byPrisma = path.join(scratch, "prisma-data");
    await promisify(execFile)(path.join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
      cwd: ROOT,
      env: {
        PATH,
        HOME,
        NODE_ENV: "test",
        DATABASE_URL: `file:${path.join(byPrisma, "wirespeed.db")}`,
        CHECKPOINT_DISABLE: "1",
      },
      encoding: "utf8",
    });
    const after = await promisify(execFile)(process.execPath, ["scripts/migrate.js"], {
      cwd: app,
      env: { ...env, WIRESPEED_DATA_DIR: byPrisma },
      encoding: "utf8",
    });
    expect(after.stdout).toMatch(/: up to date\n$/);
    const { default: Database } = await import("better-sqlite3");
    const schemaOf = (file: string) => {
      const database = new Database(file, { readonly: true });
      try {
        return database.prepare("SELECT type, name, sql FROM sqlite_master ORDER BY name").all();
      } finally {
        database.close();
      }
    };
    expect(schemaOf(path.join(dataDir, "wirespeed.db"))).toEqual(schemaOf(path.join(byPrisma, "wirespeed.db")));
    // the other commands run from the same folder
    const backup = await node(["scripts/backup.js", path.join(scratch, "copy.db")]);
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain("integrity_check ok");
    // bundling, two migrations and the Prisma CLI twice: a minute on a busy 2-core machine
  }, 180_000);
});
