// Build-free checks of the Dockerfile, .dockerignore and docker-compose.yml: no Docker
// engine is needed, so `npm test` can hold the deployment files to their rules anywhere.
// Each lint returns the problems it found as sentences; an empty list means none.
import { parse as parseYaml } from "yaml";

export type DockerInstruction = { keyword: string; args: string; line: number };
export type DockerStage = { image: string; name: string | null; line: number; instructions: DockerInstruction[] };

/** Node 20 slim on Debian 12, with the full version: a floating tag would change under a rebuild. */
const PINNED_NODE_IMAGE = /^node:20\.(\d+)\.(\d+)-bookworm-slim$/;
// package.json's engines: >=20.9
const MIN_NODE_MINOR = 9;
const RUNTIME_PACKAGES = ["iperf3", "openssh-client"];
const BUILD_PACKAGES = ["python3", "make", "g++"];

/**
 * The instructions of a Dockerfile, grouped by stage. Follows Docker's reading: `\`
 * continues a line, `#` lines are comments (also inside a continued instruction).
 * Heredocs are not read: they are reported as a problem by lintDockerfile instead.
 */
export function parseDockerfile(text: string): { preamble: DockerInstruction[]; stages: DockerStage[] } {
  const instructions: DockerInstruction[] = [];
  let pending: string[] = [];
  let startLine = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const trimmed = raw.trim();
    if (trimmed.startsWith("#") || (trimmed === "" && pending.length === 0)) return;
    if (trimmed === "") return; // an empty line inside a continued instruction
    if (pending.length === 0) startLine = index + 1;
    if (trimmed.endsWith("\\")) {
      pending.push(trimmed.slice(0, -1).trim());
      return;
    }
    pending.push(trimmed);
    const joined = pending.filter(Boolean).join(" ");
    pending = [];
    const match = /^(\S+)\s*([\s\S]*)$/.exec(joined)!;
    instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!.trim(), line: startLine });
  });
  if (pending.length > 0) {
    instructions.push({ keyword: "INCOMPLETE", args: pending.join(" "), line: startLine });
  }

  const preamble: DockerInstruction[] = [];
  const stages: DockerStage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const parts = instruction.args.split(/\s+/).filter((part) => !part.startsWith("--"));
      const name = parts.length >= 3 && parts[1]!.toUpperCase() === "AS" ? parts[2]! : null;
      stages.push({ image: parts[0] ?? "", name, line: instruction.line, instructions: [] });
    } else if (stages.length === 0) {
      preamble.push(instruction);
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { preamble, stages };
}

