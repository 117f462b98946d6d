import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, registerLabLinks, waitForRunStatus, type RunStatusJson } from "./api";
import { storedRunOptions } from "../testing/run-options";
import { watchLive } from "./live";
import { saveScreenshot, screenshotEverywhere, VIEWPORTS } from "./screenshots";
import { addUserOnPage, signedInAs, type SpecUser } from "./users";

// Runs from the browser on the real lab: the link page's form, the live chart, the
// link history, Run again, Cancel, Compare and the CSV export. Hosts and the link are
// set up through the REST API (the hosts and links pages have their own specs).

test.describe.configure({ mode: "serial" });

type RunJson = RunStatusJson;

let linkId = 0;
const runIds: number[] = [];

/** The run page's live chart: how many intervals it holds while the progress bar (a live run) is shown; 0 otherwise. */
async function liveSampleCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const chart = document.querySelector<HTMLElement>('[data-testid="interval-chart"]');
    const isLive = document.querySelector('[data-testid="live-progress"]') !== null;
    const curves = chart?.querySelectorAll("path.recharts-line-curve").length ?? 0;
    return isLive && chart && curves > 0 ? Number(chart.dataset.sampleCount ?? 0) : 0;
  });
}

/** The app under test's SQLite file (playwright.config.ts puts it in WIRESPEED_E2E_DATA_DIR). */
const APP_DATABASE_FILE = path.join(
  path.resolve(process.env.WIRESPEED_E2E_DATA_DIR ?? "/tmp/wirespeed-e2e"),
  "wirespeed.db",
);

/**
 * A succeeded TCP run on the link of `streams` streams at 0.1 s intervals, `samples` of them, ended
 * (and started) at `endedAt`, written straight into the app's database: each interval gives every
 * stream `streamBytes` at `bitsPerSecond(seq, index)`, the interval its sum. Its id.
 */
function insertStreamsRun({
  endedAt,
  streams,
  samples,
  streamBytes,
  bitsPerSecond,
  clientOutput = "",
}: {
  endedAt: Date;
  streams: number;
  samples: number;
  streamBytes: number;
  bitsPerSecond: (seq: number, index: number) => number;
  clientOutput?: string;
}): number {
  const database = new Database(APP_DATABASE_FILE);
  const at = endedAt.toISOString().replace("Z", "+00:00");
  const options = storedRunOptions({ duration: samples / 10, parallel: streams, interval: 0.1 });
  const runId = Number(
    database
      .prepare(
        `INSERT INTO "Run" ("linkId", "status", "clientSide", "options", "createdAt", "startedAt", "endedAt", "sentBitsPerSecond", "receivedBitsPerSecond", "retransmits", "clientOutput") VALUES (?, 'succeeded', 'a', ?, ?, ?, ?, 9.5e8, 9.4e8, 0, ?)`,
      )
      .run(linkId, JSON.stringify(options), at, at, at, clientOutput).lastInsertRowid,
  );
  const insert = database.prepare(
    `INSERT INTO "Sample" ("runId", "seq", "start", "end", "direction", "bytes", "bitsPerSecond", "retransmits", "omitted", "streams") VALUES (?, ?, ?, ?, 'forward', ?, ?, 0, 0, ?)`,
  );
  database.transaction(() => {
    for (let seq = 0; seq < samples; seq += 1) {
      const values = Array.from({ length: streams }, (_, index) => ({
        id: 5 + 2 * index,
        bytes: streamBytes,
        bitsPerSecond: bitsPerSecond(seq, index),
        retransmits: 0,
      }));
      const total = values.reduce((sum, stream) => sum + stream.bitsPerSecond, 0);
      insert.run(runId, seq, seq / 10, (seq + 1) / 10, total / 80, total, JSON.stringify(values));
    }
  })();
  database.close();
  return runId;
}

