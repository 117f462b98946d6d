import fs from "node:fs";
import { expect, test } from "./fixtures";
import { serverLogFor } from "./api";
import { startTestProxy, type TestProxy } from "./test-proxy";
import { screenshotEverywhere } from "./screenshots";

// Sign-in by a trusted proxy's header, against the server as users run it (scripts/server.mjs, which
// tells the app each connection's address): the e2e server believes Remote-User and Remote-Groups from
// 127.0.0.2 only (playwright.config.ts). The proxy of e2e/test-proxy.ts connects from there, as nginx
// in front of Authelia would; a browser or script connecting straight to the app comes from 127.0.0.1.

test.describe.configure({ mode: "serial" });
test.use({ storageState: { cookies: [], origins: [] } });

let proxy: TestProxy;
let named: Record<string, string> = {};

test.beforeAll(async ({}, testInfo) => {
  proxy = await startTestProxy(testInfo.project.use.baseURL!, () => named);
});
test.afterAll(async () => {
  await proxy?.close();
});

test("a trusted proxy signs in the user it names, with the role its groups give, at every request", async ({
  page,
}) => {
  named = { "remote-user": "proxy-olga", "remote-groups": "media, wirespeed-operators" };
  await page.goto(`${proxy.url}/links`);
  await expect(page.getByTestId("account-link")).toContainText("proxy-olga");
  // Nothing to sign out of here: the proxy signs the user in at every request.
  await expect(page.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  // An operator: the users page is not theirs.
  await page.goto(`${proxy.url}/users`);
  await expect(page).toHaveURL(/\/forbidden\?need=users$/);

  // The groups change at the identity provider: the next request has the new role.
  named = { "remote-user": "proxy-olga", "remote-groups": "wirespeed-admins" };
  await page.goto(`${proxy.url}/users`);
  const row = page.getByRole("row", { name: /proxy-olga/ });
  await expect(row).toContainText("admin");
  await screenshotEverywhere(page, "proxy-sign-in-users");
});

test("ignores the header from any address but the trusted proxy's, and says so once in the log", async ({
  page,
  request,
}) => {
  const forged = { "remote-user": "proxy-mallory", "remote-groups": "wirespeed-admins" };
  const answer = await request.get("/api/hosts", { headers: forged });
  expect(answer.status()).toBe(401);
  expect((await request.get("/api/hosts", { headers: forged })).status()).toBe(401);
  // A page asked for with the forged header is sent to sign in, as anyone without an account is.
  await page.setExtraHTTPHeaders(forged);
  await page.goto("/links");
  await expect(page).toHaveURL(/\/login\?next=%2Flinks$/);

  const port = new URL(test.info().project.use.baseURL!).port;
  const log = fs.readFileSync(serverLogFor(Number(port)), "utf8");
  // Said once per address (the request context and Chromium may reach localhost as 127.0.0.1 or ::1).
  const lines = log.split("\n").filter((line) => /ignored the Remote-User header from (127\.0\.0\.1|::1):/.test(line));
  expect(lines.length).toBeGreaterThanOrEqual(1);
  expect(new Set(lines).size).toBe(lines.length);
  expect(log).not.toContain("proxy-mallory");
});

test("refuses a user whose groups give no role, saying why on the sign-in page", async ({ page }) => {
  named = { "remote-user": "proxy-guest", "remote-groups": "guests" };
  await page.goto(`${proxy.url}/links`);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId("proxy-refused")).toContainText(
    "The trusted proxy grants proxy-guest no role in Wirespeed",
  );
  await screenshotEverywhere(page, "proxy-sign-in-refused");
});
