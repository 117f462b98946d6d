import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, E2E_API_TOKEN, endActiveExperiments, hostIdsOfLink, registerLabLinks } from "./api";
import { expectAccessibleInBothThemes } from "./axe";
import { formatPercentWord } from "../lib/format";
import { saveScreenshot, screenshotEverywhere, VIEWPORTS } from "./screenshots";

// The whole lab's experiments on the real lab: an interference experiment set up in the form, whose
// page fills its heatmap of pairs as they are measured (the two links behind one bottleneck apart from
// the independent one); a versus of two option sets on one link, answered with A against B and whether
// clearly; a mesh of every link among two hosts, set up in the form, whose page shows the grid of its
// runs, as the lab's grid then does. Short runs keep each experiment under a minute. Hosts and links
// come from the REST API.

test.describe.configure({ mode: "serial" });

const FINAL_STATUSES = /^(succeeded|failed|cancelled|interrupted)$/;

type ExperimentJson = {
  id: number;
  kind: string;
  status: string;
  answer: string | null;
  plan: { linkIds: number[] };
  result: Record<string, unknown> | null;
};

type InterferenceJson = ExperimentJson & {
  result: { pairs: { linkIds: [number, number]; percentOfAlone: number | null }[]; groups: number[][] } | null;
};
type VersusJson = ExperimentJson & {
  result: { differencePercent: number | null; clear: boolean; pairs: number; pairsAgreeing: number } | null;
};
type MeshJson = ExperimentJson & {
  result: { rows: { linkId: number }[]; grid: { hosts: { id: number }[]; cells: { status: string }[] } } | null;
};

let links: Record<string, number> = {};
let hostIds: number[] = [];
const experimentIds: number[] = [];

