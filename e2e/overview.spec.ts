import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, clearInventory, registerLabLinks, waitForRunStatus, type RunStatusJson } from "./api";
import { watchLive } from "./live";
import { saveScreenshot, screenshotEverywhere, VIEWPORTS } from "./screenshots";

// The overview on the real lab: two links measured through the REST API, then their
// cards (latest result, share of line rate, bar colour), the timeline and Run again.
// Names start with ov- so they never clash with the other specs' hosts and links.

test.describe.configure({ mode: "serial" });

type RunJson = RunStatusJson;

// The defaults of WIRESPEED_WARN_PERCENT / WIRESPEED_BAD_PERCENT (the app under test sets neither).
const WARN_PERCENT = 90;
const BAD_PERCENT = 70;

/** ov-ab-1g is nominally what the lab shapes it to; ov-ab-2g5 claims 40G on a 2.5G link, so it measures far below its line rate. */
const LINKS = [
  { lab: "ab-1g", name: "ov-ab-1g", speedMbps: 1000 },
  { lab: "ab-2g5", name: "ov-ab-2g5", speedMbps: 40_000 },
] as const;

const linkIds: Record<string, number> = {};
const runIds: number[] = [];

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  // The timeline counts every link's runs: only this spec's are on it, whatever the specs before it left.
  await clearInventory(request);
  Object.assign(linkIds, await registerLabLinks(request, "ov", LINKS));
  // One after the other: both links share the two hosts.
  for (const entry of LINKS) {
    const run = await apiCall<RunJson>(request, "POST", `/api/links/${linkIds[entry.name]}/runs`, { duration: 3 });
    runIds.push(run.id);
    expect((await waitForRunStatus(request, run.id, ["succeeded", "failed", "cancelled", "interrupted"])).status).toBe(
      "succeeded",
    );
  }
});

test("each link's card shows its latest result, its share of line rate and a bar coloured by the thresholds", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  for (const entry of LINKS) {
    const card = page.locator(`[data-testid="link-card"][data-link-name="${entry.name}"]`);
    await expect(card.getByRole("heading", { name: entry.name })).toBeVisible();
    await expect(card).toContainText("ov-alpha");
    await expect(card).toContainText("ov-beta");
    await expect(card.getByTestId("card-speed")).toHaveText(entry.speedMbps === 1000 ? "1G" : "40G");
    await expect(card).toContainText(/\d+(\.\d+)? (Mbit|Gbit)\/s/);
    await expect(card).toContainText("TCP 3s →");
    const percentText = (await card.getByTestId("line-rate-percent").textContent()) ?? "";
    const percent = Number(/([\d.]+) %/.exec(percentText)?.[1]);
    expect(percent).toBeGreaterThan(0);
    const expected = percent < BAD_PERCENT ? "bad" : percent < WARN_PERCENT ? "warn" : "good";
    const bar = card.getByTestId("line-rate-bar");
    await expect(bar).toHaveAttribute("data-level", expected);
    await expect(bar).toHaveClass(expected === "bad" ? /bg-red-/ : expected === "warn" ? /bg-amber-/ : /bg-emerald-/);
    await expect(card.getByRole("meter", { name: "Share of line rate" })).toBeVisible();
    await expect(card.getByRole("button", { name: /Run again/ })).toBeVisible();
  }
  // 2.5G measured against a claimed 40G: far below the bad threshold, so red.
  const slow = page.locator('[data-testid="link-card"][data-link-name="ov-ab-2g5"]');
  await expect(slow.getByTestId("line-rate-bar")).toHaveAttribute("data-level", "bad");
  await expect(slow.getByTestId("line-rate-bar")).toHaveClass(/bg-red-/);
  await expect(page.getByText("No links yet")).toHaveCount(0);
  await expect(
    page.getByRole("region", { name: "Hosts" }).getByRole("row").filter({ hasText: "this machine" }),
  ).toHaveCount(1);
});

