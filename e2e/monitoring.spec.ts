import { createHmac } from "node:crypto";
import { expect, test } from "./fixtures";
import { startHttpReceiver, type HttpReceiver } from "../testing/notification-receivers";
import { apiCall, hostIdsOfLink, registerLabLinks, waitForRunStatus, type RunStatusJson } from "./api";
import { screenshotEverywhere } from "./screenshots";
import { addUserOnPage, signedInAs, type SpecUser } from "./users";

// Watching a link from the browser on the real lab: a schedule made through its form, whose
// next 5 starts show before it is saved; a webhook channel pointing at a receiver started here
// (127.0.0.1), with Send test, whose URL a viewer sees by its origin only; a rule for one link
// that any real run breaches (below 100% of the line rate, 1 of 1); then a run on that link opens
// an alert that the receiver gets, the overview marks and the alerts page lists, and an operator
// acknowledges. The hosts and the link are set up through the REST API. Names start with mon- so
// they clash with no other spec's.

test.describe.configure({ mode: "serial" });

const LINK = { lab: "ab-1g", name: "mon-ab-1g", speedMbps: 1000 } as const;
const CHANNEL = "mon hook";
const SECRET = "mon shared secret";
const RULE = "mon below line rate";
const VIEWER: SpecUser = { username: "monviewer", password: "mon viewer password", role: "viewer" };

type ChannelJson = { id: number; name: string; secretsSet: string[]; config: Record<string, unknown> };
type RuleJson = {
  id: number;
  name: string;
  linkId: number | null;
  belowLineRatePercent: number | null;
  m: number;
  n: number;
  channels: { id: number }[];
};
type AlertJson = {
  id: number;
  status: string;
  title: string;
  link: { id: number };
  runIds: number[];
  acknowledgedAt: string | null;
};

let receiver: HttpReceiver;
let linkId = 0;
let hostIds: number[] = [];
let channelId = 0;
let ruleId = 0;
let runId = 0;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  receiver = await startHttpReceiver();
  linkId = (await registerLabLinks(request, "mon", [LINK]))[LINK.name]!;
  hostIds = await hostIdsOfLink(request, linkId);
});

// Other specs share this database and count hosts and links: what this one made goes (deleting the
// hosts deletes their link, its runs, schedules, rules and alerts; the channel goes by itself).
test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  if (runId)
    await waitForRunStatus(request, runId, ["succeeded", "failed", "cancelled", "interrupted"]).catch(() => undefined);
  if (ruleId) await apiCall(request, "DELETE", `/api/alert-rules/${ruleId}`).catch(() => undefined);
  if (channelId) await apiCall(request, "DELETE", `/api/channels/${channelId}`).catch(() => undefined);
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
  await receiver?.close();
});

test("a schedule made through its form shows its next 5 starts before it is saved, and a wrong cron by its field", async ({
  page,
  request,
}) => {
  await page.goto(`/schedules/new?link=${linkId}`);
  const form = page.getByRole("form", { name: "New schedule" });
  await form.getByLabel("Name", { exact: true }).fill("mon nightly");
  await expect(form.getByLabel("Link", { exact: true })).toHaveValue(String(linkId));
  await form.getByLabel("Duration (-t, seconds)", { exact: true }).fill("2");
  await form.getByLabel("On a cron expression").check();
  await form.getByLabel("Time zone", { exact: true }).fill("Europe/Paris");

  // A minute that does not exist: the field says so as it is typed, and no start is shown.
  const cron = form.getByLabel("Cron expression", { exact: true });
  await cron.fill("61 3 * * *");
  await expect(form.getByTestId("field-error").filter({ hasText: /cron/ })).toBeVisible();
  await expect(form.getByTestId("preview-start")).toHaveCount(0);

  // 03:00 every day in Paris: five starts, each at 03:00 there, before anything is saved.
  await cron.fill("0 3 * * *");
  const preview = form.getByTestId("schedule-preview");
  await expect(preview.getByTestId("preview-start")).toHaveCount(5);
  await expect(preview).not.toHaveAttribute("data-stale", "true");
  for (const start of await preview.getByTestId("preview-start").allTextContents()) expect(start).toMatch(/\b03:00$/);
  await expect(preview).toContainText("In Europe/Paris");
  const { schedules: before } = await apiCall<{ schedules: unknown[] }>(request, "GET", `/api/schedules`);
  await screenshotEverywhere(page, "schedule-new-preview");

  await form.getByRole("button", { name: "Create schedule" }).click();
  await expect(page).toHaveURL(/\/schedules\/\d+$/, { timeout: 30_000 });
  await expect(page.getByRole("heading", { level: 1, name: /mon nightly/ })).toBeVisible();
  await expect(page.getByTestId("schedule-next-starts").locator("li")).toHaveCount(5);
  await expect(page.getByTestId("schedule-summary")).toContainText(`Test on ${LINK.name}`);
  await expect(page.getByTestId("schedule-summary")).toContainText("cron 0 3 * * * (Europe/Paris)");
  const { schedules: after } = await apiCall<{
    schedules: Array<{
      id: number;
      name: string;
      linkId: number;
      cron: string;
      timezone: string;
      options: { duration?: number };
    }>;
  }>(request, "GET", `/api/schedules`);
  expect(after).toHaveLength(before.length + 1);
  expect(after.find((schedule) => schedule.name === "mon nightly")).toMatchObject({
    linkId,
    cron: "0 3 * * *",
    timezone: "Europe/Paris",
    options: { duration: 2 },
  });

  // Paused from its page, it has no next start; it is listed with its state.
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
  await expect(page.getByText("None while it is paused.")).toBeVisible();
  await page.goto("/schedules");
  const row = page.getByRole("row").filter({ hasText: "mon nightly" });
  await expect(row.getByTestId("schedule-state")).toHaveText("Paused");
  await expect(row).toContainText(`Test on ${LINK.name}`);
});

