import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, hostIdsOfLink, registerLabLinks, waitForRunStatus } from "./api";
import { screenshotEverywhere } from "./screenshots";
import { labHost, labLink, requireLabState } from "../testing/lab-targets";
import { SHARE_NOT_FOUND_HTML, SHARE_RENDER_HEADER } from "../lib/shares/page-route";

// Share links in the browser: an operator shares a run from its page with the lab's names and
// addresses hidden; a browser with no cookie at all opens the link and sees the result and
// nothing else (no navigation, no name, no address, noindex); the operator revokes it on /shares
// and the link is a 404. Hosts are registered through the REST API under names starting with sh-.

test.describe.configure({ mode: "serial" });

const SIGNED_OUT = { storageState: { cookies: [], origins: [] } };
const OPERATOR = "share-operator";
const PASSWORD = "share spec password";
const LINK = { lab: "ab-1g", name: "sh-ab-1g", speedMbps: 1000 } as const;

let linkId = 0;
let runId = 0;
let hostIds: number[] = [];
let shareUrl = "";

/** What must not appear on a share that hides addresses: the hosts' names in the app and every lab address. */
function labSecrets(): string[] {
  const state = requireLabState();
  const link = labLink(state, LINK.lab);
  return [
    "sh-alpha",
    "sh-beta",
    LINK.name,
    link.a.address,
    link.b.address,
    labHost(state, "alpha").sshHost,
    labHost(state, "beta").sshHost,
  ];
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  linkId = (await registerLabLinks(request, "sh", [LINK]))[LINK.name]!;
  hostIds = await hostIdsOfLink(request, linkId);
  const run = await apiCall<{ id: number }>(request, "POST", `/api/links/${linkId}/runs`, { duration: 2 });
  runId = run.id;
  await waitForRunStatus(request, runId, ["succeeded"]);
});

test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
});

async function signIn(page: Page, username: string) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("account-link")).toContainText(username);
}

test("an admin adds an operator", async ({ page }) => {
  await page.goto("/users");
  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByLabel("Username").fill(OPERATOR);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByLabel("Role").selectOption("operator");
  await form.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByTestId("users-message")).toHaveText(`Created ${OPERATOR}.`);
});

test.describe("an operator", () => {
  test.use(SIGNED_OUT);

  test("shares a run with addresses hidden; a browser without cookies sees the result and nothing else", async ({
    page,
    browser,
    baseURL,
  }) => {
    await signIn(page, OPERATOR);
    await page.goto(`/runs/${runId}`);
    await page.getByTestId("share-open").click();
    const dialog = page.getByRole("dialog", { name: "Share this run" });
    await dialog.getByLabel("Expires after").selectOption("7");
    await expect(dialog.getByLabel("Hide host names and addresses")).toBeChecked();
    await dialog.getByRole("button", { name: "Create link" }).click();
    const url = dialog.getByTestId("share-url");
    await expect(url).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/);
    shareUrl = await url.inputValue();
    await expect(dialog).toContainText("it is shown this once");
    await screenshotEverywhere(page, "shares-dialog");
    await dialog.getByRole("button", { name: "Done" }).click();

    const visitor = await browser.newContext({ baseURL, ...SIGNED_OUT });
    try {
      expect(await visitor.cookies()).toEqual([]);
      const shared = await visitor.newPage();
      const response = await shared.goto(shareUrl);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["x-robots-tag"]).toBe("noindex");
      await expect(shared.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
      await expect(shared.getByRole("heading", { level: 1, name: `Run #${runId}` })).toBeVisible();
      await expect(shared.getByTestId("summary-received")).toContainText(/Mbit\/s|Gbit\/s/);
      await expect(shared.getByTestId("shared-direction")).toHaveText("host A → host B");
      // Nothing to go to and nothing to do: no navigation, no link, no button but the rate unit's.
      await expect(shared.getByRole("navigation")).toHaveCount(0);
      await expect(shared.locator("a[href]")).toHaveCount(0);
      await expect(shared.getByRole("button", { name: /Run again|Cancel|Share|Sign out/ })).toHaveCount(0);
      // Neither the page nor anything it loaded names a host or an address of the lab.
      const html = await (await visitor.request.get(shareUrl)).text();
      const shown = await shared.content();
      for (const secret of labSecrets()) {
        expect(html, `the share's HTML holds ${secret}`).not.toContain(secret);
        expect(shown, `the share's page holds ${secret}`).not.toContain(secret);
      }
      await screenshotEverywhere(shared, "shares-shared-run");
    } finally {
      await visitor.close();
    }
  });

  test("revokes the link on /shares, and the link is then a 404", async ({ page, browser, baseURL }) => {
    await signIn(page, OPERATOR);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Shares" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Shares" })).toBeVisible();
    // The URL was shown once, at creation: the list names what is shared, never the link itself.
    const row = page.locator("tr:visible, li:visible").filter({ hasText: `Run #${runId} on ${LINK.name}` });
    await expect(row).toHaveCount(1);
    await expect(page.locator("body")).not.toContainText(shareUrl.split("/s/")[1]!);
    await expect(row).toContainText("Hidden");
    await expect(row).toContainText(OPERATOR);
    await screenshotEverywhere(page, "shares-list");
    await row.getByRole("button", { name: /^Revoke share/ }).click();
    await expect(
      page.locator("tr:visible, li:visible").filter({ hasText: `Run #${runId} on ${LINK.name}` }),
    ).toHaveCount(0);

    const visitor = await browser.newContext({ baseURL, ...SIGNED_OUT });
    try {
      const gone = await visitor.request.get(shareUrl);
      expect(gone.status()).toBe(404);
      expect(await gone.text()).not.toContain(`Run #${runId}`);
      // A revoked token and a made-up one get the same 404 from memory, whatever header the visitor sends.
      expect(await gone.text()).toBe(SHARE_NOT_FOUND_HTML);
      const madeUp = await visitor.request.get(`/s/${"A".repeat(43)}`, { headers: { [SHARE_RENDER_HEADER]: "1" } });
      expect(madeUp.status()).toBe(404);
      expect(await madeUp.text()).toBe(SHARE_NOT_FOUND_HTML);
    } finally {
      await visitor.close();
    }
  });
});
