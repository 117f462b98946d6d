import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "./fixtures";
import { E2E_API_TOKEN, apiCall, registerLabLinks, waitForRunStatus, type RunStatusJson } from "./api";
import { storedRunOptions } from "../testing/run-options";
import { signatureOf } from "../lib/runs/signature";
import { screenshotEverywhere } from "./screenshots";

// The grid on the real lab: two links between grid-alpha and grid-beta (one measured through the REST
// API), and an iperf3 server linked to alpha whose runs are written straight into the app's database (a
// failure one way, a result weeks old the other). Then the table, its colours in words, the filter by tag
// and by host, the baseline switch, the stale age, a click into a link, and tags on the host page.

test.describe.configure({ mode: "serial" });

const FINAL = ["succeeded", "failed", "cancelled", "interrupted"];
const APP_DATABASE_FILE = path.join(
  path.resolve(process.env.WIRESPEED_E2E_DATA_DIR ?? "/tmp/wirespeed-e2e"),
  "wirespeed.db",
);

const linkIds: Record<string, number> = {};
const hostIds: Record<string, number> = {};

/** A run of `linkId` written into the app's database, created `daysAgo` days ago. */
function insertRun(
  linkId: number,
  { status, clientSide, daysAgo }: { status: string; clientSide: "a" | "b"; daysAgo: number },
) {
  const database = new Database(APP_DATABASE_FILE);
  const at = new Date(Date.now() - daysAgo * 24 * 3600_000).toISOString().replace("Z", "+00:00");
  const options = storedRunOptions({ duration: 5 });
  database
    .prepare(
      `INSERT INTO "Run" ("linkId", "status", "clientSide", "options", "signature", "createdAt", "startedAt", "endedAt", "receivedBitsPerSecond") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      linkId,
      status,
      clientSide,
      JSON.stringify(options),
      signatureOf(options, clientSide),
      at,
      at,
      at,
      status === "succeeded" ? 3.1e8 : null,
    );
  database.close();
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  Object.assign(
    linkIds,
    await registerLabLinks(request, "grid", [
      { lab: "ab-1g", name: "grid-ab-1g", speedMbps: 1000 },
      { lab: "ab-2g5", name: "grid-ab-2g5", speedMbps: 2500 },
    ]),
  );
  const { hosts } = await apiCall<{ hosts: Array<{ id: number; name: string }> }>(request, "GET", "/api/hosts");
  for (const host of hosts.filter((entry) => entry.name.startsWith("grid-"))) hostIds[host.name] = host.id;
  const run = await apiCall<RunStatusJson>(request, "POST", `/api/links/${linkIds["grid-ab-1g"]}/runs`, {
    duration: 2,
  });
  expect((await waitForRunStatus(request, run.id, FINAL)).status).toBe("succeeded");
  // An iperf3 server linked to alpha: alpha's NIC and its own entered by hand, its runs written below.
  const vps = await apiCall<{ id: number }>(request, "POST", "/api/hosts", {
    name: "grid-vps",
    access: "iperf3-server",
    address: "198.18.250.1",
  });
  hostIds["grid-vps"] = vps.id;
  const vpsNic = await apiCall<{ id: number }>(request, "POST", "/api/nics", {
    hostId: vps.id,
    name: "eth0",
    address: "198.18.250.1/24",
    speedMbps: 1000,
  });
  const alphaNic = await apiCall<{ id: number }>(request, "POST", "/api/nics", {
    hostId: hostIds["grid-alpha"],
    name: "wan0",
    address: "198.18.250.2/24",
    speedMbps: 1000,
  });
  const link = await apiCall<{ id: number }>(request, "POST", "/api/links", {
    name: "grid-wan",
    aNicId: alphaNic.id,
    bNicId: vpsNic.id,
    speedMbps: 1000,
  });
  linkIds["grid-wan"] = link.id;
  // alpha → vps: a success, then a failure; vps → alpha (b-to-a): a result three weeks old.
  insertRun(link.id, { status: "succeeded", clientSide: "a", daysAgo: 2 });
  insertRun(link.id, { status: "failed", clientSide: "a", daysAgo: 1 });
  insertRun(link.id, { status: "succeeded", clientSide: "b", daysAgo: 21 });
  for (const name of ["grid-alpha", "grid-beta"])
    await apiCall(request, "PATCH", `/api/hosts/${hostIds[name]}`, { tags: ["grid-rack"] });
});

test("the grid is a table of every host pair: the measured pair, the fastest of two links, a failure and a stale result", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByTestId("overview-grid-link").click();
  await expect(page).toHaveURL(/\/grid$/);
  await expect(page.getByRole("heading", { level: 1, name: "Grid" })).toBeVisible();
  const table = page.getByRole("table");
  for (const name of ["grid-alpha", "grid-beta", "grid-vps"]) {
    await expect(table.getByRole("columnheader", { name, exact: true })).toBeVisible();
    await expect(table.getByRole("rowheader", { name, exact: true })).toBeVisible();
  }
  const cell = (from: string, to: string) => page.getByTestId(`grid-cell-${hostIds[from]}-${hostIds[to]}`);
  // alpha → beta: measured just now on the 1G link; the 2.5G link never ran, so the 1G one is the fastest.
  const measured = cell("grid-alpha", "grid-beta");
  await expect(measured).toContainText(/\d+(\.\d+)? (Mbit|Gbit)\/s/);
  await expect(measured).toContainText("fastest of 2 links");
  await expect(measured).toHaveAttribute("href", `/links/${linkIds["grid-ab-1g"]}`);
  await expect(measured).toHaveAttribute("data-band", /good|fair/);
  await expect(measured).toHaveAccessibleName(/of the line rate, measured \d{4}-\d\d-\d\d, grid-alpha to grid-beta/);
  // beta → alpha: no run that way on either link.
  await expect(cell("grid-beta", "grid-alpha")).toContainText("never tested");
  await expect(cell("grid-beta", "grid-alpha")).toHaveAttribute("data-band", "never");
  // alpha → vps failed after a success: the word, and the last good figure.
  await expect(cell("grid-alpha", "grid-vps")).toContainText("failed");
  await expect(cell("grid-alpha", "grid-vps")).toContainText("last ok 310 Mbit/s");
  // vps → alpha: 31% of 1G, three weeks old: stale at the default 7 days, not at 30.
  const old = cell("grid-vps", "grid-alpha");
  await expect(old).toHaveAttribute("data-band", "bad");
  await expect(old).toContainText("stale");
  await expect(page.getByTestId("grid-legend")).toContainText("stale: older than 7 days");
  await expect(table.getByText("no link")).toHaveCount(2);
  await screenshotEverywhere(page, "grid");

  await page.getByLabel("Stale after").selectOption("30");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/staleDays=30/);
  await expect(cell("grid-vps", "grid-alpha")).not.toContainText("stale");
  await expect(page.getByTestId("grid-legend")).toContainText("stale: older than 30 days");

  // By keyboard: the cell is a link; Enter opens it.
  await measured.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/links/${linkIds["grid-ab-1g"]}$`));
});