function runIdFromUrl(page: Page): number {
  const match = /\/runs\/(\d+)$/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not a run page: ${page.url()}`);
  return Number(match[1]);
}

test.beforeAll(async ({ request }) => {
  linkId = (await registerLabLinks(request, "run", [{ lab: "ab-1g", name: "run-ab-1g", speedMbps: 1000 }]))[
    "run-ab-1g"
  ]!;
});

test("a test started from the link page draws its intervals live, before it ends", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.goto(`/links/${linkId}`);
  await expect(page.getByRole("heading", { level: 1, name: "run-ab-1g" })).toBeVisible();
  await expect(page.getByTestId("link-speed")).toHaveText("1G");
  await expect(page.getByText("No runs yet")).toBeVisible();
  const form = page.getByRole("form", { name: "New test" });
  // The hosts were checked: the form names their iperf3 versions.
  await expect(form).toContainText(/run-alpha: iperf3 3\.\d+/);
  await form.getByRole("button", { name: "4 streams 30 s" }).click();
  // Long enough for a loaded machine's page to draw two intervals before the run ends.
  await form.getByLabel("Duration (-t, seconds)").fill("12");
  await form.getByRole("button", { name: "Start test" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/, { timeout: 20_000 });
  const runId = runIdFromUrl(page);
  runIds.push(runId);
  // Points arrive while the run is still running.
  await expect.poll(() => liveSampleCount(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
  const run = await apiCall<RunJson>(request, "GET", `/api/runs/${runId}`);
  expect(["running", "preparing"]).toContain(run.status);
  await expect(page.getByRole("progressbar", { name: "Test progress" })).toBeVisible();
  await expect(page.getByText(/\d+ s left/)).toBeVisible();
  await page.setViewportSize(VIEWPORTS.desktop);
  await saveScreenshot(page, "run-live-desktop-light");
  // When it ends, the page shows the summary from the database.
  await expect(page.getByTestId("summary-received")).toBeVisible({ timeout: 40_000 });
  await expect(page.getByTestId("run-status").first()).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("summary-received")).toContainText(/(Mbit|Gbit)\/s/);
  // Where the bytes went, beside the result, in words: alpha's NIC of the link carried them.
  await expect(page.getByTestId("summary-path")).toContainText("On the link");
  await expect(page.getByTestId("summary-path").locator("..")).toContainText(
    /on run-alpha carried \d+(\.\d)?% of the bytes/,
  );
  await expect(page.getByRole("table", { name: "Per-stream results" })).toBeVisible();
  await expect(page.getByTestId("command-client")).toContainText("-P 4");
  await expect(page.getByTestId("command-server")).toContainText("-s -1");
});

test("the run is in the link's history, and Run again repeats it", async ({ page, request }) => {
  test.setTimeout(120_000);
  const [firstRun] = runIds;
  await page.goto(`/links/${linkId}`);
  await expect(page.getByTestId("history-chart")).toHaveAttribute("data-point-count", "1");
  await expect(page.getByTestId("history-chart").locator(".recharts-scatter-symbol")).toHaveCount(1);
  const row = page.getByTestId(`run-row-${firstRun}`);
  await expect(row).toContainText("TCP ×4 12s →");
  await expect(row).toContainText("%");
  await row.getByRole("button", { name: `Run again (run #${firstRun})` }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/, { timeout: 20_000 });
  const secondRun = runIdFromUrl(page);
  expect(secondRun).not.toBe(firstRun);
  runIds.push(secondRun);
  await waitForRunStatus(request, secondRun, ["succeeded"]);
  await expect(page.getByTestId("summary-received")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText("TCP ×4 12s →")).toBeVisible();
  await page.goto(`/links/${linkId}`);
  await expect(page.getByTestId("history-chart")).toHaveAttribute("data-point-count", "2");
});

/**
 * The parts of a Commands block's text that the page draws over more than one line: each argument
 * (a run of non-spaces) and each option with its value ("-p 5201"). Measured on the text itself
 * (a Range over its characters, whichever elements hold them), so it sees what a person sees.
 */
async function partsSplitAcrossLines(page: Page, testId: string): Promise<{ text: string; split: string[] }> {
  return page.getByTestId(testId).evaluate((block) => {
    const nodes: Array<{ node: Text; start: number }> = [];
    let text = "";
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push({ node: node as Text, start: text.length });
      text += node.nodeValue ?? "";
    }
    const holding = (offset: number) => nodes.filter((entry) => entry.start <= offset).at(-1)!;
    const lineCount = (start: number, end: number) => {
      const range = document.createRange();
      const first = holding(start);
      const last = holding(end - 1);
      range.setStart(first.node, start - first.start);
      range.setEnd(last.node, end - last.start);
      const tops = [...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => rect.top);
      return tops.filter((top) => Math.abs(top - tops[0]!) > 2).length > 0 ? 2 : 1;
    };
    const parts = [...text.matchAll(/\S+/g), ...text.matchAll(/(?<=^|\s)-{1,2}[A-Za-z][\w-]*\s+[^\s-]\S*/g)];
    const split = parts.filter((match) => lineCount(match.index, match.index + match[0].length) > 1);
    return { text, split: split.map((match) => match[0]) };
  });
}

