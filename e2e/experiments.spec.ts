import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, endActiveExperiments, hostIdsOfLink, registerLabLinks } from "./api";
import { readLabState } from "../testing/lab/lab";
import { saveScreenshot, screenshotEverywhere, VIEWPORTS } from "./screenshots";

// A stream sweep from the browser on the real lab: started from a link page, followed live
// while its table fills in row by row, its knee read off the answer, exported as CSV and
// JSON, run again and compared with its rerun. The hosts and the link are set up through
// the REST API (the hosts and links pages have their own specs).

test.describe.configure({ mode: "serial" });

type SweepJson = {
  id: number;
  status: string;
  answer: string | null;
  result: {
    rows: { value: number; receivedBitsPerSecond: number | null; runIds: number[] }[];
    knee: { value: number; receivedBitsPerSecond: number } | null;
  } | null;
  steps: { runIds: number[]; status: string }[];
};

const VALUES = [1, 2, 4];
let linkId = 0;
let hostIds: number[] = [];
let flowCapMbps: number | null = null;
const experimentIds: number[] = [];
const FINAL_STATUSES = /^(succeeded|failed|cancelled|interrupted)$/;

function experimentIdFromUrl(page: Page): number {
  const match = /\/experiments\/(\d+)$/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not an experiment page: ${page.url()}`);
  return Number(match[1]);
}

/** What the page shows at one moment: the experiment's status and the rows its table has. */
async function pageState(page: Page): Promise<{ status: string; rows: number; liveSamples: number }> {
  return page.evaluate(() => ({
    status: document.querySelector<HTMLElement>('[data-testid="experiment"]')?.dataset.status ?? "",
    rows: document.querySelectorAll('table[data-testid="result-table"] tbody tr').length,
    liveSamples: Number(
      document.querySelector<HTMLElement>('[data-testid="live-step-chart"]')?.dataset.sampleCount ?? 0,
    ),
  }));
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  // The flow-capped link holds each TCP flow below the link's rate, so more streams truly help there.
  const state = readLabState();
  const capped = state?.links.find((link) => link.flowCapMbps !== null && link.flowCapMbps !== undefined) ?? null;
  flowCapMbps = capped?.flowCapMbps ?? null;
  const lab = capped?.name ?? "ab-1g";
  linkId = (await registerLabLinks(request, "exp", [{ lab, name: `exp-${lab}`, speedMbps: 1000 }]))[`exp-${lab}`]!;
  hostIds = await hostIdsOfLink(request, linkId);
});

// Other specs share this database and count hosts and links: what this one registered goes once its
// experiments have ended (deleting the hosts deletes their NICs, links, runs and experiments).
test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const id of experimentIds) {
    await expect
      .poll(async () => (await apiCall<SweepJson>(request, "GET", `/api/experiments/${id}`)).status, {
        timeout: 120_000,
        intervals: [1000],
      })
      .toMatch(FINAL_STATUSES);
  }
  await endActiveExperiments(request);
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
});

test("a stream sweep started from the link page fills its table row by row and names the knee", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.goto(`/links/${linkId}`);
  await page.getByTestId("link-experiments").getByRole("link", { name: "Sweep streams" }).click();
  await expect(page).toHaveURL(/\/experiments\/new\?/);
  const form = page.getByRole("form", { name: "New experiment" });
  await expect(form.getByLabel("Option to step through")).toHaveValue("parallel");
  // Few values and short runs: the whole sweep takes about 30 s. Runs of 8 s leave the page time to
  // show the first row while the later steps run, even on a loaded machine whose steps follow fast.
  await form.getByLabel("Values", { exact: true }).fill(VALUES.join(", "));
  await form.getByLabel("Duration (-t, seconds)", { exact: true }).fill("8");
  await form.getByRole("button", { name: "Start experiment" }).click();
  // The action records the experiment, then the page of it renders on the server: slow on a busy machine.
  await expect(page).toHaveURL(/\/experiments\/\d+$/, { timeout: 30_000 });
  const experimentId = experimentIdFromUrl(page);
  experimentIds.push(experimentId);

  // While it runs: step i of 3, the time left and the current step drawn live.
  await expect(page.getByTestId("step-progress")).toHaveText(/^Step [1-3] of 3$/, { timeout: 30_000 });
  await expect(page.getByTestId("time-left")).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel" })).toBeVisible();
  await expect.poll(async () => (await pageState(page)).liveSamples, { timeout: 30_000 }).toBeGreaterThan(0);
  await page.setViewportSize(VIEWPORTS.desktop);
  await saveScreenshot(page, "experiment-sweep-running-desktop-light");

  // The first row comes in while the later steps still run (read in one go, so the two agree).
  await expect
    .poll(async () => (await pageState(page)).rows, { timeout: 60_000, intervals: [250] })
    .toBeGreaterThanOrEqual(1);
  const whenFirstRow = await pageState(page);
  expect(whenFirstRow.status).toBe("running");
  expect(whenFirstRow.rows).toBeLessThan(VALUES.length);

  // Once it has ended, the page settles: every row, the kind's chart, the answer; no live panel.
  await expect(page.getByTestId("experiment-status")).toHaveAttribute("data-status", "succeeded", { timeout: 120_000 });
  await expect(page.locator('table[data-testid="result-table"] tbody tr')).toHaveCount(VALUES.length);
  await expect(page.getByTestId("experiment-live")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancel" })).toHaveCount(0);
  const experiment = await apiCall<SweepJson>(request, "GET", `/api/experiments/${experimentId}`);
  expect(experiment.status).toBe("succeeded");
  const knee = experiment.result?.knee;
  expect(knee, "a sweep that measured every value has a knee").toBeTruthy();
  expect(VALUES).toContain(knee!.value);
  const answer = page.getByTestId("experiment-answer");
  await expect(answer).toHaveText(experiment.answer!);
  await expect(answer).toContainText(new RegExp(`^${knee!.value} streams? reach(es)? `));
  await expect(page.getByTestId(`result-row-${knee!.value}`).locator('[data-column="knee"]')).toContainText("knee");
  await expect(page.getByTestId("sweep-chart")).toHaveAttribute("data-knee", String(knee!.value));
  await expect(page.getByTestId("sweep-chart")).toHaveAttribute("data-point-count", String(VALUES.length));
  if (flowCapMbps !== null) {
    // One flow is held to the cap, so one stream cannot be the knee: more streams get past it.
    const one = experiment.result!.rows.find((row) => row.value === 1)!;
    expect(one.receivedBitsPerSecond!).toBeLessThan(flowCapMbps * 1.1e6);
    expect(knee!.value).toBeGreaterThan(1);
  }
  // Each row links to its run.
  const firstRun = experiment.result!.rows[0]!.runIds[0]!;
  await expect(page.getByTestId(`result-row-${VALUES[0]}`).getByRole("link", { name: `#${firstRun}` })).toHaveAttribute(
    "href",
    `/runs/${firstRun}`,
  );
  await expect(page.getByTestId("step-1")).toHaveAttribute("data-status", "succeeded");
  await screenshotEverywhere(page, "experiment-sweep-done");

  // The knee curve downloads as a PNG, as a run's chart does.
  const download = page.getByTestId("download-chart");
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    download.getByRole("button", { name: "Download chart" }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(`wirespeed-experiment-${experimentId}.png`);
  await expect(download.getByRole("status")).toHaveText(`Saved wirespeed-experiment-${experimentId}.png.`);
});