test("the filter picks the grid's hosts by tag or one by one, and the switch colours by the baseline", async ({
  page,
  request,
}) => {
  await page.goto("/grid");
  await page.getByLabel("Or hosts tagged").selectOption("grid-rack");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/tag=grid-rack/);
  await expect(page.getByRole("rowheader")).toHaveText(["grid-alpha", "grid-beta"]);
  await expect(page.getByRole("columnheader")).toHaveCount(3);

  await page.goto("/grid");
  await page.getByText("Hosts: all linked").click();
  await page.getByRole("checkbox", { name: "grid-alpha" }).check();
  await page.getByRole("checkbox", { name: "grid-vps" }).check();
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`hostIds=${hostIds["grid-alpha"]}&hostIds=${hostIds["grid-vps"]}`));
  await expect(page.getByRole("rowheader")).toHaveText(["grid-alpha", "grid-vps"]);

  await page.getByRole("link", { name: "Baseline", exact: true }).click();
  await expect(page).toHaveURL(/by=baseline/);
  await expect(page.getByRole("link", { name: "Baseline", exact: true })).toHaveAttribute("aria-current", "true");
  await expect(page.getByTestId("grid-legend")).toContainText("Share of the baseline");
  // Two runs are no baseline yet (it takes three).
  await expect(page.getByTestId(`grid-cell-${hostIds["grid-vps"]}-${hostIds["grid-alpha"]}`)).toContainText(
    "no baseline",
  );
  await expect(page.getByRole("rowheader")).toHaveText(["grid-alpha", "grid-vps"]);
  await screenshotEverywhere(page, "grid-baseline");

  // A tag no host has: the page says so; the API answers 400 naming the field.
  await page.goto("/grid?tag=no-such-tag");
  await expect(page.getByTestId("grid-filter-problems")).toContainText("tag is on no host: no-such-tag");
  const refused = await request.get("/api/grid?tag=no-such-tag", {
    headers: { authorization: `Bearer ${E2E_API_TOKEN}` },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error.fields).toEqual([
    { field: "tag", message: expect.stringContaining("no-such-tag") },
  ]);
});

test("a host's tags are edited on its page, and shown there and in the hosts list", async ({ page }) => {
  await page.goto(`/hosts/${hostIds["grid-vps"]}`);
  await expect(page.getByTestId("host-tags")).toHaveText("none");
  const tags = page.getByLabel("Tags");
  await tags.fill("wan, Bad Tag");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText(/"Bad" must be/)).toBeVisible();
  await tags.fill("wan, isp");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("host-tags").getByRole("link")).toHaveText([/^wan:/, /^isp:/]);
  await page.goto("/hosts");
  await expect(
    page.getByTestId(`host-row-${hostIds["grid-vps"]}`).getByTestId("host-tags").getByRole("link"),
  ).toHaveText([/^wan:/, /^isp:/]);
  await page.getByTestId(`host-row-${hostIds["grid-vps"]}`).getByRole("link", { name: /^wan/ }).click();
  await expect(page).toHaveURL(/\/grid\?tag=wan$/);
  await expect(page.getByTestId("grid-no-links")).toContainText("No link joins this host to another");
});

test("a host's site (the instances that drive it) is set in its settings, refused when malformed, and cleared", async ({
  page,
  request,
}) => {
  await page.goto(`/hosts/${hostIds["grid-vps"]}`);
  const site = page.getByLabel("Site");
  await expect(site).toHaveValue("");
  await site.fill("west coast");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(site).toHaveAttribute("aria-invalid", "true");
  await expect(site).toHaveAccessibleDescription(/letters, digits, dots, dashes or underscores/);
  await site.fill("west");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const saved = await apiCall<{ site: string | null }>(request, "GET", `/api/hosts/${hostIds["grid-vps"]}`);
  expect(saved.site).toBe("west");
  await page.reload();
  await expect(page.getByLabel("Site")).toHaveValue("west");
  // The host's facts say it too, beside its tags.
  await expect(page.getByTestId("host-site")).toContainText("west");
  await page.getByLabel("Site").scrollIntoViewIfNeeded();
  await screenshotEverywhere(page, "host-settings-site");
  await page.getByLabel("Site").fill("");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const cleared = await apiCall<{ site: string | null }>(request, "GET", `/api/hosts/${hostIds["grid-vps"]}`);
  expect(cleared.site).toBeNull();
  await page.reload();
  await expect(page.getByTestId("host-site")).toHaveCount(0);
});