test("at phone width the Commands block wraps between arguments, never inside a port number, an address or an option's value", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const run = await apiCall<RunJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 1 });
  await waitForRunStatus(request, run.id, ["succeeded"]);
  const stored = await apiCall<{ commands: { server: string; client: string } }>(request, "GET", `/api/runs/${run.id}`);
  await page.setViewportSize(VIEWPORTS.phone);
  await page.goto(`/runs/${run.id}`);
  for (const role of ["server", "client"] as const) {
    const block = page.getByTestId(`command-${role}`);
    await expect(block).toBeVisible();
    const { text, split } = await partsSplitAcrossLines(page, `command-${role}`);
    // The block still holds the command as stored (and as its Copy button copies it), port and address in it.
    expect(text).toBe(stored.commands[role]);
    expect(text).toMatch(/ -p \d+/);
    expect(text).toMatch(/198\.18\.\d+\.\d+/);
    expect(split, `${role} command: parts drawn over two lines`).toEqual([]);
    const size = await block.evaluate((element) => ({
      height: element.clientHeight,
      lineHeight: parseFloat(getComputedStyle(element).lineHeight),
      overflow: element.scrollWidth - element.clientWidth,
    }));
    // At 390 px the command takes several lines (so the check above measured wrapped text), and needs no sideways scroll.
    expect(size.height, `${role} command wraps`).toBeGreaterThan(2 * size.lineHeight);
    expect(size.overflow, `${role} command scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await screenshotEverywhere(page, "run-commands");
});

test("a run whose bytes a route sent over another link says so: off the link, a critical finding, crossed out in the history", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const detourId = (
    await registerLabLinks(request, "detour", [{ lab: "gd-detour", name: "run-gd-detour", speedMbps: 1000 }])
  )["run-gd-detour"]!;
  const run = await apiCall<RunJson>(request, "POST", `/api/links/${detourId}/runs`, { duration: 2 });
  await waitForRunStatus(request, run.id, ["succeeded"]);
  await page.goto(`/runs/${run.id}`);
  await expect(page.getByTestId("summary-path")).toContainText("Off the link");
  await expect(page.getByText("The test took another route", { exact: true })).toBeVisible();
  await expect(page.getByText(/the test took another route \(check `?ip route get/)).toBeVisible();
  await page.goto(`/links/${detourId}`);
  await expect(page.getByTestId("history-chart")).toHaveAttribute("data-off-link-count", "1");
  await expect(page.getByTestId("history-off-link")).toContainText("off the link: 1 run");
  await expect(page.getByTestId(`run-row-${run.id}`).getByTestId("run-off-link")).toHaveText("Off the link");
  await screenshotEverywhere(page, "run-off-link-history");
});

test("a 30 s run can be cancelled, and a run queued behind it shows its place", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.goto(`/links/${linkId}`);
  const form = page.getByRole("form", { name: "New test" });
  await form.getByRole("button", { name: "4 streams 30 s" }).click();
  await expect(form.getByLabel("Duration (-t, seconds)")).toHaveValue("30");
  await form.getByRole("button", { name: "Start test" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/, { timeout: 20_000 });
  const longRun = runIdFromUrl(page);
  await expect.poll(() => liveSampleCount(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);

  // A second run on the same link waits for the first.
  const queued = await apiCall<RunJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 2 });
  const runsPage = await page.context().newPage();
  await runsPage.goto("/runs");
  await expect(runsPage.getByTestId(`run-row-${queued.id}`)).toContainText("#1 in queue");
  await runsPage.setViewportSize(VIEWPORTS.desktop);
  await saveScreenshot(runsPage, "runs-queue-desktop-light");
  await apiCall(request, "POST", `/api/runs/${queued.id}/cancel`);
  await runsPage.close();

  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("run-status").first()).toHaveAttribute("data-status", "cancelled", { timeout: 20_000 });
  const run = await apiCall<RunJson & { endedAt: string; startedAt: string }>(request, "GET", `/api/runs/${longRun}`);
  expect(run.status).toBe("cancelled");
  expect(Date.parse(run.endedAt) - Date.parse(run.startedAt)).toBeLessThan(25_000);
  // The samples it got are kept and drawn.
  const { samples } = await apiCall<{ samples: unknown[] }>(request, "GET", `/api/runs/${longRun}/samples`);
  expect(samples.length).toBeGreaterThan(0);
  await expect(page.getByTestId("interval-chart")).toHaveAttribute("data-sample-count", String(samples.length));
});