test("a webhook channel's Send test reaches the receiver, signed, and says sent", async ({ page, request }) => {
  await page.goto("/alerts/channels");
  const form = page.getByRole("form", { name: "New channel" });
  await form.getByLabel("Name", { exact: true }).fill(CHANNEL);
  await expect(form.getByLabel("Webhook", { exact: true })).toBeChecked();
  await form.getByLabel("URL", { exact: true }).fill(`${receiver.url}/hook`);
  await form.getByLabel("Signing secret (optional)").fill(SECRET);
  await form.getByRole("button", { name: "Create channel" }).click();

  await expect
    .poll(
      async () =>
        (await apiCall<{ channels: ChannelJson[] }>(request, "GET", "/api/channels")).channels.find(
          (channel) => channel.name === CHANNEL,
        )?.id ?? 0,
    )
    .toBeGreaterThan(0);
  const channel = (await apiCall<{ channels: ChannelJson[] }>(request, "GET", "/api/channels")).channels.find(
    (entry) => entry.name === CHANNEL,
  )!;
  channelId = channel.id;
  expect(channel.secretsSet).toEqual(["secret"]);
  const row = page.getByTestId(`channel-row-${channelId}`);
  await expect(row).toContainText(`${receiver.url}/hook`);
  // The secret itself is nowhere on the page.
  await expect(page.locator("body")).not.toContainText(SECRET);

  await row.getByRole("button", { name: `Send test to ${CHANNEL}` }).click();
  await expect(row.getByTestId("channel-test-result")).toHaveText("sent", { timeout: 20_000 });
  const [received] = await receiver.waitFor(1);
  expect(received!.method).toBe("POST");
  expect(received!.path).toBe("/hook");
  expect(received!.json).toMatchObject({ event: "test" });
  expect(received!.headers["x-wirespeed-signature"]).toBe(
    `sha256=${createHmac("sha256", SECRET).update(received!.body).digest("hex")}`,
  );

  // Its edit form keeps the secret without showing it.
  await row.getByRole("button", { name: `Edit ${CHANNEL}` }).click();
  const edit = page.getByRole("form", { name: `Edit channel ${CHANNEL}` });
  await expect(edit.getByLabel("Signing secret (optional)")).toHaveValue("");
  await expect(edit.getByLabel("Signing secret (optional)")).toHaveAttribute(
    "placeholder",
    "set — leave empty to keep",
  );
  await edit.getByRole("button", { name: "Cancel" }).click();
});

test("a viewer sees only the origin of the channel's URL, on the channels page and through the API", async ({
  page,
  browser,
}, testInfo) => {
  await addUserOnPage(page, VIEWER);
  const { context, page: viewer } = await signedInAs(browser, testInfo.project.use.baseURL, VIEWER);
  try {
    await viewer.goto("/alerts/channels");
    const row = viewer.getByTestId(`channel-row-${channelId}`);
    await expect(row).toContainText(receiver.url);
    await expect(row).not.toContainText("/hook");
    await expect(viewer.locator("body")).not.toContainText(`${receiver.url}/hook`);
    await expect(row.getByRole("button", { name: `Send test to ${CHANNEL}` })).toHaveCount(0);

    // Its session reads the API as the page does: the origin again, and nothing of the path.
    const answer = await viewer.request.get("/api/channels");
    expect(answer.status()).toBe(200);
    const text = await answer.text();
    expect(text).not.toContain("/hook");
    const { channels } = JSON.parse(text) as { channels: ChannelJson[] };
    expect(channels.find((channel) => channel.id === channelId)?.config).toEqual({ url: receiver.url });

    // The other alerts pages, which list the channels by name, render for a viewer too.
    await viewer.goto("/alerts/rules");
    await expect(viewer.getByRole("heading", { name: "Alert rules" })).toBeVisible();
    await viewer.goto("/alerts");
    await expect(viewer.getByRole("heading", { name: "Alerts", exact: true })).toBeVisible();
  } finally {
    await context.close();
  }
  // An admin still reads all of it.
  await page.goto("/alerts/channels");
  await expect(page.getByTestId(`channel-row-${channelId}`)).toContainText(`${receiver.url}/hook`);
});

