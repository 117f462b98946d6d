import fs from "node:fs";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_ADMIN, E2E_API_TOKEN, adminStorageState, distDirFor, serverLogFor } from "./e2e/api";
import { oidcServerEnv } from "./testing/oidc/settings";

// The app under test runs on its own port with its own SQLite file, built and
// started by the same script users run (`npm start`).
const port = Number(process.env.WIRESPEED_E2E_PORT ?? 3100);
const dataDir = path.resolve(process.env.WIRESPEED_E2E_DATA_DIR ?? "/tmp/wirespeed-e2e");

// The config is loaded again in every worker: only the main process starts from an empty database.
if (!process.env.TEST_WORKER_INDEX) {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync("test-results", { recursive: true });
  fs.writeFileSync(serverLogFor(port), "");
}

// Debian's Chromium: Playwright cannot download its own browser here.
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "e2e",
  testMatch: "**/*.spec.ts",
  // Per port, so that two runs at once (say, on two branches of work) do not delete each other's traces.
  outputDir: port === 3100 ? "test-results/playwright" : `test-results/playwright-${port}`,
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // A test's bound catches a hang, not slowness: axe over a page in both themes, a run watched live
  // and a user added (a bcrypt hash on the server) take seconds alone, and past 60 s on a loaded
  // 2-core machine (e2e/accounts.spec.ts's first test did, at a load of 26, failing the spec's others).
  timeout: 180_000,
  // A page hydrates and draws its charts in well under a second alone, in several on a loaded
  // 2-core machine: assertions wait up to 10 s for what the page shows (a passing test waits no longer).
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    ["json", { outputFile: port === 3100 ? "test-results/e2e.json" : `test-results/e2e-${port}.json` }],
  ],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: "/usr/bin/chromium", args: chromiumArgs },
  },
  projects: [
    // Signs in as the admin the server was seeded with and keeps the cookie for the other specs.
    {
      name: "sign-in",
      testMatch: "auth.setup.ts",
      use: { launchOptions: { executablePath: "/usr/bin/chromium", args: chromiumArgs } },
    },
    {
      name: "chromium",
      dependencies: ["sign-in"],
      testIgnore: "accessibility.spec.ts",
      use: {
        ...devices["Desktop Chrome"],
        storageState: adminStorageState(port),
        launchOptions: { executablePath: "/usr/bin/chromium", args: chromiumArgs },
      },
    },
    // After every other spec, so that axe sees the pages as a lab's database fills them (alerts,
    // experiments, schedules, compacted runs). WIRESPEED_A11Y_ALONE=1 runs it after the sign-in only.
    {
      name: "accessibility",
      dependencies: process.env.WIRESPEED_A11Y_ALONE ? ["sign-in"] : ["chromium"],
      testMatch: "accessibility.spec.ts",
      use: {
        ...devices["Desktop Chrome"],
        storageState: adminStorageState(port),
        launchOptions: { executablePath: "/usr/bin/chromium", args: chromiumArgs },
      },
    },
  ],
  webServer: {
    // The log is also kept in a file: e2e/accounts.spec.ts checks that no secret ever reaches it.
    command: `node scripts/start.mjs 2>&1 | tee -a ${serverLogFor(port)}`,
    url: `http://localhost:${port}/api/health`,
    // A fresh clone builds the app first (about a minute on 2 cores).
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    // The API token lets specs set up hosts and links through the REST API when the pages are not what they test.
    env: {
      PORT: String(port),
      WIRESPEED_DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      WIRESPEED_API_TOKEN: E2E_API_TOKEN,
      // The first admin, seeded at start as a deployment would (the set-up page is tested on a server of its own).
      WIRESPEED_ADMIN_USER: E2E_ADMIN.username,
      WIRESPEED_ADMIN_PASSWORD: E2E_ADMIN.password,
      // A trusted proxy's user header, believed from 127.0.0.2 only (e2e/proxy-sign-in.spec.ts connects from
      // there as the proxy, and from 127.0.0.1 as anyone else); groups map to roles as the identity provider's
      // do (WIRESPEED_OIDC_*_GROUPS, above).
      WIRESPEED_TRUSTED_PROXIES: "127.0.0.2",
      WIRESPEED_AUTH_HEADER: "Remote-User",
      WIRESPEED_AUTH_GROUPS_HEADER: "Remote-Groups",
      // "Sign in with …" through the provider e2e/oidc.spec.ts starts (testing/oidc); the other specs see its button.
      ...oidcServerEnv(port),
      // A run on another port builds its own copy, so two runs at once do not overwrite each other's build.
      ...(port === 3100 ? {} : { WIRESPEED_DIST_DIR: distDirFor(port) }),
    },
  },
});
