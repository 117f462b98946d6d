import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { OIDC_TEST_CLIENT, OIDC_TEST_NAME, oidcTestPort } from "../testing/oidc/settings";
import { expect, test } from "./fixtures";
import { screenshotEverywhere } from "./screenshots";

// "Sign in with …" against a real OpenID Connect provider (oidc-provider, testing/oidc/provider.mjs),
// which the e2e server is told of in playwright.config.ts: the role comes from the user's groups, a user
// in no group is refused with a page that says why, a replayed callback is refused, and signing out ends
// the session.

test.describe.configure({ mode: "serial" });
test.use({ storageState: { cookies: [], origins: [] } });

let provider: ChildProcess | undefined;

test.beforeAll(async ({}, testInfo) => {
  const serverPort = Number(new URL(testInfo.project.use.baseURL!).port);
  const child = spawn(process.execPath, [path.resolve("testing/oidc/provider.mjs")], {
    env: {
      ...process.env,
      OIDC_PORT: String(oidcTestPort(serverPort)),
      OIDC_REDIRECT_URI: `http://localhost:${serverPort}/api/auth/oidc/callback`,
      OIDC_CLIENT_ID: OIDC_TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.secret,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  provider = child;
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening on")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`the OIDC provider exited (${code}): ${stderr}`)));
  });
});

test.afterAll(() => {
  provider?.kill("SIGTERM");
});

// The provider's development pages load a web font from the Internet, which the tests do not reach.
async function offline(context: BrowserContext) {
  await context.route(/^https:\/\/fonts\.googleapis\.com\//, (route) =>
    route.fulfill({ status: 200, contentType: "text/css", body: "" }),
  );
}

/**
 * From the login page through the provider's login and consent pages, as `login`; resolves with the
 * callback URL the provider sent the browser to, and the cookies that went with it.
 */
async function signInAtProvider(
  page: Page,
  login: string,
  start = "/login",
): Promise<{ callback: string; cookie: string }> {
  await offline(page.context());
  const callback = page.waitForRequest(/\/api\/auth\/oidc\/callback\?/);
  await page.goto(start);
  await page.getByRole("link", { name: `Sign in with ${OIDC_TEST_NAME}` }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/interaction\//);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  const request = await callback;
  return { callback: request.url(), cookie: (await request.allHeaders()).cookie ?? "" };
}

test("the login page offers the identity provider beside the password", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("link", { name: `Sign in with ${OIDC_TEST_NAME}` })).toBeVisible();
  await expect(page.getByLabel("Username")).toBeVisible();
  await screenshotEverywhere(page, "oidc-login");
});

test("a user of the admin group signs in as an admin, marked as signed in by the identity provider", async ({
  page,
}) => {
  await signInAtProvider(page, "oidc-admin");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("account-link")).toContainText("oidc-admin (admin)");
  await page.goto("/users");
  await expect(page.getByTestId("user-source-oidc-admin")).toHaveText(
    "Signs in with: identity provider (role from its groups)",
  );
  // No password for such a user: the page offers none to set.
  await expect(page.getByTestId("user-oidc-admin").getByRole("button", { name: "Reset password" })).toHaveCount(0);
});

test("a user of the viewer group signs in as a viewer; signing out ends the session; the callback replayed is refused", async ({
  page,
  browser,
}) => {
  const { callback, cookie } = await signInAtProvider(page, "oidc-viewer");
  await expect(page.getByTestId("account-link")).toContainText("oidc-viewer (viewer)");
  // The sealed cookie went with the callback (and was deleted by its answer).
  expect(cookie).toContain("wirespeed_oidc_pending=");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId("account-link")).toHaveCount(0);

  // The same answer again, in this browser (its pending cookie is gone): refused, nobody signed in.
  await page.goto(callback);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId("oidc-notice")).toContainText(
    "This sign-in has expired or was already used (it lasts 10 minutes, once): sign in again.",
  );
  await expect(page.getByTestId("account-link")).toHaveCount(0);

  // And from another browser holding a copy of the pending cookie: the server remembers the state it took.
  const pending = /wirespeed_oidc_pending=([^;]+)/.exec(cookie)![1]!;
  const other = await browser.newContext();
  await other.addCookies([{ name: "wirespeed_oidc_pending", value: pending, url: new URL(callback).origin }]);
  const replay = await other.newPage();
  await replay.goto(callback);
  await expect(replay).toHaveURL(/\/login$/);
  await expect(replay.getByTestId("oidc-notice")).toContainText("expired or was already used");
  await expect(replay.getByTestId("account-link")).toHaveCount(0);
  await other.close();
});

test("a user in no group is refused with a page naming the claim and the groups that give a role", async ({ page }) => {
  await signInAtProvider(page, "oidc-nogroup");
  await expect(page).toHaveURL(/\/login\/refused$/);
  const refusal = page.getByTestId("oidc-refusal");
  await expect(refusal).toContainText(`You are signed in at ${OIDC_TEST_NAME} as oidc-nogroup`);
  await expect(refusal).toContainText('the "groups" claim of oidc-nogroup names none of the groups');
  await expect(refusal).toContainText(
    "admin: wirespeed-admins; operator: wirespeed-operators; viewer: wirespeed-viewers",
  );
  // What the user's token holds is not shown.
  await expect(refusal).not.toContainText("contractors");
  await expect(page.getByTestId("account-link")).toHaveCount(0);
  await screenshotEverywhere(page, "oidc-refused");
});

test("a user without preferred_username gets a user name from the email, and lands on the page asked for", async ({
  page,
}) => {
  // A page that needs an account sends the visitor to sign in, and back to it afterwards.
  await signInAtProvider(page, "oidc-mail", "/links?sort=name");
  await expect(page).toHaveURL(/\/links\?sort=name$/);
  await expect(page.getByTestId("account-link")).toContainText("Mail.User-lab.example (operator)");
});