function experimentIdFromUrl(page: Page): number {
  const match = /\/experiments\/(\d+)$/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not an experiment page: ${page.url()}`);
  return Number(match[1]);
}

async function waitForExperimentEnd<T extends ExperimentJson>(request: APIRequestContext, id: number): Promise<T> {
  let experiment: T | null = null;
  await expect
    .poll(async () => (experiment = await apiCall<T>(request, "GET", `/api/experiments/${id}`)).status, {
      timeout: 150_000,
      intervals: [1000],
    })
    .toMatch(FINAL_STATUSES);
  return experiment!;
}

/** Starts the form's experiment and returns its id, once its page is open. */
async function startFromForm(page: Page): Promise<number> {
  await page.getByRole("form", { name: "New experiment" }).getByRole("button", { name: "Start experiment" }).click();
  // The action records the experiment, then the page of it renders on the server: slow on a busy machine.
  await expect(page).toHaveURL(/\/experiments\/\d+$/, { timeout: 30_000 });
  const id = experimentIdFromUrl(page);
  experimentIds.push(id);
  return id;
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  // Two links behind one shared 1.2 Gbit/s bottleneck, and one of their own, between the same two hosts.
  links = await registerLabLinks(request, "lab28", [
    { lab: "gd-shared-1", name: "lab28-shared-1", speedMbps: 1000 },
    { lab: "gd-shared-2", name: "lab28-shared-2", speedMbps: 1000 },
    { lab: "gd-indep-1", name: "lab28-indep", speedMbps: 1000 },
  ]);
  hostIds = await hostIdsOfLink(request, links["lab28-indep"]!);
});

// Other specs share this database and count hosts and links: what this one registered goes once its
// experiments have ended (deleting the hosts deletes their NICs, links, runs and experiments).
test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const id of experimentIds) await waitForExperimentEnd(request, id);
  await endActiveExperiments(request);
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
});

test("a mesh of one link, an interference of nine links and a versus of three sides are 400s naming the field", async ({
  request,
}) => {
  const [one, two, three] = [links["lab28-shared-1"]!, links["lab28-shared-2"]!, links["lab28-indep"]!];
  const bodies: Array<[body: unknown, field: string]> = [
    [{ kind: "mesh", linkIds: [one], options: { duration: 1 } }, "linkIds"],
    [{ kind: "interference", linkIds: [1, 2, 3, 4, 5, 6, 7, 8, 9], options: { duration: 1 } }, "linkIds"],
    [{ kind: "versus", linkIds: [one, two, three], options: { duration: 1 } }, "linkIds"],
  ];
  for (const [body, field] of bodies) {
    const response = await request.post("/api/experiments", {
      data: body,
      headers: { authorization: `Bearer ${E2E_API_TOKEN}` },
    });
    const answer = (await response.json()) as { error: { fields?: Array<{ field: string }> } };
    expect(response.status(), JSON.stringify(body)).toBe(400);
    expect(answer.error.fields?.map((entry) => entry.field.replace(/\[\d+\]$/, ""))).toContain(field);
  }
});

test("an interference experiment set up in the form shows its pairs as a heatmap, and the links that share a bottleneck", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const ids = [links["lab28-shared-1"]!, links["lab28-shared-2"]!, links["lab28-indep"]!];
  await page.goto(`/experiments/new?kind=interference&links=${ids.join(",")}`);
  const form = page.getByRole("form", { name: "New experiment" });
  await expect(form.getByRole("radio", { name: "Interference", exact: true })).toBeChecked();
  const choice = form.getByTestId("links-choice");
  for (const name of ["lab28-shared-1 · 1G", "lab28-shared-2 · 1G", "lab28-indep · 1G"])
    await expect(choice.getByRole("checkbox", { name })).toBeChecked();
  await form.getByLabel("Duration (-t, seconds)").fill("2");
  // Each link alone, then the three pairs: 3 + 6 runs in 6 steps of 2 s and the set-up around each.
  await expect(form.getByTestId("plan-size")).toHaveText("9 runs in 6 steps, about 30 s.");
  await form.getByLabel("Name (optional)").fill("lab28 interference");
  await screenshotEverywhere(page, "experiments-new-interference");
  const id = await startFromForm(page);

  // The pairs come in while it runs: the heatmap shows those measured so far, the others waiting (read in one go).
  const heatmapState = () =>
    page.evaluate(() => ({
      status: document.querySelector<HTMLElement>('[data-testid="experiment"]')?.dataset.status ?? "",
      measured: document.querySelectorAll('[data-testid^="heatmap-cell-"]:not([data-band="never"])').length,
      waiting: document.querySelectorAll('[data-testid^="heatmap-cell-"][data-band="never"]').length,
    }));
  await expect
    .poll(async () => (await heatmapState()).measured, { timeout: 90_000, intervals: [250] })
    .toBeGreaterThan(0);
  const whenFirstPair = await heatmapState();
  expect(whenFirstPair.status).toBe("running");
  expect(whenFirstPair.waiting).toBeGreaterThan(0);
  const ended = await waitForExperimentEnd<InterferenceJson>(request, id);
  expect(ended.status).toBe("succeeded");
  await expect(page.getByTestId("experiment-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });

  const heatmap = page.getByTestId("interference-heatmap");
  const table = heatmap.getByRole("table", { name: "Each pair together, as a share of the two alone" });
  await expect(table.getByRole("columnheader", { name: "lab28-shared-1" })).toBeVisible();
  await expect(table.getByRole("rowheader", { name: "lab28-indep" })).toBeVisible();
  // Both halves of the table say the same of a pair, in text as well as colour.
  for (const pair of ended.result!.pairs) {
    const [first, second] = pair.linkIds;
    const percent = formatPercentWord(pair.percentOfAlone!);
    await expect(heatmap.getByTestId(`heatmap-cell-${first}-${second}`)).toContainText(percent);
    await expect(heatmap.getByTestId(`heatmap-cell-${second}-${first}`)).toContainText(percent);
  }
  // The shared bottleneck (1.2 Gbit/s under two 1 Gbit/s links) holds the pair to about 60% of alone.
  const shared = ended.result!.pairs.find((pair) => pair.linkIds.includes(ids[0]!) && pair.linkIds.includes(ids[1]!))!;
  expect(shared.percentOfAlone!).toBeLessThan(90);
  expect(ended.result!.groups).toContainEqual([ids[0], ids[1]]);
  await expect(heatmap.getByTestId(`heatmap-cell-${ids[0]}-${ids[1]}`)).not.toHaveAttribute("data-band", "good");
  await expect(page.getByTestId("interference-groups")).toContainText("lab28-shared-1, lab28-shared-2");
  await expect(page.getByTestId("experiment-answer")).toContainText(
    "lab28-shared-1 and lab28-shared-2 share a bottleneck",
  );
  await expect(page.locator('table[data-testid="result-table"] tbody tr')).toHaveCount(3);

  await screenshotEverywhere(page, "experiment-interference");
  // At phone width the heatmap scrolls inside its box (the page does not), and stays axe-clean in both themes.
  await page.setViewportSize(VIEWPORTS.phone);
  await heatmap.scrollIntoViewIfNeeded();
  await expectAccessibleInBothThemes(page, "interference heatmap at phone width");
  await page.emulateMedia({ colorScheme: "dark" });
  await saveScreenshot(page, "experiment-interference-heatmap-phone-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(VIEWPORTS.desktop);
});

test("a versus of two option sets on one link answers which side is faster, by how much and whether clearly", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.goto(`/experiments/new?kind=versus&link=${links["lab28-indep"]}`);
  const form = page.getByRole("form", { name: "New experiment" });
  await expect(form.getByRole("radio", { name: "Versus", exact: true })).toBeChecked();
  await expect(form.getByRole("radio", { name: "Two option sets on one link" })).toBeChecked();
  await expect(form.getByLabel("Link", { exact: true })).toHaveValue(String(links["lab28-indep"]));
  // TCP held to two bitrates: B is about twice A, every time.
  await form.getByLabel("Option that differs").selectOption("bitrate");
  await form.getByLabel("A: Bitrate").fill("200");
  await form.getByLabel("B: Bitrate").fill("400");
  await form.getByLabel("B: name (optional)").fill("double");
  // The server's refusal shows beside the field it names.
  await form.getByLabel("Runs of each side").fill("2");
  await form.getByRole("button", { name: "Start experiment" }).click();
  await expect(form.getByLabel("Runs of each side")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Runs of each side")).toHaveAccessibleDescription(
    /repeats must be a whole number from 3 to 20/,
  );
  await form.getByLabel("Runs of each side").fill("3");
  await form.getByLabel("Duration (-t, seconds)").fill("1");
  await expect(form.getByTestId("plan-size")).toHaveText("6 runs, about 25 s.");
  await screenshotEverywhere(page, "experiments-new-versus");
  const id = await startFromForm(page);

  const ended = await waitForExperimentEnd<VersusJson>(request, id);
  expect(ended.status).toBe("succeeded");
  await expect(page.getByTestId("experiment-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  expect(ended.result).toMatchObject({ clear: true, pairs: 3, pairsAgreeing: 3 });
  expect(ended.result!.differencePercent!).toBeGreaterThan(50);
  await expect(page.getByTestId("experiment-answer")).toHaveText(ended.answer!);
  await expect(page.getByTestId("experiment-answer")).toContainText(
    /^B \(double\) is \d+(\.\d+)?% faster than A \(200\), clearly: 3 of 3 pairs/,
  );
  await expect(page.getByTestId("versus-side-A")).toContainText("median");
  await expect(page.getByTestId("versus-side-B")).toContainText("double");
  await expect(page.getByTestId("versus-clear")).toHaveText(/^A clear difference: B's runs are faster than A's/);
  await screenshotEverywhere(page, "experiment-versus");
});

test("a mesh of every link among two hosts, set up in the form, shows the grid of its runs on its page and in the grid", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.goto("/experiments/new?kind=mesh");
  const form = page.getByRole("form", { name: "New experiment" });
  await expect(form.getByRole("radio", { name: "Mesh", exact: true })).toBeChecked();
  await form.getByRole("radio", { name: "Every link among the hosts chosen" }).check();
  const hosts = form.getByTestId("hosts-choice");
  await hosts.getByRole("checkbox", { name: "lab28-gamma", exact: true }).check();
  await hosts.getByRole("checkbox", { name: "lab28-delta", exact: true }).check();
  await expect(hosts).toContainText("3 links join them: lab28-indep, lab28-shared-1, lab28-shared-2.");
  await form.getByLabel("Duration (-t, seconds)").fill("1");
  // Three links, each both ways, one run at a time.
  await expect(form.getByTestId("plan-size")).toHaveText("6 runs, about 25 s.");
  await form.getByLabel("Name (optional)").fill("lab28 mesh");
  await screenshotEverywhere(page, "experiments-new-mesh");
  const started = { id: await startFromForm(page) };
  const byId = (x: number, y: number) => x - y;
  const { plan } = await apiCall<{ plan: { hostIds: number[] } }>(request, "GET", `/api/experiments/${started.id}`);
  expect([...plan.hostIds].sort(byId)).toEqual([...hostIds].sort(byId));
  const ended = await waitForExperimentEnd<MeshJson>(request, started.id);
  expect(ended.status).toBe("succeeded");
  // Three links, each both ways.
  expect(ended.result!.rows).toHaveLength(6);
  await expect(page.getByTestId("experiment-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await expect(page.locator('table[data-testid="result-table"] tbody tr')).toHaveCount(6);
  const grid = page.getByTestId("mesh-grid");
  await expect(grid.getByRole("table")).toBeVisible();
  await expect(grid.getByRole("columnheader", { name: "lab28-gamma" })).toBeVisible();
  await expect(grid.getByRole("rowheader", { name: "lab28-delta" })).toBeVisible();
  const [gamma, delta] = hostIds;
  await expect(grid.getByTestId(`grid-cell-${gamma}-${delta}`)).toHaveAttribute("data-band", /^(good|fair|poor|bad)$/);
  await expect(grid.getByTestId(`grid-cell-${delta}-${gamma}`)).toContainText("fastest of 3 links");
  await screenshotEverywhere(page, "experiment-mesh");
  await page.setViewportSize(VIEWPORTS.phone);
  await expectAccessibleInBothThemes(page, "mesh grid at phone width");
  await page.setViewportSize(VIEWPORTS.desktop);

  // The lab's grid of the two hosts now holds the mesh's runs: the latest each way.
  await page.goto(`/grid?hostIds=${gamma},${delta}`);
  await expect(page.getByRole("heading", { level: 1, name: "Grid" })).toBeVisible();
  for (const [from, to] of [
    [gamma, delta],
    [delta, gamma],
  ])
    await expect(page.getByTestId(`grid-cell-${from}-${to}`)).toHaveAttribute("data-band", /^(good|fair|poor|bad)$/);
  await screenshotEverywhere(page, "grid-after-mesh");
  await page.setViewportSize(VIEWPORTS.phone);
  await expectAccessibleInBothThemes(page, "grid after a mesh at phone width");
  await page.setViewportSize(VIEWPORTS.desktop);
});