test("a failed run shows its error kind, message and hint", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.goto(`/links/${linkId}`);
  const form = page.getByRole("form", { name: "New test" });
  await form.getByLabel("Duration (-t, seconds)").fill("3");
  await form.getByText("Advanced options").click();
  await form.getByLabel("Congestion control (-C)").fill("nosuchcc");
  await form.getByRole("button", { name: "Start test" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/, { timeout: 20_000 });
  const runId = runIdFromUrl(page);
  await waitForRunStatus(request, runId, ["failed"]);
  const alert = page.getByRole("alert").filter({ hasText: "The run failed" });
  await expect(alert).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("error-kind")).not.toBeEmpty();
  await expect(alert).toContainText("What to do");
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize(VIEWPORTS.desktop);
    await saveScreenshot(page, `run-failed-desktop-${colorScheme}`);
  }
});

test("two runs compare side by side, with the difference in %", async ({ page }) => {
  const [first, second] = runIds;
  await page.goto(`/links/${linkId}`);
  const compare = page.getByRole("button", { name: /^Compare/ });
  await expect(compare).toBeDisabled();
  await page.getByRole("checkbox", { name: `Select run #${first} to compare` }).check();
  await page.getByRole("checkbox", { name: `Select run #${second} to compare` }).check();
  await compare.click();
  await expect(page).toHaveURL(new RegExp(`compare=${first},${second}`));
  const section = page.getByTestId("compare");
  await expect(section.getByRole("heading", { name: "Comparing 2 runs" })).toBeVisible();
  await expect(section.locator("path.recharts-line-curve")).toHaveCount(2);
  await expect(page.getByTestId(`compare-received-${first}`)).toContainText("baseline");
  await expect(page.getByTestId(`compare-received-${second}`)).toContainText(/[+-]?\d+\.\d %/);
  // The curves compared download as a PNG, as a run's chart does.
  const download = section.getByTestId("download-chart");
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    download.getByRole("button", { name: "Download chart" }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(`wirespeed-compare-${first}-${second}.png`);
});

test("the link page's table and history follow runs started through the API, without the page loading again", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.goto(`/links/${linkId}`);
  const pointsBefore = Number(await page.getByTestId("history-chart").getAttribute("data-point-count"));
  // One run the page opens on: while it is active the page asks the API every few seconds. It lasts
  // long enough to still be running when the second one is queued, after a page load on a loaded machine.
  const first = await apiCall<RunJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 15 });
  await page.goto(`/links/${linkId}`);
  await expect(page.getByTestId(`run-row-${first.id}`)).toBeVisible();
  const live = await watchLive(page, "/api/");

  // A second one, started after the page loaded, waits behind the first: it appears in the table with its place.
  const second = await apiCall<RunJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 2 });
  await expect(page.getByTestId(`run-row-${second.id}`)).toContainText("#1 in queue", { timeout: 10_000 });
  for (const run of [first, second])
    expect((await waitForRunStatus(request, run.id, ["succeeded", "failed", "cancelled", "interrupted"])).status).toBe(
      "succeeded",
    );
  for (const run of [first, second])
    await expect(page.getByTestId(`run-row-${run.id}`).getByTestId("run-status")).toHaveAttribute(
      "data-status",
      "succeeded",
      { timeout: 10_000 },
    );
  await expect(page.getByTestId("history-chart")).toHaveAttribute("data-point-count", String(pointsBefore + 2), {
    timeout: 10_000,
  });
  expect(live.apiRequests.some((path) => path.startsWith(`/api/runs?linkId=${linkId}`))).toBe(true);
  expect(live.apiRequests).toContain(`/api/links/${linkId}/history`);
  await live.expectSameDocument();

  // Filters change the URL and the rows in place; Back brings the unfiltered table back.
  const filters = page.getByRole("form", { name: "Filter runs" });
  await filters.getByLabel("Protocol").selectOption("udp");
  await expect(page).toHaveURL(new RegExp(`/links/${linkId}\\?protocol=udp$`));
  await expect(page.getByText("No runs match these filters")).toBeVisible();
  expect(live.apiRequests).toContain(`/api/runs?linkId=${linkId}&protocol=udp`);
  await filters.getByLabel("Streams").selectOption("4");
  await expect(page).toHaveURL(new RegExp(`/links/${linkId}\\?protocol=udp&streams=4$`));
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(new RegExp(`/links/${linkId}$`));
  await expect(page.getByTestId(`run-row-${second.id}`)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`streams=4$`));
  await expect(filters.getByLabel("Streams")).toHaveValue("4");
  await expect(filters.getByLabel("Protocol")).toHaveValue("udp");
  await live.expectSameDocument();
  // A reload opens the same filtered view, rendered by the server.
  await page.reload();
  await expect(filters.getByLabel("Streams")).toHaveValue("4");
  await expect(page.getByText("No runs match these filters")).toBeVisible();
});

