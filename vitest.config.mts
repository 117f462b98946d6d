import { defineConfig } from "vitest/config";
import path from "node:path";
import { fileURLToPath } from "node:url";

const __dirname = path.dirname(fileURLToPath(import.meta.url));

// Two projects: `unit` is pure and fast; `lab` runs against real sshd and iperf3
// in the network namespaces that testing/lab builds (root only).
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(__dirname),
      // "server-only" throws outside a React server build; tests call server modules directly.
      "server-only": path.resolve(__dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["{lib,agents,scripts,components,app,bench,testing}/**/*.test.ts"],
          exclude: ["**/*.lab.test.ts", "node_modules/**"],
          environment: "node",
          // Some tests spawn shells, derive scrypt keys or migrate a database: seconds on a busy 2-core machine.
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: "lab",
          include: ["**/*.lab.test.ts"],
          exclude: ["node_modules/**"],
          environment: "node",
          globalSetup: ["testing/lab/vitest-global-setup.ts"],
          // Lab tests share hosts and links: one file at a time.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