test("the timeline draws the intervals of both links, and its range switch works", async ({ page }) => {
  await page.goto("/");
  const timeline = page.getByRole("region", { name: "Throughput over time" });
  await expect(timeline.getByTestId("timeline-chart")).toBeVisible();
  for (const entry of LINKS) {
    const legend = timeline.locator(`[data-testid="timeline-series"][data-link-name="${entry.name}"]`);
    // The intervals of a 3 s run plus a zero before and after it.
    await expect.poll(async () => Number(await legend.getAttribute("data-point-count"))).toBeGreaterThanOrEqual(4);
  }
  await expect.poll(() => timeline.locator("path.recharts-area-curve").count()).toBeGreaterThanOrEqual(2);
  const nav = timeline.getByRole("navigation", { name: "Timeline range" });
  await expect(nav.getByRole("link", { name: "24 hours" })).toHaveAttribute("aria-current", "true");
  await nav.getByRole("link", { name: "7 days" }).click();
  await expect(page).toHaveURL(/\?range=7d$/);
  await expect(nav.getByRole("link", { name: "7 days" })).toHaveAttribute("aria-current", "true");
  await expect(timeline.locator('[data-testid="timeline-series"]')).toHaveCount(2);
});

test("Run again on a card starts a new run of the same test", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.goto("/");
  const card = page.locator('[data-testid="link-card"][data-link-name="ov-ab-1g"]');
  await card.getByRole("button", { name: /Run again/ }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/, { timeout: 20_000 });
  const newRunId = Number(/\/runs\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);
  expect(runIds).not.toContain(newRunId);
  expect(newRunId).toBeGreaterThan(Math.max(...runIds));
  const newRun = await apiCall<RunJson & { linkId: number; options: { duration?: number } }>(
    request,
    "GET",
    `/api/runs/${newRunId}`,
  );
  expect(newRun.linkId).toBe(linkIds["ov-ab-1g"]);
  expect(newRun.options.duration).toBe(3);
  // While it runs, the overview shows it live on the card.
  await page.goto("/");
  const live = await apiCall<RunJson>(request, "GET", `/api/runs/${newRunId}`);
  if (live.status !== "succeeded")
    await expect(card.getByTestId("card-active-run")).toHaveAttribute("href", `/runs/${newRunId}`);
  await waitForRunStatus(request, newRunId, ["succeeded"]);
  runIds.push(newRunId);
  // The page refreshes itself while a run is active; the card ends up on the new result.
  await expect(card.getByTestId("card-active-run")).toHaveCount(0, { timeout: 15_000 });
  await expect(card.getByRole("link", { name: "TCP 3s →" })).toHaveAttribute("href", `/runs/${newRunId}`, {
    timeout: 15_000,
  });
  await expect(card.getByTestId("sparkline")).toHaveAttribute("data-point-count", "2");
});

