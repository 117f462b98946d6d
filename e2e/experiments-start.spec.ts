import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, E2E_API_TOKEN, endActiveExperiments, hostIdsOfLink, registerLabLinks } from "./api";
import { screenshotEverywhere } from "./screenshots";

// Starting experiments from the browser: two links selected on the links list Run together,
// the New experiment form comes prefilled with "Ports at once, with each alone first", and
// starting it opens the experiment's page. A viewer sees the experiments but no way to start one.
// Hosts and links are set up through the REST API (the hosts and links pages have their own specs).

test.describe.configure({ mode: "serial" });

const PASSWORD = "experiments viewer password";
const VIEWER = "exps-viewer";
const SIGNED_OUT = { storageState: { cookies: [], origins: [] } };
const FINAL_STATUSES = /^(succeeded|failed|cancelled|interrupted)$/;

type ExperimentJson = {
  id: number;
  kind: string;
  name: string;
  status: string;
  plan: { linkIds: number[]; baseline?: boolean; options: Record<string, unknown> };
  answer: string | null;
};

let linkIds: { first: number; second: number } = { first: 0, second: 0 };
let hostIds: number[] = [];
let experimentId = 0;

function experimentIdFromUrl(page: Page): number {
  const match = /\/experiments\/(\d+)$/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not an experiment page: ${page.url()}`);
  return Number(match[1]);
}

async function waitForExperimentEnd(request: APIRequestContext, id: number): Promise<ExperimentJson> {
  let experiment: ExperimentJson | null = null;
  await expect
    .poll(async () => (experiment = await apiCall<ExperimentJson>(request, "GET", `/api/experiments/${id}`)).status, {
      timeout: 90_000,
      intervals: [1000],
    })
    .toMatch(FINAL_STATUSES);
  return experiment!;
}

test.beforeAll(async ({ request }) => {
  const links = await registerLabLinks(request, "exps", [
    { lab: "ab-1g", name: "exps-1g", speedMbps: 1000 },
    { lab: "ab-2g5", name: "exps-2g5", speedMbps: 2500 },
  ]);
  linkIds = { first: links["exps-1g"]!, second: links["exps-2g5"]! };
  hostIds = await hostIdsOfLink(request, linkIds.first);
});

// The other specs share this database and count hosts and links: what this spec registered goes
// again once its experiment has ended (deleting the hosts deletes their NICs, links, runs and experiments).
test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  if (experimentId) await waitForExperimentEnd(request, experimentId);
  await endActiveExperiments(request);
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
});

// The built server loads the services (started by instrumentation.ts) apart from the route
// handlers: an error the experiment runner throws must still be the 400 it stands for.
test("a bad plan sent to the built server is a 400 naming the field, not a 500", async ({ request }) => {
  const bodies: Array<[body: unknown, field: string]> = [
    [{ kind: "concurrent", linkIds: [linkIds.first], options: { duration: 3 } }, "linkIds"],
    [{ duration: 0 }, "kind"],
    [{ linkIds: {}, kind: "sweep" }, "linkIds"],
    [{ kind: "concurrent", linkIds: [linkIds.first, linkIds.second], options: { duration: 0 } }, "options.duration"],
  ];
  for (const [body, field] of bodies) {
    const response = await request.post("/api/experiments", {
      data: body,
      headers: { authorization: `Bearer ${E2E_API_TOKEN}` },
    });
    const answer = (await response.json()) as { error: { code: string; fields?: Array<{ field: string }> } };
    expect(response.status(), JSON.stringify(body)).toBe(400);
    expect(answer.error.code).toBe("invalid");
    expect(answer.error.fields?.map((entry) => entry.field)).toContain(field);
  }
});

test("two links selected on the links list Run together: the form is prefilled, and Start opens the experiment", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await page.goto("/links");
  const runTogether = page.getByTestId("run-together");
  await expect(runTogether.getByRole("button", { name: "Run together" })).toBeDisabled();
  await page.getByRole("checkbox", { name: "Select exps-1g" }).check();
  await expect(runTogether.getByRole("button", { name: "Run together" })).toBeDisabled();
  await page.getByRole("checkbox", { name: "Select exps-2g5" }).check();
  await expect(runTogether.getByRole("link", { name: "Run together (2 links)" })).toBeVisible();
  await screenshotEverywhere(page, "experiments-links-selected");
  await runTogether.getByRole("link", { name: "Run together (2 links)" }).click();

  await expect(page).toHaveURL(/\/experiments\/new\?preset=ports-at-once&links=\d+,\d+$/);
  const chosen = new URL(page.url()).searchParams.get("links")!.split(",").map(Number);
  expect(chosen.sort((a, b) => a - b)).toEqual([linkIds.first, linkIds.second].sort((a, b) => a - b));

  const form = page.getByRole("form", { name: "New experiment" });
  await expect(form.getByRole("button", { name: "Ports at once, with each alone first" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(form.getByRole("radio", { name: "Concurrent", exact: true })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "exps-1g · 1G" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "exps-2g5 · 2.5G" })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "Measure each link alone first" })).toBeChecked();
  // Each link alone, then both together: 4 runs in 3 steps of 10 s and the set-up around each.
  await expect(form.getByTestId("plan-size")).toHaveText("4 runs in 3 steps, about 40 s.");
  await form.getByLabel("Duration (-t, seconds)").fill("2");
  await expect(form.getByTestId("plan-size")).toHaveText("4 runs in 3 steps, about 15 s.");
  await form.getByLabel("Name (optional)").fill("exps both ports");
  await screenshotEverywhere(page, "experiments-new-together");
  await form.getByRole("button", { name: "Start experiment" }).click();

  // The action records the experiment, then the page of it renders on the server: slow on a busy machine.
  await expect(page).toHaveURL(/\/experiments\/\d+$/, { timeout: 30_000 });
  experimentId = experimentIdFromUrl(page);
  await expect(page.getByRole("heading", { level: 1, name: "exps both ports" })).toBeVisible();
  // The experiment holds the plan the form showed.
  const started = await apiCall<ExperimentJson>(request, "GET", `/api/experiments/${experimentId}`);
  expect(started).toMatchObject({
    kind: "concurrent",
    name: "exps both ports",
    plan: { baseline: true, options: { duration: 2 } },
  });
  expect([...started.plan.linkIds].sort((a, b) => a - b)).toEqual(
    [linkIds.first, linkIds.second].sort((a, b) => a - b),
  );
  const ended = await waitForExperimentEnd(request, experimentId);
  expect(ended.status).toBe("succeeded");
  expect(ended.answer).toMatch(/^Together /);

  // Both links list it, with its answer, on the experiments page filtered by link.
  await page.goto(`/experiments?link=${linkIds.second}`);
  await expect(page.getByTestId(`experiment-row-${experimentId}`)).toContainText("exps both ports");
  await expect(page.getByTestId(`experiment-row-${experimentId}`)).toContainText("Concurrent");
  await expect(page.getByTestId(`experiment-row-${experimentId}`)).toContainText("3/3");
  await screenshotEverywhere(page, "experiments-list");
});

test("a link page starts a stream sweep or every direction on that link, in the form", async ({ page }) => {
  await page.goto(`/links/${linkIds.first}`);
  const experiments = page.getByTestId("link-experiments");
  await expect(experiments.getByTestId(`experiment-row-${experimentId}`)).toContainText("exps both ports");
  await experiments
    .getByRole("group", { name: "Start an experiment" })
    .getByRole("link", { name: "Sweep streams" })
    .click();
  await expect(page).toHaveURL(new RegExp(`/experiments/new\\?preset=stream-sweep&link=${linkIds.first}$`));
  const form = page.getByRole("form", { name: "New experiment" });
  await expect(form.getByRole("radio", { name: "Sweep", exact: true })).toBeChecked();
  await expect(form.getByLabel("Link", { exact: true })).toHaveValue(String(linkIds.first));
  await expect(form.getByLabel("Values", { exact: true })).toHaveValue("1, 2, 3, 4, 5, 8");
  await expect(form.getByTestId("plan-size")).toHaveText("6 runs, about 1 min 20 s.");

  await page.goto(`/links/${linkIds.first}`);
  await page.getByRole("group", { name: "Start an experiment" }).getByRole("link", { name: "Every direction" }).click();
  await expect(page).toHaveURL(new RegExp(`/experiments/new\\?preset=every-direction&link=${linkIds.first}$`));
  await expect(form.getByRole("radio", { name: "Matrix", exact: true })).toBeChecked();
  const directions = form.getByRole("group", { name: "Directions" });
  for (const name of ["exps-alpha → exps-beta", "exps-beta → exps-alpha", "Both ways"])
    await expect(directions.getByRole("checkbox", { name })).toBeChecked();
});

test("an admin adds a viewer for the next test", async ({ page }) => {
  await page.goto("/users");
  const form = page.getByRole("form", { name: "Add a user" });
  await form.getByLabel("Username").fill(VIEWER);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByLabel("Role").selectOption("viewer");
  await form.getByRole("button", { name: "Add user" }).click();
  await expect(page.getByTestId("users-message")).toHaveText(`Created ${VIEWER}.`);
});

test.describe("a viewer", () => {
  test.use(SIGNED_OUT);

  test("sees the experiments and no way to start one", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Username").fill(VIEWER);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("account-link")).toContainText(`${VIEWER} (viewer)`);

    await page.goto("/links");
    await expect(page.getByRole("link", { name: "exps-1g" })).toBeVisible();
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(page.getByTestId("run-together")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Run together/ })).toHaveCount(0);

    await page.goto(`/links/${linkIds.first}`);
    const experiments = page.getByTestId("link-experiments");
    await expect(experiments.getByTestId(`experiment-row-${experimentId}`)).toContainText("exps both ports");
    await expect(page.getByRole("group", { name: "Start an experiment" })).toHaveCount(0);
    for (const name of ["Sweep streams", "Every direction", /Other experiment/])
      await expect(experiments.getByRole("link", { name })).toHaveCount(0);

    await page.goto("/experiments");
    await expect(page.getByTestId(`experiment-row-${experimentId}`)).toBeVisible();
    await expect(page.getByRole("link", { name: "New experiment" })).toHaveCount(0);

    await page.goto(`/experiments/new?preset=ports-at-once&links=${linkIds.first},${linkIds.second}`);
    await expect(page).toHaveURL(/\/forbidden\?need=run$/);
  });
});