test("the runs list follows a run to its result without the page loading again", async ({ page, request }) => {
  test.setTimeout(90_000);
  const run = await apiCall<RunJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 5 });
  await page.goto("/runs");
  const status = page.getByTestId(`run-row-${run.id}`).getByTestId("run-status");
  await expect(status).toHaveAttribute("data-status", /^(queued|preparing|running)$/);
  const live = await watchLive(page, "/api/");
  await waitForRunStatus(request, run.id, ["succeeded"]);
  await expect(status).toHaveAttribute("data-status", "succeeded", { timeout: 10_000 });
  await expect(page.getByTestId(`run-row-${run.id}`)).toContainText("%");
  expect(live.apiRequests).toContain("/api/runs");
  await live.expectSameDocument();
});

test("the CSV export has one row per sample, with every sample field", async ({ page, request }) => {
  const [runId] = runIds;
  await page.goto(`/runs/${runId}`);
  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download CSV" }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`wirespeed-run-${runId}.csv`);
  const text = fs.readFileSync(await download.path(), "utf8");
  const lines = text.trimEnd().split("\n");
  expect(lines[0]).toBe(
    "seq,start,end,direction,bytes,bitsPerSecond,retransmits,cwndBytes,jitterMs,lostPackets,packets,omitted,streams,note,labels",
  );
  const { samples } = await apiCall<{ samples: Array<{ seq: number; bitsPerSecond: number }> }>(
    request,
    "GET",
    `/api/runs/${runId}/samples?limit=10000`,
  );
  expect(lines.length - 1).toBe(samples.length);
  const firstRow = lines[1]!.split(",");
  expect(Number(firstRow[0])).toBe(samples[0]!.seq);
  expect(Number(firstRow[5])).toBe(samples[0]!.bitsPerSecond);
  // -P 4: the per-stream values come along as JSON in the streams column.
  expect(lines[1]).toContain('"[{""id""');
  const json = await apiCall<{ samples: unknown[] }>(request, "GET", `/runs/${runId}/export?format=json`);
  expect(json.samples).toHaveLength(samples.length);
});

test("the unit switch shows MB/s and is remembered", async ({ page }) => {
  const [runId] = runIds;
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("summary-received")).toContainText(/bit\/s/);
  await page.getByText("MB/s", { exact: true }).click();
  await expect(page.getByTestId("summary-received")).toContainText(/MB\/s/);
  await page.reload();
  await expect(page.getByTestId("summary-received")).toContainText(/MB\/s/);
  await page.getByText("bit/s", { exact: true }).click();
  await expect(page.getByTestId("summary-received")).toContainText(/bit\/s/);
});

