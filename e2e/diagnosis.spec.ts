import { expect, test } from "./fixtures";
import { HINT_TITLES } from "../lib/diagnosis/rules";
import { labLink, requireLabState, setLinkRate, setNicMtu } from "../testing/lab-targets";
import { apiCall, hostIdsOfLink, registerLabLinks, waitForRunStatus, type RunStatusJson } from "./api";
import { screenshotEverywhere } from "./screenshots";

// Diagnosis in the browser on the real lab: a test started from the link page with latency under
// load, on a link whose shaper queues deeply, shows the throughput and the latency charts and the
// bufferbloat grade; two runs with one end's MTU changed between them compare with "what changed"
// and the link's findings. The hosts and the link are set up through the REST API; the lab link
// is changed with tc and ip, and restored. Names start with dg- so they clash with no other spec's.

test.describe.configure({ mode: "serial" });

// A plain shaped link no other spec uses: changing it here disturbs nobody.
const LINK = { lab: "gd-indep-2", name: "dg-gd", speedMbps: 1000 } as const;

let linkId = 0;
let hostIds: number[] = [];

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  linkId = (await registerLabLinks(request, "dg", [LINK]))[LINK.name]!;
  hostIds = await hostIdsOfLink(request, linkId);
});

test.afterAll(async ({ playwright }, testInfo) => {
  const state = requireLabState();
  const lab = labLink(state, LINK.lab);
  setLinkRate(state, lab, lab.rateMbps!);
  setNicMtu(state, lab, "b", lab.mtu);
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
});

test("a test with latency under load shows the latency chart under the throughput chart, and the grade", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const state = requireLabState();
  const lab = labLink(state, LINK.lab);
  setLinkRate(state, lab, 500, { queueLatency: "80ms" });

  await page.goto(`/links/${linkId}`);
  const form = page.getByRole("form", { name: "New test" });
  await form.getByLabel("Duration (-t, seconds)", { exact: true }).fill("6");
  await form.getByLabel("Streams (-P)", { exact: true }).fill("8");
  await form.getByText("Advanced options").click();
  await form.getByLabel(/Measure latency under load/).check();
  await form.getByRole("button", { name: "Start test" }).click();
  await expect(page).toHaveURL(/\/runs\/\d+$/, { timeout: 30_000 });
  const runId = Number(new URL(page.url()).pathname.split("/").pop());

  // Live: the pings of the idle phase are drawn before the traffic starts.
  await expect(page.getByTestId("latency-chart")).toBeVisible({ timeout: 15_000 });
  await waitForRunStatus(page.request, runId, ["succeeded", "failed"], 60_000);
  setLinkRate(state, lab, lab.rateMbps!);
  await page.reload();

  await expect(page.getByTestId("interval-chart")).toBeVisible();
  await expect(page.getByTestId("latency-chart")).toBeVisible();
  const grade = page.getByTestId("latency-grade");
  await expect(grade).toHaveText(/Bufferbloat grade [B-F]/);
  const run = await apiCall<
    RunStatusJson & { latency: { grade: string; idleMedianMs: number; loadedMedianMs: number } }
  >(page.request, "GET", `/api/runs/${runId}`);
  await expect(grade).toContainText(`grade ${run.latency.grade}`);
  expect(run.latency.loadedMedianMs).toBeGreaterThan(run.latency.idleMedianMs);
  await expect(page.getByRole("region", { name: "Environment" })).toContainText("veth");
  await screenshotEverywhere(page, "run-latency");
});

test("two runs with one end's MTU changed between them compare with what changed, and the link says MTU mismatch", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const state = requireLabState();
  const lab = labLink(state, LINK.lab);
  const first = await apiCall<RunStatusJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 2 });
  await waitForRunStatus(request, first.id, ["succeeded"]);
  setNicMtu(state, lab, "b", 1500);
  const second = await apiCall<RunStatusJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 2 });
  await waitForRunStatus(request, second.id, ["succeeded"]);
  setNicMtu(state, lab, "b", lab.mtu);

  await page.goto(`/links/${linkId}?compare=${first.id},${second.id}`);
  const changes = page.getByTestId("environment-changes");
  await expect(changes).toContainText(`MTU ${lab.mtu} → 1500 on the server`);
  await expect(page.getByRole("region", { name: "Latest findings" })).toContainText(HINT_TITLES["mtu-mismatch"]);
  await screenshotEverywhere(page, "compare-changes");

  await page.goto(`/runs/${second.id}`);
  await expect(page.getByRole("region", { name: "Findings", exact: true })).toContainText(HINT_TITLES["mtu-mismatch"]);
});