test("Export CSV gives the table's rows with rates in bits/s, and JSON the experiment with each run's summary", async ({
  page,
  request,
}) => {
  const [experimentId] = experimentIds;
  const experiment = await apiCall<SweepJson>(request, "GET", `/api/experiments/${experimentId}`);
  await page.goto(`/experiments/${experimentId}`);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`wirespeed-experiment-${experimentId}.csv`);
  const lines = fs
    .readFileSync((await download.path())!, "utf8")
    .trimEnd()
    .split("\n");
  const header = lines[0]!.split(",");
  expect(header.slice(0, 2)).toEqual(["Streams", "Median (bit/s)"]);
  expect(lines).toHaveLength(1 + VALUES.length);
  const median = header.indexOf("Median (bit/s)");
  for (const [index, row] of experiment.result!.rows.entries()) {
    const cells = lines[index + 1]!.split(",");
    expect(cells[0]).toBe(String(row.value));
    expect(Number(cells[median])).toBe(Math.round(row.receivedBitsPerSecond!));
  }

  const exported = await page.request.get(`/experiments/${experimentId}/export?format=json`);
  expect(exported.ok()).toBe(true);
  const json = (await exported.json()) as {
    experiment: SweepJson;
    runs: { id: number; summary: { receivedBitsPerSecond: number | null } | null; output?: unknown }[];
  };
  expect(json.experiment.id).toBe(experimentId);
  expect(json.experiment.answer).toBe(experiment.answer);
  expect(json.runs.map((run) => run.id).sort((a, b) => a - b)).toEqual(
    experiment.steps.flatMap((step) => step.runIds).sort((a, b) => a - b),
  );
  for (const run of json.runs) {
    expect(run.summary?.receivedBitsPerSecond).toBeGreaterThan(0);
    expect(run.output).toBeUndefined();
  }
});