test("cards follow runs started elsewhere, live and to their result, without the page loading again", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const cardOf = (name: string) => page.locator(`[data-testid="link-card"][data-link-name="${name}"]`);
  // A run the page opens on: while it is active the overview asks the API every few seconds. It
  // outlasts the page load and the second run's start, or the page would stop asking before that.
  const first = await apiCall<RunJson>(request, "POST", `/api/links/${linkIds["ov-ab-1g"]}/runs`, { duration: 15 });
  await page.goto("/");
  await expect(cardOf("ov-ab-1g").getByTestId("card-active-run")).toHaveAttribute("href", `/runs/${first.id}`);
  const live = await watchLive(page, "/api/");
  const runsBefore = Number(await page.getByTestId("count-runs").textContent());
  const timeline = page.getByRole("region", { name: "Throughput over time" });
  const slowSeries = timeline.locator('[data-testid="timeline-series"][data-link-name="ov-ab-2g5"]');
  const slowPointsBefore = Number(await slowSeries.getAttribute("data-point-count"));

  // Started through the API after the page loaded: its card shows it without a reload.
  // Long enough to be seen active between two of the overview's polls, however soon it starts.
  const second = await apiCall<RunJson>(request, "POST", `/api/links/${linkIds["ov-ab-2g5"]}/runs`, { duration: 10 });
  await expect(cardOf("ov-ab-2g5").getByTestId("card-active-run")).toHaveAttribute("href", `/runs/${second.id}`, {
    timeout: 10_000,
  });
  await expect(page.getByTestId("count-runs")).toHaveText(String(runsBefore + 1));
  for (const run of [first, second])
    expect((await waitForRunStatus(request, run.id, ["succeeded", "failed", "cancelled", "interrupted"])).status).toBe(
      "succeeded",
    );
  runIds.push(first.id, second.id);

  // Both end on the card as the latest result, and drop out of "active".
  await expect(cardOf("ov-ab-1g").getByRole("link", { name: "TCP 15s →" })).toHaveAttribute(
    "href",
    `/runs/${first.id}`,
    { timeout: 10_000 },
  );
  await expect(cardOf("ov-ab-2g5").getByRole("link", { name: "TCP 10s →" })).toHaveAttribute(
    "href",
    `/runs/${second.id}`,
    { timeout: 10_000 },
  );
  await expect(page.getByTestId("card-active-run")).toHaveCount(0);
  // The timeline draws the new run's intervals too.
  await expect
    .poll(async () => Number(await slowSeries.getAttribute("data-point-count")))
    .toBeGreaterThan(slowPointsBefore);
  expect(live.apiRequests.filter((path) => path === "/api/overview?range=24h").length).toBeGreaterThanOrEqual(2);
  await live.expectSameDocument();

  // With nothing active it stops asking every few seconds.
  const settled = live.apiRequests.length;
  await page.waitForTimeout(5_000);
  expect(live.apiRequests.length).toBe(settled);
});

test("the timeline's range switches in place, and Back goes to the range before", async ({ page }) => {
  await page.goto("/");
  const timeline = page.getByRole("region", { name: "Throughput over time" });
  const nav = timeline.getByRole("navigation", { name: "Timeline range" });
  // The chart is drawn in the browser only: once it is there, the page is hydrated and the switch works in place.
  await expect(timeline.getByTestId("timeline-chart")).toBeVisible();
  const live = await watchLive(page, "/api/");
  await nav.getByRole("link", { name: "6 hours" }).click();
  await expect(page).toHaveURL(/\/\?range=6h$/);
  await expect(nav.getByRole("link", { name: "6 hours" })).toHaveAttribute("aria-current", "true");
  await expect.poll(() => live.apiRequests).toContain("/api/overview?range=6h");
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole("link", { name: "24 hours" })).toHaveAttribute("aria-current", "true");
  await live.expectSameDocument();
});

