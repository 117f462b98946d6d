import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";

// Which folder may import which (docs/architecture.md, "Boundaries"). `lib` is the logic and
// never looks up at the pages that use it; components never reach the database or SSH; only
// tests and benchmarks use the test support in testing/.
const up = (folder) => [`@/${folder}`, `@/${folder}/*`, `**/../${folder}`, `**/../${folder}/*`];
const rule = (groups, message, allowTypeImports = false) => ({ group: groups, message, allowTypeImports });
const NOT_TESTING = rule(up("testing"), "testing/ is test support: only tests, benchmarks and the lab use it.");
const boundaries = (...patterns) => ({ "no-restricted-imports": ["error", { patterns: [...patterns, NOT_TESTING] }] });
const TESTS = ["**/*.test.ts", "**/*.spec.ts", "e2e/**", "bench/**", "testing/**", "scripts/**/*.test.ts"];

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
  {
    files: ["lib/**/*.ts", "lib/**/*.tsx", "agents/**/*.ts"],
    ignores: TESTS,
    rules: boundaries(
      rule(
        [...up("components"), ...up("app"), ...up("e2e")],
        "lib/ and agents/ never import components/, app/ or e2e/: move the shared code into lib/.",
      ),
    ),
  },
  {
    files: ["lib/iperf/**/*.ts"],
    ignores: TESTS,
    rules: boundaries(
      rule([...up("components"), ...up("app"), ...up("e2e")], "lib/ never imports components/, app/ or e2e/."),
      rule(
        [
          "@/lib/db",
          "@/lib/ssh",
          "@/lib/ssh/*",
          "@/agents",
          "@/agents/*",
          "node:child_process",
          "node:fs",
          "server-only",
        ],
        "lib/iperf is pure: no database, SSH, agents or I/O.",
      ),
    ),
  },
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
    ),
  },
  {
    files: ["app/**/*.ts", "app/**/*.tsx"],
    ignores: TESTS,
    rules: boundaries(rule(up("e2e"), "app/ never imports e2e/.")),
  },
];

export default config;