test("Run again repeats the plan, and Compare puts the two side by side with the difference in %", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const [firstId] = experimentIds;
  await page.goto(`/experiments/${firstId}`);
  await page.getByRole("button", { name: "Run again" }).click();
  // Another experiment's page: the address was already /experiments/<first> before the click.
  await expect(page).not.toHaveURL(new RegExp(`/experiments/${firstId}$`), { timeout: 30_000 });
  await expect(page).toHaveURL(/\/experiments\/\d+$/);
  const secondId = experimentIdFromUrl(page);
  expect(secondId).not.toBe(firstId);
  experimentIds.push(secondId);
  await expect(page.getByTestId("experiment-status")).toHaveAttribute("data-status", "succeeded", { timeout: 120_000 });
  const second = await apiCall<SweepJson>(request, "GET", `/api/experiments/${secondId}`);
  expect(second.result!.rows.map((row) => row.value)).toEqual(VALUES);

  await page.getByRole("link", { name: "Compare", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/experiments/compare\\?ids=${secondId}$`));
  const picker = page.getByRole("form", { name: `Compare #${secondId} with (B)` });
  await picker.getByRole("combobox").selectOption(String(firstId));
  await picker.getByRole("button", { name: "Compare" }).click();
  await expect(page).toHaveURL(new RegExp(`/experiments/compare\\?ids=${secondId},${firstId}$`));
  await expect(page.getByTestId("compare-summary-a")).toContainText(`#${secondId}`);
  await expect(page.getByTestId("compare-summary-b")).toContainText(`#${firstId}`);
  for (const value of VALUES) {
    await expect(page.getByTestId(`compare-row-${value}`)).toBeVisible();
    await expect(page.getByTestId(`compare-diff-${value}-receivedBitsPerSecond`)).toHaveText(/^([+−]\d+\.\d|0\.0) %$/);
  }
  await screenshotEverywhere(page, "experiment-compare");

  // Two kinds do not compare: the page says so instead of pairing rows that do not match.
  const matrix = await apiCall<{ id: number }>(request, "POST", "/api/experiments", {
    kind: "matrix",
    linkIds: [linkId],
    options: { duration: 1 },
    directions: ["a-to-b"],
    protocols: ["tcp"],
    clientSides: ["a"],
  });
  await page.goto(`/experiments/compare?ids=${firstId},${matrix.id}`);
  await expect(page.getByTestId("compare-refused")).toContainText("different kinds");
  // It ends here, so that no spec after this one finds the link busy.
  await apiCall(request, "POST", `/api/experiments/${matrix.id}/cancel`).catch(() => undefined);
  await expect
    .poll(async () => (await apiCall<SweepJson>(request, "GET", `/api/experiments/${matrix.id}`)).status, {
      timeout: 60_000,
      intervals: [500],
    })
    .toMatch(FINAL_STATUSES);
});
