import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, distDirFor, hostIdsOfLink, registerLabLinks, serverLogFor, waitForRunStatus } from "./api";
import { readLabState } from "../testing/lab/lab";
import { screenshotEverywhere } from "./screenshots";
import { startTestProxy } from "./test-proxy";

// Accounts and roles in the browser: an admin adds an operator and a viewer; each signs
// in and sees only what their role may use; the API refuses a viewer's token for every
// change and stops a revoked token at once; sign-in is rate-limited; no page, API answer
// or log line holds a line of a host's private key; and on a server with no account the
// first visitor creates the admin.

test.describe.configure({ mode: "serial" });

const PASSWORD = "team member password";
const SIGNED_OUT = { storageState: { cookies: [], origins: [] } };
let linkId = 0;
let hostId = 0;
let runId = 0;
let hostIds: number[] = [];

// The other specs share this database and count hosts, links and runs: whatever this spec
// registered goes again (deleting its hosts deletes their NICs, link and runs).
test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  if (runId) await waitForRunStatus(request, runId, ["succeeded", "failed", "cancelled", "interrupted"]);
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
});

async function attemptSignIn(page: Page, username: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function signIn(page: Page, username: string) {
  await attemptSignIn(page, username, PASSWORD);
  await expect(page.getByTestId("account-link")).toContainText(username);
}

function portOf(baseURL: string | undefined): number {
  return Number(new URL(baseURL!).port);
}

test("an admin adds an operator, a viewer and a third user on the Users page", async ({ page, request }) => {
  const links = await registerLabLinks(request, "acct", [{ lab: "ab-1g", name: "acct-1g", speedMbps: 1000 }]);
  linkId = links["acct-1g"]!;
  hostIds = await hostIdsOfLink(request, linkId);
  hostId = hostIds[0]!;
  runId = (await apiCall<{ id: number }>(request, "POST", `/api/links/${linkId}/runs`, { duration: 1 })).id;

  await page.goto("/users");
  for (const [username, role] of [
    ["op1", "operator"],
    ["view1", "viewer"],
    ["locked1", "viewer"],
  ] as const) {
    const form = page.getByRole("form", { name: "Add a user" });
    await form.getByLabel("Username").fill(username);
    await form.getByLabel("Password").fill(PASSWORD);
    await form.getByLabel("Role").selectOption(role);
    await form.getByRole("button", { name: "Add user" }).click();
    await expect(page.getByTestId("users-message")).toHaveText(`Created ${username}.`);
    await expect(page.getByTestId(`user-${username}`)).toContainText(username);
  }
  await expect(page.getByLabel("Role of view1")).toHaveValue("viewer");
  await screenshotEverywhere(page, "accounts-users");

  await page.goto("/audit");
  const audit = page.getByTestId("audit-table");
  await expect(audit).toContainText("user.create");
  await expect(audit).toContainText("view1 as viewer");
  // The run was started through the API with WIRESPEED_API_TOKEN: the log names that, not "system".
  await expect(audit.getByRole("row").filter({ hasText: "run.start" })).toContainText("WIRESPEED_API_TOKEN");
  await screenshotEverywhere(page, "accounts-audit");
});

test.describe("a viewer", () => {
  test.use(SIGNED_OUT);

  test("is sent to sign in, then sees the lab without a control that changes it", async ({ page }) => {
    await page.goto(`/links/${linkId}`);
    await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Flinks%2F${linkId}$`));
    await screenshotEverywhere(page, "accounts-login");
    await page.getByLabel("Username").fill("view1");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(new RegExp(`/links/${linkId}$`));
    await expect(page.getByTestId("account-link")).toContainText("view1 (viewer)");
    await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "acct-1g" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Run again/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Start test/ })).toHaveCount(0);

    await page.goto("/hosts");
    await expect(page.getByRole("link", { name: "Add host" })).toHaveCount(0);
    await page.goto(`/hosts/${hostId}`);
    await expect(page.getByRole("heading", { name: "NICs" })).toBeVisible();
    for (const name of ["Discover NICs", "Check connection", "Save changes", /Delete/]) {
      await expect(page.getByRole("button", { name })).toHaveCount(0);
    }
    await page.goto(`/runs/${runId}`);
    await expect(page.getByRole("button", { name: /Cancel/ })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Run again/ })).toHaveCount(0);

    await page.goto("/hosts/new");
    await expect(page).toHaveURL(/\/forbidden\?need=credentials$/);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
    await page.goto("/users");
    await expect(page).toHaveURL(/\/forbidden\?need=users$/);
  });

  test("gets 403 for every change with an API token of its own, and a revoked token stops at once", async ({
    page,
    request,
  }) => {
    await signIn(page, "view1");
    await page.goto("/account");
    await page.getByLabel("Token name").fill("read-only dashboard script");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token-value").textContent())!;
    expect(token).toMatch(/^wst_[A-Za-z0-9_-]{40,}$/);
    await screenshotEverywhere(page, "accounts-token");
    const auth = { authorization: `Bearer ${token}` };

    expect((await request.get(`/api/links/${linkId}/runs`, { headers: auth })).status()).toBe(200);
    expect((await request.get(`/api/runs/${runId}/samples`, { headers: auth })).status()).toBe(200);
    const changes: Array<[string, string, unknown?]> = [
      ["POST", `/api/links/${linkId}/runs`, { duration: 1 }],
      ["POST", `/api/runs/${runId}/rerun`],
      ["POST", `/api/runs/${runId}/cancel`],
      ["PATCH", `/api/links/${linkId}`, { notes: "x" }],
      ["DELETE", `/api/links/${linkId}`],
      ["PATCH", `/api/hosts/${hostId}`, { notes: "x" }],
      ["POST", `/api/hosts/${hostId}/discover`],
      ["DELETE", `/api/hosts/${hostId}`],
      ["POST", "/api/hosts", { name: "x", address: "198.18.0.99" }],
    ];
    for (const [method, url, data] of changes) {
      const response = await request.fetch(url, { method, headers: auth, data });
      expect(response.status(), `${method} ${url}`).toBe(403);
      expect((await response.json()).error.message).toMatch(/^Your role \(viewer\) does not allow/);
    }

    await page.getByRole("button", { name: "Revoke token read-only dashboard script" }).click();
    await expect(page.getByText("revoked")).toBeVisible();
    const refused = await request.get(`/api/links/${linkId}/runs`, { headers: auth });
    expect(refused.status()).toBe(401);
  });
});

test.describe("an operator", () => {
  test.use(SIGNED_OUT);

  test("runs tests and edits hosts' settings, but never credentials or users", async ({ page }) => {
    await signIn(page, "op1");
    await expect(page.getByTestId("account-link")).toContainText("op1 (operator)");
    await page.goto(`/hosts/${hostId}`);
    await expect(page.getByRole("button", { name: "Discover NICs" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Save changes" })).toBeVisible();
    await expect(page.getByText("Credentials are set by an admin.")).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Set new credentials" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Delete/ })).toHaveCount(0);
    await screenshotEverywhere(page, "accounts-operator-host");
    await page.goto(`/links/${linkId}`);
    await expect(page.getByRole("button", { name: /Run again/ }).first()).toBeVisible();
    await page.goto("/users");
    await expect(page).toHaveURL(/\/forbidden\?need=users$/);
    await page.goto("/hosts/new");
    await expect(page).toHaveURL(/\/forbidden\?need=credentials$/);
  });
});

test.describe("sign-in", () => {
  test.use(SIGNED_OUT);

  test("slows a user's guesses from one address, while the right password from another address gets in", async ({
    page,
  }) => {
    // Six wrong passwords are heard; from then on this address waits, doubling, before it is heard again
    // for this user. A forged X-Forwarded-For changes nothing: the address is the connection's.
    await page.setExtraHTTPHeaders({ "x-forwarded-for": "203.0.113.77" });
    await page.goto("/login");
    for (let attempt = 1; attempt <= 6; attempt++) {
      await page.getByLabel("Username").fill("locked1");
      await page.getByLabel("Password", { exact: true }).fill(`wrong password ${attempt}`);
      // Each answer, not the previous one's message still on the page.
      const answered = page.waitForResponse((response) => response.request().method() === "POST");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await answered;
      await expect(page.getByTestId("auth-error")).toHaveText("Wrong username or password.");
    }
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByTestId("auth-error")).toHaveText(
      /^Too many failed sign-ins: try again in [1-5] seconds?\.$/,
    );
    await expect(page).toHaveURL(/\/login$/);

    // The same user through the trusted proxy, for a client at another address: not held up.
    const proxy = await startTestProxy(test.info().project.use.baseURL!, () => ({
      "x-forwarded-for": "198.51.100.77",
    }));
    try {
      await page.setExtraHTTPHeaders({});
      await page.goto(`${proxy.url}/login`);
      await page.getByLabel("Username").fill("locked1");
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.getByTestId("account-link")).toContainText("locked1");
    } finally {
      await proxy.close();
    }
  });

  test("signs out: the session ends on the server, not only in the browser", async ({ page, request }) => {
    await signIn(page, "view1");
    await expect(page.getByTestId("account-link")).toBeVisible();
    const cookie = (await page.context().cookies()).find((entry) => entry.name === "wirespeed_session")!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    const replayed = await request.get("/api/links", { headers: { cookie: `wirespeed_session=${cookie.value}` } });
    expect(replayed.status()).toBe(401);
  });
});

test("no page, API answer or log line holds a line of a host's private key", async ({ page, request, baseURL }) => {
  const state = readLabState()!;
  const keyLines = fs
    .readFileSync(state.clientKeyPath, "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length >= 16 && !line.startsWith("-----"));
  expect(keyLines.length).toBeGreaterThan(2);
  const texts: Array<[string, string]> = [];
  for (const url of [
    "/",
    "/hosts",
    `/hosts/${hostId}`,
    "/links",
    `/links/${linkId}`,
    "/runs",
    `/runs/${runId}`,
    "/audit",
    "/users",
    "/account",
  ]) {
    await page.goto(url);
    await expect(page.locator("main")).toBeVisible();
    texts.push([url, await page.content()]);
  }
  for (const url of [
    "/api/hosts",
    `/api/hosts/${hostId}`,
    "/api/nics",
    "/api/links",
    `/api/links/${linkId}/runs`,
    `/api/runs/${runId}`,
    `/runs/${runId}/export?format=json`,
  ]) {
    texts.push([url, JSON.stringify(await apiCall(request, "GET", url))]);
  }
  texts.push(["server log", fs.readFileSync(serverLogFor(portOf(baseURL)), "utf8")]);
  for (const [where, text] of texts) {
    for (const line of keyLines) expect(text.includes(line), `${where} holds a line of the key`).toBe(false);
  }
  // The check itself can fail: the key's lines are there to be found in the key file.
  expect(keyLines.every((line) => fs.readFileSync(state.clientKeyPath, "utf8").includes(line))).toBe(true);
});

test.describe("a server with no account yet", () => {
  test.use(SIGNED_OUT);
  let server: ChildProcess | null = null;
  let dataDir = "";
  let origin = "";

  test.beforeAll(async ({ baseURL }) => {
    const port = portOf(baseURL) + 50;
    origin = `http://localhost:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-setup-"));
    const env = {
      ...process.env,
      WIRESPEED_DATA_DIR: dataDir,
      WIRESPEED_DIST_DIR: distDirFor(portOf(baseURL)),
      WIRESPEED_PUBLIC_OVERVIEW: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      WIRESPEED_API_TOKEN: "",
      WIRESPEED_ADMIN_PASSWORD: "",
    };
    execFileSync("node_modules/.bin/prisma", ["migrate", "deploy"], { env, stdio: "pipe" });
    // The build the main server runs: started again on another port with an empty database.
    server = spawn("node_modules/.bin/next", ["start", "-p", String(port)], { env, stdio: "ignore" });
    await expect
      .poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
      .toBe(200);
  });

  test.afterAll(() => {
    server?.kill("SIGTERM");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("shows the public overview when it is turned on, and sends the first visitor elsewhere to set up the admin", async ({
    page,
  }) => {
    await page.goto(`${origin}/`);
    await expect(page).toHaveURL(`${origin}/`);
    await expect(page.getByTestId("account-link")).toHaveCount(0);
    await page.goto(`${origin}/hosts`);
    await expect(page).toHaveURL(`${origin}/setup`);
    await screenshotEverywhere(page, "accounts-setup");
    await page.getByLabel("Username").fill("first");
    await page.getByLabel("Password", { exact: true }).fill("first admin's password");
    await page.getByLabel("Password again").fill("first admin's password");
    await page.getByRole("button", { name: "Create admin account" }).click();
    await expect(page.getByTestId("account-link")).toContainText("first (admin)");
    // Only once: the set-up page now sends visitors to sign in.
    await page.context().clearCookies();
    await page.goto(`${origin}/setup`);
    await expect(page).toHaveURL(`${origin}/login`);
  });
});