test("the 1 hour range is in the URL; a drag across the chart zooms it, a reload keeps the zoom, Reset zoom and the range switch drop it", async ({
  page,
}) => {
  await page.goto("/");
  const timeline = page.getByRole("region", { name: "Throughput over time" });
  const chart = timeline.getByTestId("timeline-chart");
  const nav = timeline.getByRole("navigation", { name: "Timeline range" });
  const reset = timeline.getByRole("button", { name: "Reset zoom" });
  const span = async () => Number(await chart.getAttribute("data-to")) - Number(await chart.getAttribute("data-from"));
  await expect(chart).toBeVisible();
  await nav.getByRole("link", { name: "1 hour" }).click();
  await expect(page).toHaveURL(/\/\?range=1h$/);
  await expect(nav.getByRole("link", { name: "1 hour" })).toHaveAttribute("aria-current", "true");
  await expect.poll(span).toBe(3600_000);
  await expect(reset).toHaveCount(0);

  // Over the last half of the hour (this spec's runs are all in its last minutes), left to right.
  const area = (await timeline.getByTestId("timeline-zoom-area").boundingBox())!;
  const y = area.y + area.height / 2;
  await page.mouse.move(area.x + area.width * 0.5, y);
  await page.mouse.down();
  await page.mouse.move(area.x + area.width * 0.75, y, { steps: 4 });
  await expect(timeline.getByTestId("timeline-zoom-selection")).toBeVisible();
  await page.mouse.move(area.x + area.width - 1, y, { steps: 4 });
  await page.mouse.up();
  await expect(page).toHaveURL(/\/\?range=1h&from=\d+&to=\d+$/);
  const url = new URL(page.url());
  const zoom = { from: Number(url.searchParams.get("from")), to: Number(url.searchParams.get("to")) };
  expect(zoom.to - zoom.from).toBeGreaterThan(25 * 60_000);
  expect(zoom.to - zoom.from).toBeLessThan(31 * 60_000);
  await expect(reset).toBeVisible();
  await expect(chart).toHaveAttribute("data-zoomed", "true");
  await expect(chart).toHaveAttribute("data-from", String(zoom.from));
  await expect(timeline.getByTestId("timeline-zoom-selection")).toHaveCount(0);
  // Both links' runs are in the span, read again for it.
  await expect(timeline.locator('[data-testid="timeline-series"]')).toHaveCount(2);

  // A reload opens the same zoom.
  await page.reload();
  await expect(page).toHaveURL(url.toString());
  await expect(reset).toBeVisible();
  await expect(chart).toHaveAttribute("data-from", String(zoom.from));
  await expect(chart).toHaveAttribute("data-to", String(zoom.to));
  await expect(timeline.locator('[data-testid="timeline-series"]')).toHaveCount(2);

  await reset.click();
  await expect(page).toHaveURL(/\/\?range=1h$/);
  await expect(reset).toHaveCount(0);
  await expect(chart).toHaveAttribute("data-zoomed", "false");
  await expect.poll(span).toBe(3600_000);

  // Back in the zoom, the range switch drops it.
  await page.goBack();
  await expect(reset).toBeVisible();
  await nav.getByRole("link", { name: "6 hours" }).click();
  await expect(page).toHaveURL(/\/\?range=6h$/);
  await expect(reset).toHaveCount(0);
  await expect.poll(span).toBe(6 * 3600_000);

  // A zoom that makes no sense is no zoom, never an error page.
  await page.goto(`/?range=1h&from=soon&to=${zoom.to}`);
  await expect(chart).toHaveAttribute("data-zoomed", "false");
  await expect.poll(span).toBe(3600_000);
  await expect(reset).toHaveCount(0);
});

/** Presses Tab (or `key`) until `target` (or a part of it, as a date field's segments) has the focus: how a keyboard reaches it. */
async function tabTo(page: Page, target: Locator, what: string, key = "Tab"): Promise<void> {
  for (let stop = 0; stop < 80; stop += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`Tab never reached ${what}`);
}

/**
 * Types a time into the focused datetime-local field, from its first segment, as the en-US locale
 * shows it (mm/dd/yyyy, hh:mm:ss AM), in UTC: each segment moves on by itself once full, but the
 * year (up to six digits) does not, so → moves on from it.
 */
async function typeUtc(page: Page, ms: number): Promise<void> {
  const time = new Date(ms);
  const two = (value: number) => String(value).padStart(2, "0");
  const hours = time.getUTCHours();
  await page.keyboard.type(two(time.getUTCMonth() + 1) + two(time.getUTCDate()) + String(time.getUTCFullYear()));
  await page.keyboard.press("ArrowRight");
  await page.keyboard.type(
    two(hours % 12 === 0 ? 12 : hours % 12) +
      two(time.getUTCMinutes()) +
      two(time.getUTCSeconds()) +
      (hours < 12 ? "A" : "P"),
  );
}