test("a one-hour 32-stream run at 0.1 s (36,000 intervals) draws without freezing the page", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  // Written straight into the app's database: an hour of lab time is too long for a test.
  const runId = insertStreamsRun({
    endedAt: new Date(),
    streams: 32,
    samples: 36_000,
    streamBytes: 367_000,
    bitsPerSecond: (seq, index) => 2.9e7 + ((seq * 7 + index * 13) % 100) * 2e4,
  });

  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto(`/runs/${runId}`, { timeout: 60_000 });
  const chart = page.getByTestId("interval-chart");
  await expect(chart).toHaveAttribute("data-sample-count", "36000");
  // Thinned for display: the total and 32 stream lines of at most 600 points each.
  expect(Number(await chart.getAttribute("data-point-count"))).toBeLessThanOrEqual(600);
  await expect(chart.locator("path.recharts-line-curve")).toHaveCount(34);
  // The page still answers: a hover draws the tooltip. (How fast is a benchmark's question, not a test's.)
  await chart.hover();
  await expect(page.getByText(/^at \d+(\.\d)? s/)).toBeVisible();
  await expect(page.getByRole("table", { name: "Per-stream results" }).getByRole("row")).toHaveCount(33);
  // The export keeps every sample.
  const csv = await request.get(`/runs/${runId}/export?format=csv`, { timeout: 60_000 });
  expect((await csv.text()).trimEnd().split("\n")).toHaveLength(36_001);
  await saveScreenshot(page, "run-36000-intervals-desktop-light");
});

test("a run compacted by sample retention keeps its chart, stream table and export, and says so", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // A run that ended 200 days ago, written straight into the app's database, then `npm run compact`
  // as a user runs it beside the app (the app's own pass may have compacted it first: the same result).
  const runId = insertStreamsRun({
    endedAt: new Date(Date.now() - 200 * 86_400_000),
    streams: 4,
    samples: 3000,
    streamBytes: 2_937_500,
    bitsPerSecond: (seq, index) => 2.3e8 + ((seq * 7 + index * 13) % 100) * 1e5,
    clientOutput: "iperf3 output kept",
  });
  const compacted = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ["--require", "./testing/server-only.cjs", "--import", "tsx", "scripts/compact.ts"],
      {
        cwd: process.cwd(),
        env: { ...process.env, DATABASE_URL: `file:${APP_DATABASE_FILE}`, WIRESPEED_SAMPLES_KEEP_DAYS: "180" },
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => resolve({ code, output }));
  });
  expect(compacted.code, compacted.output).toBe(0);
  expect(compacted.output).toMatch(/compacted \d+ run\(s\) that ended more than 180 days ago/);

  const samples = await apiCall<{ samples: unknown[]; compactedAt: string | null }>(
    request,
    "GET",
    `/api/runs/${runId}/samples`,
  );
  expect(samples.samples).toEqual([]);
  expect(samples.compactedAt).not.toBeNull();
  await page.setViewportSize(VIEWPORTS.desktop);
  await page.goto(`/runs/${runId}`);
  await expect(page.getByTestId("run-compacted")).toContainText("its 3000 intervals were deleted");
  const chart = page.getByTestId("interval-chart");
  await expect(chart).toHaveAttribute("data-sample-count", "3000");
  expect(Number(await chart.getAttribute("data-point-count"))).toBe(600);
  await expect(chart.locator("path.recharts-line-curve")).toHaveCount(6);
  await expect(page.getByRole("table", { name: "Per-stream results" }).getByRole("row")).toHaveCount(5);
  await expect(
    page.getByText("The chart's 600 points and each stream's totals: the 3000 intervals were compacted."),
  ).toBeVisible();
  const exported = JSON.parse(await (await request.get(`/runs/${runId}/export?format=json`)).text()) as {
    samples: unknown[];
    compacted: { sampleCount: number; points: unknown[]; streams: unknown[] };
  };
  expect(exported.samples).toEqual([]);
  expect(exported.compacted).toMatchObject({ sampleCount: 3000 });
  expect(exported.compacted.points).toHaveLength(600);
  expect(exported.compacted.streams).toHaveLength(4);
  await saveScreenshot(page, "run-compacted-desktop-light");
});