test("a rule for one link with that channel is listed with its condition and m of n", async ({ page, request }) => {
  await page.goto("/alerts/rules");
  const form = page.getByRole("form", { name: "New rule" });
  await form.getByLabel("Name", { exact: true }).fill(RULE);
  await form.getByLabel("Link", { exact: true }).selectOption(String(linkId));
  await form.getByLabel("Below % of the baseline").fill("");
  await form.getByLabel("Below % of the line rate").fill("100");
  await form.getByLabel("The run failed").uncheck();
  await form.getByLabel("m (runs that breach)").fill("1");
  await form.getByLabel("n (runs judged)").fill("1");
  await form.getByLabel(`${CHANNEL} (Webhook)`).check();
  await form.getByRole("button", { name: "Create rule" }).click();

  const row = page.getByRole("row").filter({ hasText: RULE });
  await expect(row).toContainText(LINK.name);
  await expect(row).toContainText("below 100% of the line rate");
  await expect(row).toContainText("1 of 1");
  await expect(row).toContainText(CHANNEL);
  const rule = (await apiCall<{ rules: RuleJson[] }>(request, "GET", "/api/alert-rules")).rules.find(
    (entry) => entry.name === RULE,
  )!;
  ruleId = rule.id;
  expect(rule).toMatchObject({ linkId, belowLineRatePercent: 100, m: 1, n: 1, channels: [{ id: channelId }] });
});

test("a run below the line rate opens an alert: sent to the channel, marked on the overview, listed and acknowledged on the alerts page", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const run = await apiCall<RunStatusJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 2 });
  runId = run.id;
  expect((await waitForRunStatus(request, runId, ["succeeded", "failed", "cancelled", "interrupted"])).status).toBe(
    "succeeded",
  );

  // The test notification, then the alert's.
  const requests = await receiver.waitFor(2, 60_000);
  const firing = requests[1]!;
  expect(firing.json).toMatchObject({ event: "alert.firing", link: { id: linkId, name: LINK.name }, runIds: [runId] });
  expect(firing.headers["x-wirespeed-signature"]).toBe(
    `sha256=${createHmac("sha256", SECRET).update(firing.body).digest("hex")}`,
  );
  const { alerts } = await apiCall<{ alerts: AlertJson[] }>(
    request,
    "GET",
    `/api/alerts?status=firing&linkId=${linkId}`,
  );
  expect(alerts).toHaveLength(1);
  const alert = alerts[0]!;
  expect(alert.title).toBe(`${LINK.name}: below its line rate`);

  // The overview marks the link in words, and the nav counts the firing alert.
  await page.goto("/");
  const card = page.locator(`[data-testid="link-card"][data-link-name="${LINK.name}"]`);
  await expect(card.getByTestId("card-alert")).toHaveText("Alert");
  await expect(page.getByTestId("nav-firing-alerts")).toContainText(/^\d+/);
  await screenshotEverywhere(page, "overview-alert");

  // The link's page shows it with the run that triggered it.
  await page.goto(`/links/${linkId}`);
  const onLink = page.getByTestId("link-alerts");
  await expect(onLink).toContainText(alert.title);
  await expect(onLink.getByRole("link", { name: `#${runId}` })).toHaveAttribute("href", `/runs/${runId}`);

  // The alerts page lists it among the open ones; an operator acknowledges it.
  await page.goto("/alerts");
  const item = page.getByTestId("open-alerts").locator(`[data-alert-id="${alert.id}"]`);
  await expect(item).toContainText(alert.title);
  await expect(item.getByTestId("alert-body")).toContainText(`of its 1 Gbit/s line rate (1 of 1 runs)`);
  await expect(item.getByRole("link", { name: `#${runId}` })).toHaveAttribute("href", `/runs/${runId}`);
  await screenshotEverywhere(page, "alerts-open");
  await item.getByRole("button", { name: `Acknowledge ${alert.title}` }).click();
  await expect(item.getByTestId("alert-acknowledged")).toContainText("by admin");
  await expect(item.getByRole("button", { name: /Acknowledge/ })).toHaveCount(0);
  const after = await apiCall<{ alerts: AlertJson[] }>(request, "GET", `/api/alerts?status=firing&linkId=${linkId}`);
  expect(after.alerts[0]!.acknowledgedAt).not.toBeNull();
  // Acknowledged is not over: it stays firing until runs recover.
  expect(after.alerts[0]!.status).toBe("firing");
});