test.describe("with the keyboard only", () => {
  // The date fields' segments (month/day/year, 12-hour clock) and times as typed below.
  test.use({ locale: "en-US", timezoneId: "UTC" });

  test("+ and - on the focused chart zoom in and out, the From/To form zooms to the times typed, and Reset zoom drops the zoom; each in the URL", async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    await page.goto("/?range=1h");
    const timeline = page.getByRole("region", { name: "Throughput over time" });
    const chart = timeline.getByTestId("timeline-chart");
    const reset = timeline.getByRole("button", { name: "Reset zoom" });
    const span = async () =>
      Number(await chart.getAttribute("data-to")) - Number(await chart.getAttribute("data-from"));
    // The chart's library loads after the page: on a loaded machine, the first time, it may take a while.
    await expect(chart).toBeVisible({ timeout: 30_000 });
    await expect(chart).toHaveAttribute("data-zoomed", "false");
    await expect.poll(span).toBe(3600_000);

    // The chart is a Tab stop; + zooms into the middle half of what it shows, twice.
    const surface = chart.locator("svg.recharts-surface").first();
    await tabTo(page, surface, "the timeline chart");
    await page.keyboard.press("+");
    await expect(page).toHaveURL(/\/\?range=1h&from=\d+&to=\d+$/);
    await expect(chart).toHaveAttribute("data-zoomed", "true");
    await expect(reset).toBeVisible();
    await expect.poll(span).toBeGreaterThanOrEqual(1800_000 - 2);
    expect(await span()).toBeLessThanOrEqual(1800_000 + 2);
    const half = new URL(page.url());
    // This spec's runs are all in the hour's last minutes: the middle half has none, yet keeps its chart and the focus.
    const runs = await Promise.all(
      runIds.map((id) => apiCall<{ startedAt: string; endedAt: string }>(request, "GET", `/api/runs/${id}`)),
    );
    const halfFrom = Number(half.searchParams.get("from"));
    const halfTo = Number(half.searchParams.get("to"));
    expect(runs.every((run) => Date.parse(run.startedAt) > halfTo || Date.parse(run.endedAt) < halfFrom)).toBe(true);
    await expect(timeline.getByTestId("timeline-span-empty")).toHaveText(
      "No tests in this span: zoom out, or Reset zoom.",
    );
    await expect(surface).toBeFocused();
    await page.keyboard.press("+");
    await expect.poll(span).toBeLessThanOrEqual(900_000 + 2);
    expect(await span()).toBeGreaterThanOrEqual(900_000 - 2);
    // - widens it again about its middle; wider than the range is the range itself, unzoomed.
    await page.keyboard.press("-");
    await expect.poll(span).toBeGreaterThanOrEqual(1800_000 - 4);
    expect(await span()).toBeLessThanOrEqual(1800_000 + 4);
    expect(
      Math.abs(Number(new URL(page.url()).searchParams.get("from")) - Number(half.searchParams.get("from"))),
    ).toBeLessThanOrEqual(2);
    await page.keyboard.press("-");
    await expect(page).toHaveURL(/\/\?range=1h$/);
    await expect(chart).toHaveAttribute("data-zoomed", "false");
    await expect(reset).toHaveCount(0);

    // The form: opened from its summary, its fields hold what the chart shows; times typed in are the zoom.
    const form = timeline.getByRole("form", { name: "Zoom to times" });
    const opener = timeline.getByText("Zoom to times…");
    await tabTo(page, opener, "the zoom form's summary");
    await page.keyboard.press("Enter");
    const fromField = form.getByLabel("From");
    const toField = form.getByLabel("To");
    await expect(fromField).toBeVisible();
    const shown = {
      from: Number(await chart.getAttribute("data-from")),
      to: Number(await chart.getAttribute("data-to")),
    };
    expect(Math.abs(Date.parse(`${await fromField.inputValue()}Z`) - shown.from)).toBeLessThan(1000);
    expect(Math.abs(Date.parse(`${await toField.inputValue()}Z`) - shown.to)).toBeLessThan(1000);
    // This spec's runs, a minute either side, in whole seconds.
    const from = Math.floor((Math.min(...runs.map((run) => Date.parse(run.startedAt))) - 60_000) / 1000) * 1000;
    const to = Math.ceil((Math.max(...runs.map((run) => Date.parse(run.endedAt))) + 60_000) / 1000) * 1000;
    const zoomButton = form.getByRole("button", { name: "Zoom", exact: true });

    // To before From is refused, naming To, and nothing changes.
    await tabTo(page, fromField, "the From field");
    await typeUtc(page, from);
    await tabTo(page, toField, "the To field");
    await typeUtc(page, from - 60_000);
    await tabTo(page, zoomButton, "the Zoom button");
    await page.keyboard.press("Enter");
    await expect(form.getByTestId("field-error")).toHaveText(/^To must be at least .* after From\.$/);
    await expect(toField).toHaveAccessibleDescription(/^To must be at least .* after From\.$/);
    await expect(toField).toHaveAttribute("aria-invalid", "true");
    await expect(toField).toBeFocused();
    await expect(page).toHaveURL(/\/\?range=1h$/);

    // Back to From (through To's segments), then forward into To's first segment.
    await tabTo(page, fromField, "the From field", "Shift+Tab");
    await tabTo(page, toField, "the To field");
    await typeUtc(page, to);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`/?range=1h&from=${from}&to=${to}`);
    await expect(chart).toHaveAttribute("data-zoomed", "true");
    await expect(chart).toHaveAttribute("data-from", String(from));
    await expect(chart).toHaveAttribute("data-to", String(to));
    await expect(form.getByTestId("field-error")).toHaveCount(0);
    await expect(timeline.locator('[data-testid="timeline-series"]')).toHaveCount(2);
    await screenshotEverywhere(page, "overview-zoom-form");

    // A reload keeps it; Reset zoom, pressed with Enter, drops it.
    await page.reload();
    await expect(chart).toHaveAttribute("data-from", String(from));
    await tabTo(page, reset, "Reset zoom");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/\?range=1h$/);
    await expect(chart).toHaveAttribute("data-zoomed", "false");
  });
});