test("a note and labels written on a run show on its page, in the runs list and the link's history; the list filters by label; a viewer may not write them", async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  // The first lab run; when this test runs alone, a run written into the app's database.
  const runId =
    runIds[0] ??
    insertStreamsRun({
      endedAt: new Date(),
      streams: 2,
      samples: 50,
      streamBytes: 11_750_000,
      bitsPerSecond: () => 4.7e8,
    });
  const note = "after moving the card to slot 2";
  const label = `dac-${runId}`;
  await page.goto(`/runs/${runId}`);
  await page.getByRole("button", { name: "Add a note or labels" }).click();
  const editor = page.getByRole("form", { name: "Note on this run" });
  await editor.getByLabel("Note").fill(note);
  await editor.getByLabel("Labels").fill(`${label.toUpperCase()}, slot-2`);
  await editor.getByRole("button", { name: "Save note" }).click();
  await expect(editor).toHaveCount(0);
  const shown = page.getByTestId("note");
  await expect(shown.getByTestId("note-text")).toHaveText(note);
  await expect(shown.getByRole("link", { name: `label ${label}: runs with it` })).toBeVisible();
  await expect(shown.getByRole("link", { name: "label slot-2: runs with it" })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("note").getByTestId("note-text")).toHaveText(note);
  await screenshotEverywhere(page, "run-note");

  // The label's tag opens the runs list filtered by it: this run, with its note.
  await page
    .getByTestId("note")
    .getByRole("link", { name: `label ${label}: runs with it` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/runs\\?label=${label}$`));
  const row = page.getByTestId(`run-row-${runId}`);
  await expect(row.getByTestId("note-text")).toHaveText(note);
  await expect(page.locator('[data-testid^="run-row-"]')).toHaveCount(1);
  const listed = await apiCall<{ runs: Array<{ id: number; note: string; labels: string[] }> }>(
    request,
    "GET",
    `/api/runs?label=${label.toUpperCase()}`,
  );
  expect(listed.runs).toEqual([expect.objectContaining({ id: runId, note, labels: [label, "slot-2"].sort() })]);

  // The link's history marks the run and lists it under the chart.
  await page.goto(`/links/${linkId}`);
  const notes = page.getByTestId("history-note-list");
  await expect(notes.getByRole("listitem")).toHaveCount(1);
  await expect(notes).toContainText(`Run #${runId}`);
  await expect(notes.getByTestId("note-text")).toHaveText(note);
  await expect(page.getByTestId("history-notes")).toContainText("a run with a note or labels (1)");
  await notes.scrollIntoViewIfNeeded();
  await screenshotEverywhere(page, "link-history-notes");

  // A viewer reads the note but may not change it.
  const viewerUser: SpecUser = { username: "runs-viewer", password: "runs viewer password", role: "viewer" };
  await addUserOnPage(page, viewerUser);
  const { context, page: viewer } = await signedInAs(browser, testInfo.project.use.baseURL, viewerUser);
  try {
    await viewer.goto(`/runs/${runId}`);
    await expect(viewer.getByTestId("note").getByTestId("note-text")).toHaveText(note);
    await expect(viewer.getByRole("button", { name: "Edit note" })).toHaveCount(0);
    // From the app's own page, as its scripts would send it: the role, not the origin, refuses it.
    const refused = await viewer.evaluate(async (path) => {
      const response = await fetch(path, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ note: "x" }),
      });
      return { status: response.status, body: (await response.json()) as { error: { message: string } } };
    }, `/api/runs/${runId}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/^Your role \(viewer\) does not allow/);
  } finally {
    await context.close();
  }
  const after = await apiCall<{ note: string }>(request, "GET", `/api/runs/${runId}`);
  expect(after.note).toBe(note);
});

for (const colorScheme of ["light", "dark"] as const) {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    test(`link, run and runs pages in ${colorScheme} at ${viewportName} width`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      const [first, second] = runIds;
      for (const [name, path, heading] of [
        ["link", `/links/${linkId}?compare=${first},${second}`, "run-ab-1g"],
        ["run", `/runs/${first}`, `Run #${first}`],
        ["runs", "/runs", "Runs"],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await page.waitForLoadState("networkidle");
        // Nothing overflows sideways: wide tables scroll inside their own box.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${name} page overflows by ${overflow}px`).toBeLessThanOrEqual(0);
        await saveScreenshot(page, `${name}-${viewportName}-${colorScheme}`);
      }
    });
  }
}