/** The key=value pairs of an ENV instruction (also the old `ENV key value` form). */
export function parseEnv(args: string): Record<string, string> {
  const tokens = args.match(/(?:[^\s"']+|"(?:\\.|[^"\\])*"|'[^']*')+/g) ?? [];
  const unquote = (value: string) =>
    value.replace(/"((?:\\.|[^"\\])*)"|'([^']*)'/g, (_, double?: string, single?: string) => double ?? single ?? "");
  if (tokens.length > 0 && !tokens[0]!.includes("=")) {
    return { [tokens[0]!]: unquote(args.slice(tokens[0]!.length).trim()) };
  }
  const env: Record<string, string> = {};
  for (const token of tokens) {
    const equals = token.indexOf("=");
    if (equals > 0) env[token.slice(0, equals)] = unquote(token.slice(equals + 1));
  }
  return env;
}

/** The words of a JSON (exec form) instruction argument, or null for the shell form. */
function execForm(args: string): string[] | null {
  if (!args.startsWith("[")) return null;
  try {
    const value: unknown = JSON.parse(args);
    return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : null;
  } catch {
    return null;
  }
}

/** The shell commands of a RUN, split on && ; and |, for checks that look at one command. */
function commandsOf(run: string): string[] {
  return run.split(/&&|\|\||;|\|/).map((command) => command.trim().replace(/^(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, ""));
}

function checkAptRun(run: DockerInstruction, where: string, problems: string[]): string[] {
  const installed: string[] = [];
  for (const command of commandsOf(run.args)) {
    const words = command.split(/\s+/);
    if (words[0] !== "apt-get" && words[0] !== "apt") continue;
    if (words[0] === "apt") problems.push(`${where}: use apt-get in scripts, not apt (line ${run.line})`);
    if (!words.includes("install")) continue;
    if (!words.includes("--no-install-recommends"))
      problems.push(`${where}: apt-get install needs --no-install-recommends (line ${run.line})`);
    if (!words.includes("-y") && !words.includes("--yes"))
      problems.push(`${where}: apt-get install needs -y (line ${run.line})`);
    installed.push(...words.slice(words.indexOf("install") + 1).filter((word) => !word.startsWith("-")));
  }
  if (installed.length > 0) {
    if (!/apt-get update/.test(run.args))
      problems.push(`${where}: apt-get update must run in the same RUN as apt-get install (line ${run.line})`);
    if (!/rm -rf \/var\/lib\/apt\/lists\/\*\s*$/.test(run.args)) {
      problems.push(
        `${where}: a RUN that installs packages must end with rm -rf /var/lib/apt/lists/* (line ${run.line})`,
      );
    }
  }
  return installed;
}

export function lintDockerfile(text: string): string[] {
  const problems: string[] = [];
  const { preamble, stages } = parseDockerfile(text);
  for (const instruction of preamble) {
    if (instruction.keyword !== "ARG")
      problems.push(`${instruction.keyword} before the first FROM (line ${instruction.line}): only ARG may come first`);
  }
  for (const stage of stages) {
    for (const instruction of stage.instructions) {
      if (instruction.keyword === "INCOMPLETE")
        problems.push(`the instruction at line ${instruction.line} ends with a \\ and nothing after it`);
      if (/<<-?\s*["']?[A-Za-z_]/.test(instruction.args) && ["RUN", "COPY"].includes(instruction.keyword)) {
        problems.push(
          `${instruction.keyword} at line ${instruction.line} uses a heredoc, which this check cannot read: write the command out`,
        );
      }
    }
  }
  if (stages.length < 2) {
    problems.push(
      "the Dockerfile must have a build stage and a runtime stage (two FROMs), so compilers stay out of the image",
    );
    if (stages.length === 0) return problems;
  }

  // Every base image is a pinned node:20 slim, or an earlier stage of this file.
  const stageNames = new Set<string>();
  for (const stage of stages) {
    const pinned = PINNED_NODE_IMAGE.exec(stage.image);
    if (pinned) {
      if (Number(pinned[1]) < MIN_NODE_MINOR)
        problems.push(
          `FROM ${stage.image} (line ${stage.line}): package.json needs Node 20.${MIN_NODE_MINOR} or newer`,
        );
    } else if (!stageNames.has(stage.image)) {
      problems.push(
        `FROM ${stage.image} (line ${stage.line}) must be a pinned node:20.X.Y-bookworm-slim image or an earlier stage`,
      );
    }
    if (stage.name) stageNames.add(stage.name);
  }

  // Nothing fetched from outside the package registries, and npm installs only exact versions.
  stages.forEach((stage, stageIndex) => {
    const where = `stage ${stage.name ?? stageIndex + 1}`;
    for (const instruction of stage.instructions) {
      if (instruction.keyword === "ADD" && /(^|\s)(https?|git):\/\//.test(instruction.args)) {
        problems.push(`${where}: ADD of a URL (line ${instruction.line}); install from Debian or npm instead`);
      }
      if (instruction.keyword !== "RUN") continue;
      if (/\b(curl|wget)\b/.test(instruction.args))
        problems.push(
          `${where}: RUN downloads with curl or wget (line ${instruction.line}); install from Debian or npm instead`,
        );
      if (/\|\s*(sudo\s+)?(ba|da|z)?sh\b/.test(instruction.args))
        problems.push(`${where}: RUN pipes into a shell (line ${instruction.line})`);
      for (const command of commandsOf(instruction.args)) {
        const words = command.split(/\s+/);
        if (words[0] !== "npm" || !["install", "i", "add"].includes(words[1] ?? "")) continue;
        const packages = words.slice(2).filter((word) => !word.startsWith("-"));
        if (packages.length === 0)
          problems.push(
            `${where}: use npm ci, not npm install, for the project's dependencies (line ${instruction.line})`,
          );
        for (const name of packages) {
          if (!/^(@[\w.-]+\/)?[\w.-]+@\d+\.\d+\.\d+$/.test(name))
            problems.push(`${where}: npm install ${name} (line ${instruction.line}) must name an exact version`);
        }
      }
    }
  });

  // The build stage: compilers, then npm ci with native modules built from source.
  const npmCiStage = stages.find((stage) =>
    stage.instructions.some((instruction) => instruction.keyword === "RUN" && /\bnpm ci\b/.test(instruction.args)),
  );
  if (!npmCiStage) {
    problems.push("no stage runs npm ci: the image must install exactly what package-lock.json says");
  } else {
    const ciIndex = npmCiStage.instructions.findIndex(
      (instruction) => instruction.keyword === "RUN" && /\bnpm ci\b/.test(instruction.args),
    );
    const before = npmCiStage.instructions.slice(0, ciIndex);
    const env = Object.assign(
      {},
      ...before.filter((instruction) => instruction.keyword === "ENV").map((instruction) => parseEnv(instruction.args)),
    ) as Record<string, string>;
    const inline = /\bnpm_config_build_from_source=true\b/.test(npmCiStage.instructions[ciIndex]!.args);
    if (env.npm_config_build_from_source !== "true" && !inline) {
      problems.push(
        "npm ci must run with npm_config_build_from_source=true, so native modules compile instead of downloading prebuilt binaries",
      );
    }
    // the node image holds Node's headers in /usr/local/include/node: without nodedir, node-gyp downloads them
    const nodedir =
      env.npm_config_nodedir ?? /\bnpm_config_nodedir=(\S+)/.exec(npmCiStage.instructions[ciIndex]!.args)?.[1];
    if (nodedir !== "/usr/local") {
      problems.push(
        "npm ci must run with npm_config_nodedir=/usr/local, so node-gyp compiles against the image's Node headers instead of downloading them from the Node.js download server",
      );
    }
    const buildPackages = before
      .filter((instruction) => instruction.keyword === "RUN")
      .flatMap((instruction) => checkAptRun(instruction, "build stage", []));
    const missing = BUILD_PACKAGES.filter((name) => !buildPackages.includes(name));
    if (missing.length > 0)
      problems.push(
        `the stage that runs npm ci must install ${missing.join(", ")} first (better-sqlite3 compiles with node-gyp)`,
      );
    if (
      !npmCiStage.instructions.some(
        (instruction) => instruction.keyword === "RUN" && /\bnext build\b/.test(instruction.args),
      )
    ) {
      problems.push("the build stage must run next build");
    }
    if (
      !npmCiStage.instructions.some(
        (instruction) => instruction.keyword === "RUN" && /\bscripts\/setup\.mjs\b/.test(instruction.args),
      )
    ) {
      problems.push("the build stage must run node scripts/setup.mjs (it generates the SQLite and Postgres clients)");
    }
  }

  stages.forEach((stage, stageIndex) => {
    for (const instruction of stage.instructions) {
      if (instruction.keyword === "RUN") checkAptRun(instruction, `stage ${stage.name ?? stageIndex + 1}`, problems);
    }
  });

  // The runtime stage.
  const final = stages.at(-1)!;
  const finalOf = (keyword: string) => final.instructions.filter((instruction) => instruction.keyword === keyword);
  if (!PINNED_NODE_IMAGE.test(final.image))
    problems.push("the runtime stage must start FROM the pinned node image itself, not from the build stage");
  const runtimePackages = finalOf("RUN").flatMap((instruction) => checkAptRun(instruction, "runtime stage", []));
  for (const name of RUNTIME_PACKAGES) {
    if (!runtimePackages.includes(name)) problems.push(`the runtime stage must apt-get install ${name}`);
  }
  if (!finalOf("COPY").some((instruction) => /--from=\S+/.test(instruction.args)))
    problems.push("the runtime stage must COPY --from the build stage");
  // what runs, not the build's tree: its node_modules hold every dev dependency and the compilers' output
  for (const copy of finalOf("COPY").filter((instruction) => /--from=\S+/.test(instruction.args))) {
    const sources = copy.args
      .split(/\s+/)
      .filter((word) => !word.startsWith("--"))
      .slice(0, -1);
    for (const source of sources) {
      if (/^(\/app)?\/?\.?$/.test(source) || /(^|\/)node_modules\/?$/.test(source))
        problems.push(
          `the runtime stage copies ${source} of the build (line ${copy.line}): copy Next.js's standalone output and the compiled scripts, so no dev dependency reaches the image`,
        );
    }
  }
  if (finalOf("WORKDIR").length === 0) problems.push("the runtime stage must set a WORKDIR");
  const env = Object.assign({}, ...finalOf("ENV").map((instruction) => parseEnv(instruction.args))) as Record<
    string,
    string
  >;
  if (env.WIRESPEED_DATA_DIR !== "/data")
    problems.push("the runtime stage must set ENV WIRESPEED_DATA_DIR=/data (the volume)");
  if (
    !finalOf("EXPOSE").some((instruction) =>
      instruction.args.split(/\s+/).some((port) => port === "3000" || port === "3000/tcp"),
    )
  ) {
    problems.push("the runtime stage must EXPOSE 3000");
  }

  const cmdIndex = final.instructions.findLastIndex(
    (instruction) => instruction.keyword === "CMD" || instruction.keyword === "ENTRYPOINT",
  );
  if (cmdIndex < 0) {
    problems.push("the runtime stage needs a CMD");
  } else {
    const cmd = final.instructions[cmdIndex]!;
    const words = execForm(cmd.args);
    if (!words) problems.push(`${cmd.keyword} (line ${cmd.line}) must use the exec form ["…", "…"]`);
    const command = (words ?? []).join(" ");
    // scripts/migrate.ts, compiled to scripts/migrate.js, migrates whichever database DATABASE_URL names.
    const migrate = command.search(/\bnode scripts\/migrate\.js\b/);
    // scripts/server.mjs, not `next start`: it tells the app each connection's address (lib/auth/client.ts).
    const start = command.indexOf("scripts/server.mjs");
    if (migrate < 0 || start < migrate)
      problems.push(
        `${cmd.keyword} (line ${cmd.line}) must run node scripts/migrate.js (scripts/migrate.ts compiled), then scripts/server.mjs`,
      );
    const compiler = /\b(tsx|ts-node|prisma|npx|npm)\b/.exec(command)?.[1];
    if (compiler)
      problems.push(
        `${cmd.keyword} (line ${cmd.line}) runs ${compiler}: the image starts with node alone, no compiler or CLI`,
      );
  }
  const users = final.instructions
    .slice(0, cmdIndex < 0 ? undefined : cmdIndex)
    .filter((instruction) => instruction.keyword === "USER");
  const user = users.at(-1)?.args.split(":")[0];
  if (user === undefined) problems.push("the runtime stage must switch to a non-root USER before CMD");
  else if (user === "root" || user === "0")
    problems.push(`the runtime stage runs as ${user}: switch to a non-root USER before CMD`);

  const healthchecks = finalOf("HEALTHCHECK");
  if (healthchecks.length === 0) {
    problems.push("the runtime stage needs a HEALTHCHECK on /api/health");
  } else {
    const healthcheck = healthchecks.at(-1)!;
    if (!healthcheck.args.includes("/api/health"))
      problems.push(`HEALTHCHECK (line ${healthcheck.line}) must request /api/health`);
    if (/\b(curl|wget)\b/.test(healthcheck.args))
      problems.push(`HEALTHCHECK (line ${healthcheck.line}) uses curl or wget, which the slim image lacks: use node`);
    if (/\bNONE\b/.test(healthcheck.args))
      problems.push(`HEALTHCHECK NONE (line ${healthcheck.line}) turns the health check off`);
    if (!healthcheck.args.includes("process.env.PORT"))
      problems.push(`HEALTHCHECK (line ${healthcheck.line}) must ask the port PORT names (process.env.PORT)`);
  }
  return problems;
}

/** What must never go into the build context: local installs, the database, the key file and local secrets. */
export function lintDockerignore(text: string): string[] {
  const patterns = new Set(
    text
      .split(/\r?\n/)
      .map((line) => line.trim().replace(/^\//, "").replace(/\/$/, ""))
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
  return ["node_modules", "data", ".next", ".git", ".env"]
    .filter((pattern) => !patterns.has(pattern))
    .map((pattern) => `.dockerignore must leave out ${pattern}`);
}

type ComposeOptions = { service: string; version: string; dataDir: string; port: number };

function environmentOf(value: unknown): Record<string, string> {
  if (Array.isArray(value)) {
    return Object.fromEntries(value.map((item) => String(item).split(/=(.*)/s).slice(0, 2) as [string, string]));
  }
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, item === null ? "" : String(item)]));
  return {};
}

/** The compose file as written (before interpolation), against the deployment rules. */
export function lintCompose(text: string, options: ComposeOptions): string[] {
  const problems: string[] = [];
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    return [`docker-compose.yml is not valid YAML: ${error instanceof Error ? error.message : String(error)}`];
  }
  const services = (document as { services?: Record<string, Record<string, unknown>> } | null)?.services;
  const service = services?.[options.service];
  if (!service) return [`docker-compose.yml must define the service ${options.service}`];

  const image = typeof service.image === "string" ? service.image : "";
  const tag = /^[\w./-]+:([\w.-]+)$/.exec(image)?.[1];
  if (!tag) problems.push(`image must name a tag, such as wirespeed:${options.version} (got "${image}")`);
  else if (tag !== options.version)
    problems.push(`image tag ${tag} must be package.json's version ${options.version} (a pinned tag, never latest)`);
  if (service.build === undefined)
    problems.push("build must be set, so `docker compose up --build` makes the image from this folder");
  if (service.restart !== "unless-stopped")
    problems.push(`restart must be unless-stopped (got ${JSON.stringify(service.restart ?? null)})`);

  const volumes = Array.isArray(service.volumes) ? service.volumes.map(String) : [];
  if (!volumes.some((volume) => /^\.\/data:/.test(volume) && volume.split(":")[1] === options.dataDir)) {
    problems.push(`volumes must mount ./data on ${options.dataDir}, where the database and the key file live`);
  }
  const env = environmentOf(service.environment);
  if (env.WIRESPEED_DATA_DIR !== undefined && env.WIRESPEED_DATA_DIR !== options.dataDir) {
    problems.push(`WIRESPEED_DATA_DIR must be ${options.dataDir}, the mounted folder (got ${env.WIRESPEED_DATA_DIR})`);
  }
  const ports = Array.isArray(service.ports) ? service.ports.map(String) : [];
  const exposed = Array.isArray(service.expose) ? service.expose.map(String) : [];
  if (![...ports, ...exposed].some((port) => port.split(":").at(-1) === String(options.port)))
    problems.push(`ports must publish the container's port ${options.port} (or expose it to the proxy's network)`);
  for (const port of ports) {
    // host address:host port:container port; without the address Docker publishes on every interface
    if (!/^(127\.0\.0\.1|\[::1\]|::1):/.test(port))
      problems.push(
        `ports "${port}" publishes plain HTTP on every interface: publish it to the proxy only (127.0.0.1:${options.port}:${options.port}, or expose)`,
      );
  }

  const healthcheck = service.healthcheck as { test?: unknown; disable?: unknown } | undefined;
  const probe = Array.isArray(healthcheck?.test) ? healthcheck.test.join(" ") : String(healthcheck?.test ?? "");
  if (!healthcheck || healthcheck.disable === true || !probe.includes("/api/health"))
    problems.push("healthcheck must request /api/health");
  else if (/\b(curl|wget)\b/.test(probe))
    problems.push("healthcheck uses curl or wget, which the image lacks: use node");
  else if (!probe.includes("process.env.PORT"))
    problems.push("healthcheck must ask the port PORT names (process.env.PORT), as the image's own check does");

  if (!/^\$\{WIRESPEED_SECRET:\?[^}]+\}$/.test(env.WIRESPEED_SECRET ?? "")) {
    problems.push("WIRESPEED_SECRET must be required and explained: ${WIRESPEED_SECRET:?message}");
  }
  for (const [name, value] of Object.entries(env)) {
    if (!/SECRET|PASSWORD|TOKEN/.test(name)) continue;
    if (!new RegExp(`^\\$\\{${name}(:[?-][^}]*)?\\}$`).test(value)) {
      problems.push(`${name} must come from the environment as \${${name}...}, never be written in the file`);
    }
  }
  for (const name of ["WIRESPEED_ADMIN_PASSWORD", "WIRESPEED_API_TOKEN"]) {
    if (env[name]?.startsWith(`\${${name}:?`)) problems.push(`${name} is optional: write \${${name}:-}`);
  }
  return problems;
}