test("the last hour, and zoomed into this spec's last two runs, in both themes and at phone width", async ({
  page,
  request,
}) => {
  await page.goto("/?range=1h");
  const timeline = page.getByRole("region", { name: "Throughput over time" });
  await expect(timeline.locator("path.recharts-area-curve").first()).toBeVisible();
  await screenshotEverywhere(page, "overview-1h");
  // The 15 s and 10 s runs of the spec, with a few seconds either side: each drawn interval by interval.
  const runs = await Promise.all(
    runIds.slice(-2).map((id) => apiCall<{ startedAt: string; endedAt: string }>(request, "GET", `/api/runs/${id}`)),
  );
  const from = Math.min(...runs.map((run) => Date.parse(run.startedAt))) - 3000;
  const to = Math.max(...runs.map((run) => Date.parse(run.endedAt))) + 3000;
  await page.goto(`/?range=1h&from=${from}&to=${to}`);
  await expect(timeline.getByTestId("timeline-chart")).toHaveAttribute("data-zoomed", "true");
  await expect(timeline.locator("path.recharts-area-curve").first()).toBeVisible();
  for (const entry of LINKS) {
    const legend = timeline.locator(`[data-testid="timeline-series"][data-link-name="${entry.name}"]`);
    // At least the 10 s run's ten intervals and the zeros either side of it.
    await expect.poll(async () => Number(await legend.getAttribute("data-point-count"))).toBeGreaterThanOrEqual(12);
  }
  await screenshotEverywhere(page, "overview-1h-zoomed");
  // The drag area over the plot still lets the tooltip follow the pointer.
  const area = (await timeline.getByTestId("timeline-zoom-area").boundingBox())!;
  await page.mouse.move(area.x + area.width / 2, area.y + area.height / 2);
  await expect(timeline.locator(".recharts-tooltip-wrapper")).toContainText(/ov-ab-(1g|2g5)/);
});

for (const colorScheme of ["light", "dark"] as const) {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    test(`overview with links at ${viewportName} width, ${colorScheme} theme`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      await page.goto("/");
      await expect(page.locator("path.recharts-area-curve").first()).toBeVisible();
      // Other specs leave their own links in the shared database: count this spec's two.
      await expect(page.locator('[data-testid="link-card"][data-link-name^="ov-ab-"]')).toHaveCount(2);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `overview-links-${viewportName}-${colorScheme}`);
    });
  }
}
