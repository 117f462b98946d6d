import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

// Which folder may import which (docs/architecture.md, "Layers"). `lib` is the logic and
// never looks up at the pages that use it; components never reach the database or SSH; only
// tests and benchmarks use the test support in testing/.
const up = (folder) => [`@/${folder}`, `@/${folder}/*`, `**/../${folder}`, `**/../${folder}/*`];
const rule = (groups, message, allowTypeImports = false) => ({ group: groups, message, allowTypeImports });
const NOT_TESTING = rule(up("testing"), "testing/ is test support: only tests, benchmarks and the lab use it.");
const boundaries = (...patterns) => ({ "no-restricted-imports": ["error", { patterns: [...patterns, NOT_TESTING] }] });
const TESTS = ["**/*.test.ts", "**/*.spec.ts", "e2e/**", "bench/**", "testing/**", "scripts/**/*.test.ts"];

// The layers of lib/ and agents/, bottom first (docs/architecture.md, "Layers"). A module imports
// its own layer and those below it, never one above: so no two folders import each other. The
// contracts (`contract.ts`) and input schemas (`schemas.ts`) of every feature are pure and sit at
// the bottom, whatever their folder: anything may import them, including the browser. Server
// actions (`lib/<feature>/actions/`) are entry points, as route handlers are: the top layer.
export const LAYERS = [
  [
    "errors",
    "platforms",
    "config",
    "format",
    "iperf",
    "ssh",
    "data-dir",
    "sqlite",
    "sqlite-migrate",
    "postgres",
    "db-errors",
    "generated",
  ],
  ["@agents"],
  ["secrets", "running-app", "db", "sql-dialect"],
  ["auth", "trusted-proxy-warning"],
  ["inventory"],
  ["hosts"],
  ["runs"],
  ["imports", "experiments", "instances", "notes"],
  ["diagnosis", "posts", "schedules", "notify", "metrics", "bootstrap", "backup"],
  ["alerts"],
  ["overview", "grid", "shares", "mqtt"],
  ["app", "shutdown", "action", "api"],
];
const TOP = LAYERS.length - 1;

// The modules of lib/ that say `import "server-only"`: the browser must not load them, so the
// components (which a client component may import) take only their types.
const ROOT = path.dirname(fileURLToPath(import.meta.url));
function serverModules(dir) {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : serverModules(file);
    if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) return [];
    if (!/^import "server-only";$/m.test(fs.readFileSync(path.join(ROOT, file), "utf8"))) return [];
    return [file.replace(/\.tsx?$/, "").replace(/\/index$/, "")];
  });
}
const SERVER_MODULES = serverModules("lib");
const pathOf = (module) => (module === "@agents" ? "agents" : `lib/${module}`);
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/**
 * The import specifiers that name one of `modules`, by alias (`@/lib/runs/engine`) or relative path
 * (`../runs/engine` from a folder of lib/, `../lib/runs/engine` from agents/), their pure contracts excepted.
 */
const importsOf = (modules) => {
  const paths = modules.map((module) => escape(pathOf(module))).join("|");
  const names = modules.map((module) => escape(pathOf(module).replace(/^lib\//, ""))).join("|");
  return `^(?:@/(?:${paths})|\\.\\./(?:${names})|(?:\\.\\./)+lib/(?:${names}))(?:/(?!(?:contract|schemas)$).*)?$`;
};
const filesOf = (module) =>
  module === "@agents"
    ? ["agents/**/*.ts"]
    : [`lib/${module}.ts`, `lib/${module}.tsx`, `lib/${module}/**/*.ts`, `lib/${module}/**/*.tsx`];
const NOT_UP = rule(
  [...up("components"), ...up("app"), ...up("e2e")],
  "lib/ and agents/ never import components/, app/ or e2e/: move the shared code into lib/.",
);
const IPERF_PURE = rule(
  ["@/lib/db", "@/lib/ssh", "@/lib/ssh/*", "@/agents", "@/agents/*", "node:child_process", "node:fs", "server-only"],
  "lib/iperf is pure: no database, SSH, agents or I/O.",
);
function layerConfigs() {
  return LAYERS.flatMap((modules, layer) => {
    const above = LAYERS.slice(layer + 1).flat();
    const patterns = [NOT_UP];
    if (above.length > 0) {
      patterns.push({
        regex: importsOf(above),
        message:
          `${modules.map(pathOf).join(", ")} may import only its own layer and those below: ` +
          `layer ${layer} of ${TOP} in LAYERS (eslint.config.mjs, bottom first; docs/architecture.md).`,
        // A type is not a dependency at run time: lib/running-app.ts names the App it holds.
        allowTypeImports: true,
      });
    }
    return modules.map((module) => ({
      files: filesOf(module),
      ignores: [...TESTS, "lib/*/actions/**"],
      rules: boundaries(...patterns, ...(module === "iperf" ? [IPERF_PURE] : [])),
    }));
  }).concat({ files: ["lib/*/actions/**/*.ts"], ignores: TESTS, rules: boundaries(NOT_UP) });
}

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  // Layout is Prettier's (.prettierrc.json, `npm run format`): eslint keeps to correctness.
  prettier,
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".next-*/**",
      "lib/generated/**",
      "data/**",
      "test-results/**",
      "playwright-report/**",
      "e2e/artifacts/**",
      "next-env.d.ts",
    ],
  },
  ...layerConfigs(),
  {
    files: ["components/**/*.ts", "components/**/*.tsx"],
    ignores: TESTS,
    rules: boundaries(
      rule([...up("app"), ...up("e2e")], "components/ never import app/ or e2e/."),
      rule(
        [
          "@/lib/db",
          "@/lib/ssh",
          "@/lib/ssh/*",
          "@/agents",
          "@/agents/*",
          "@/lib/secrets",
          "@/lib/secrets/*",
          "@/lib/generated/*",
        ],
        "components/ hold no database, SSH or secrets: take the data as props from the reads of lib/<feature>/.",
        true,
      ),
      {
        regex: `^@/(?:${SERVER_MODULES.map(escape).join("|")})$`,
        message:
          'components/ reach the browser: a module marked import "server-only" gives them types only. ' +
          "Take its data as props, or move the pure part into a module without the mark.",
        allowTypeImports: true,
      },
    ),
  },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    ignores: TESTS,
    rules: boundaries(
      rule(up("e2e"), "app/ never imports e2e/."),
      rule(
        ["@/lib/db", "@/lib/generated/*"],
        "app/ validates and calls lib/: pages and route handlers ask the database through the reads and writes of lib/<feature>/.",
        true,
      ),
    ),
  },
];

export default config;
