import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { apiCall, hostIdsOfLink, registerLabLinks } from "./api";
import { screenshotEverywhere } from "./screenshots";

// Importing iperf3 outputs a user already has, in the browser: two files chosen on a link page
// become two imported runs in its history and runs table; the same files again are reported as
// already imported. No traffic is sent: the lab link only gives the runs a home. Names start with
// im- so they clash with no other spec's.

test.describe.configure({ mode: "serial" });

const LINK = { lab: "gd-indep-1", name: "im-gd", speedMbps: 1000 } as const;
// Playwright runs from the repository's root.
const fixture = (name: string) => readFileSync(path.join(process.cwd(), "lib/imports/fixtures", name));
const FILES = [
  // the seed's Windows 3.1 client, pasted from a forum post: 917 Mbit/s
  { name: "forum-1g.txt", mimeType: "text/plain", buffer: fixture("seed/000-windows-n1000M.pasted.txt") },
  // a -J client output of 3.12, with its own time
  { name: "card-swap.json", mimeType: "application/json", buffer: fixture("real/json-tcp.client.txt") },
];

let linkId = 0;
let hostIds: number[] = [];

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  linkId = (await registerLabLinks(request, "im", [LINK]))[LINK.name]!;
  hostIds = await hostIdsOfLink(request, linkId);
});

test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
});

test("two files imported on a link page show in its history and runs, marked imported", async ({ page }) => {
  await page.goto(`/links/${linkId}`);
  await expect(page.getByTestId("history-chart")).toHaveCount(0);
  await page.getByText("Import results", { exact: true }).click();
  const form = page.getByRole("form", { name: "Import results" });
  await form.getByLabel("Output files").setInputFiles(FILES);
  await expect(form.getByText("2 files chosen")).toBeVisible();
  await form.getByLabel("The iperf3 client ran on").selectOption("b");
  await form.getByRole("button", { name: "Import", exact: true }).click();

  const report = page.getByTestId("import-report");
  await expect(report).toContainText("2 imported");
  await expect(report).toContainText("forum-1g.txt: run #");
  await expect(report).toContainText("card-swap.json: run #");

  // The history and the runs table pick the new runs up without a reload.
  await expect(page.getByTestId("history-chart")).toHaveAttribute("data-point-count", "2");
  // The runs come as cards on a phone and as table rows wider up: count the ones shown.
  const table = page.getByTestId("runs-panel");
  await expect(table.locator('[data-testid="run-imported"]:visible')).toHaveCount(2);
  await expect(table.locator("tr:visible, li:visible").filter({ hasText: "917 Mbit/s" })).toHaveCount(1);
  await screenshotEverywhere(page, "imports-link-page");

  // The same files again: nothing new, each named with the run it already is.
  await form.getByLabel("Output files").setInputFiles(FILES);
  await form.getByRole("button", { name: "Import", exact: true }).click();
  await expect(report).toContainText("Nothing imported: 2 already imported");
  await expect(page.getByTestId("history-chart")).toHaveAttribute("data-point-count", "2");

  // The run page says where the run came from.
  await report
    .getByRole("link", { name: /^run #\d+$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/runs\/\d+$/, { timeout: 20_000 });
  await expect(page.getByTestId("run-import-name")).toContainText("imported from forum-1g.txt");
  await expect(page.getByTestId("run-imported")).toBeVisible();
  await screenshotEverywhere(page, "imports-run-page");
});
