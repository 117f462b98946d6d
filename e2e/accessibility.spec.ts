import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, registerLabLinks, waitForRunStatus, type ApiHost, type RunStatusJson } from "./api";
import { expectAccessibleInBothThemes } from "./axe";

// Every page of the app through axe, in both themes, after the other specs (playwright.config.ts
// runs this project last), so that the pages hold what a lab's database holds: runs of every
// kind, experiments, schedules, alerts. What this spec needs of them it makes itself. Then the
// live run and experiment pages while they run, their text alternative, and visible focus on
// every control a keyboard reaches. The dialogs' focus is tested where they are used
// (hosts.spec.ts), and every screenshotEverywhere() of the other specs runs axe too.

test.describe.configure({ mode: "serial" });

const FINAL = ["succeeded", "failed", "cancelled", "interrupted"];

type Seeded = { hostId: number; linkId: number; runId: number; experimentIds: [number, number]; scheduleId: number };
let seeded: Seeded;

/**
 * Every page of app/ (its route pattern) and the address it is checked at. A page added without
 * an entry here fails "every page of the app is in the list".
 */
const PAGES: Record<string, (ids: Seeded) => string> = {
  "/": () => "/",
  "/hosts": () => "/hosts",
  "/hosts/new": () => "/hosts/new",
  "/hosts/[id]": ({ hostId }) => `/hosts/${hostId}`,
  "/links": () => "/links",
  "/links/new": () => "/links/new",
  "/links/[id]": ({ linkId }) => `/links/${linkId}`,
  "/grid": () => "/grid",
  "/runs": () => "/runs",
  "/runs/[id]": ({ runId }) => `/runs/${runId}`,
  "/experiments": () => "/experiments",
  "/experiments/new": () => "/experiments/new",
  "/experiments/[id]": ({ experimentIds }) => `/experiments/${experimentIds[0]}`,
  "/experiments/compare": ({ experimentIds }) => `/experiments/compare?ids=${experimentIds.join(",")}`,
  "/schedules": () => "/schedules",
  "/schedules/new": () => "/schedules/new",
  "/schedules/[id]": ({ scheduleId }) => `/schedules/${scheduleId}`,
  "/shares": () => "/shares",
  "/alerts": () => "/alerts",
  "/alerts/rules": () => "/alerts/rules",
  "/alerts/channels": () => "/alerts/channels",
  "/users": () => "/users",
  "/audit": () => "/audit",
  "/account": () => "/account",
  "/forbidden": () => "/forbidden?need=users",
};
/** Pages a signed-in admin cannot open: checked signed out, or by another spec. */
const SIGNED_OUT_PAGES = ["/login"];
const CHECKED_ELSEWHERE: Record<string, string> = {
  // It exists only until the first account is made: accounts.spec.ts opens it on a server of its own.
  "/setup": "e2e/accounts.spec.ts (screenshotEverywhere: accounts-setup)",
  // It says why the identity provider's sign-in was refused, from the cookie that sign-in leaves.
  "/login/refused": "e2e/oidc.spec.ts (screenshotEverywhere: oidc-refused)",
  // A share link's page, opened by a browser without an account: e2e/shares.spec.ts makes one.
  "/s/[token]": "e2e/shares.spec.ts (screenshotEverywhere: shares-shared-run)",
};

/** app/**\/page.tsx as route patterns: app/runs/[id]/page.tsx → /runs/[id]. */
function appRoutes(dir = path.resolve("app"), prefix = ""): string[] {
  const routes: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== "api")
      routes.push(...appRoutes(path.join(dir, entry.name), `${prefix}/${entry.name}`));
    else if (entry.name === "page.tsx") routes.push(prefix === "" ? "/" : prefix);
  }
  return routes.sort();
}

async function waitForExperiment(page: Page, id: number): Promise<string> {
  let status = "";
  await expect
    .poll(
      async () => (status = (await apiCall<{ status: string }>(page.request, "GET", `/api/experiments/${id}`)).status),
      { timeout: 90_000, intervals: [1000] },
    )
    .toMatch(/^(succeeded|failed|cancelled|interrupted)$/);
  return status;
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  const page = await browser.newPage();
  const request = page.request;
  const linkId = (await registerLabLinks(request, "a11y", [{ lab: "ab-1g", name: "a11y-ab-1g", speedMbps: 1000 }]))[
    "a11y-ab-1g"
  ]!;
  const { hosts } = await apiCall<{ hosts: ApiHost[] }>(request, "GET", "/api/hosts");
  const host = hosts.find((entry) => entry.name.startsWith("a11y-"))!;
  const run = await apiCall<RunStatusJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 2, parallel: 2 });
  expect((await waitForRunStatus(request, run.id, FINAL)).status).toBe("succeeded");
  const experimentIds: number[] = [];
  for (let index = 0; index < 2; index += 1) {
    const experiment = await apiCall<{ id: number }>(request, "POST", "/api/experiments", {
      kind: "sweep",
      linkIds: [linkId],
      factor: "parallel",
      values: [1, 2],
      options: { duration: 1 },
    });
    expect(await waitForExperiment(page, experiment.id)).toBe("succeeded");
    experimentIds.push(experiment.id);
  }
  const schedule = await apiCall<{ id: number }>(request, "POST", "/api/schedules", {
    name: "a11y nightly",
    linkId,
    cron: "30 3 * * *",
    options: { duration: 2 },
    enabled: false,
  });
  seeded = {
    hostId: host.id,
    linkId,
    runId: run.id,
    experimentIds: experimentIds as [number, number],
    scheduleId: schedule.id,
  };
  await page.close();
});

test("every page of the app is in the list", () => {
  expect(appRoutes()).toEqual([...Object.keys(PAGES), ...SIGNED_OUT_PAGES, ...Object.keys(CHECKED_ELSEWHERE)].sort());
});

// One test for all pages, each page's failures soft: a run reports every page's violations at once.
test("axe finds no serious violation on any page, light and dark", async ({ page }) => {
  test.setTimeout(300_000);
  for (const route of Object.keys(PAGES)) {
    const address = PAGES[route]!(seeded);
    const response = await page.goto(address);
    expect.soft(response?.status(), address).toBe(200);
    await expect(page.locator("h1").first()).toBeVisible();
    await expectAccessibleInBothThemes(page, address, { soft: true });
  }
});

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });
  test("axe finds no serious violation on the pages for signed-out visitors, light and dark", async ({ page }) => {
    for (const route of SIGNED_OUT_PAGES) {
      await page.goto(route);
      await expect(page.locator("h1").first()).toBeVisible();
      await expectAccessibleInBothThemes(page, route, { soft: true });
    }
  });
});

/** The run page while its run is running: live chart, progress, Cancel. */
test("the live run page passes axe in both themes, and says its rate and intervals politely, at most every 5 s", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const run = await apiCall<RunStatusJson>(request, "POST", `/api/links/${seeded.linkId}/runs`, {
    duration: 60,
    parallel: 2,
  });
  try {
    await page.goto(`/runs/${run.id}`);
    const chart = page.getByTestId("interval-chart");
    await expect(page.getByTestId("live-progress")).toBeVisible();
    await expect
      .poll(async () => Number(await chart.getAttribute("data-sample-count")), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(2);

    // The text alternative: a polite status region, with the rate and the count of intervals.
    const announcement = page.getByTestId("live-announcement");
    await expect(announcement).toHaveAttribute("role", "status");
    await expect(announcement).toHaveAttribute("aria-live", "polite");
    await expect(announcement).toHaveText(/^[\d.]+ (k|M|G)bit\/s now, \d+ intervals$/);
    // Its changes while axe runs and 10 s more, with 2 intervals a second arriving: never two
    // within 5 s, and at least one (the interval count grows).
    await page.evaluate(() => {
      const region = document.querySelector('[data-testid="live-announcement"]')!;
      const changes: { at: number; text: string }[] = [];
      (window as unknown as { announced: typeof changes }).announced = changes;
      new MutationObserver(() => changes.push({ at: performance.now(), text: region.textContent ?? "" })).observe(
        region,
        { childList: true, characterData: true, subtree: true },
      );
    });
    await expectAccessibleInBothThemes(page, `/runs/${run.id} while running`);
    await page.waitForTimeout(10_000);
    const changes = await page.evaluate(
      () => (window as unknown as { announced: { at: number; text: string }[] }).announced,
    );
    const listed = changes.map((change) => `${Math.round(change.at)} ms: ${change.text}`).join("\n");
    expect(changes.length, `announcements:\n${listed}`).toBeGreaterThanOrEqual(1);
    for (let index = 1; index < changes.length; index += 1) {
      expect(
        changes[index]!.at - changes[index - 1]!.at,
        `time between two announcements:\n${listed}`,
      ).toBeGreaterThanOrEqual(4_900);
    }
    expect(
      (await apiCall<RunStatusJson>(request, "GET", `/api/runs/${run.id}`)).status,
      "still running when checked",
    ).toBe("running");
  } finally {
    await apiCall(request, "POST", `/api/runs/${run.id}/cancel`).catch(() => undefined);
    await waitForRunStatus(request, run.id, FINAL);
  }
});

test("the live experiment page passes axe in both themes, with its step's rate said politely", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const experiment = await apiCall<{ id: number }>(request, "POST", "/api/experiments", {
    kind: "sweep",
    linkIds: [seeded.linkId],
    factor: "parallel",
    values: [1, 2],
    options: { duration: 30 },
  });
  try {
    await page.goto(`/experiments/${experiment.id}`);
    const chart = page.getByTestId("live-step-chart");
    await expect
      .poll(async () => Number((await chart.getAttribute("data-sample-count").catch(() => null)) ?? 0), {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId("live-announcement")).toHaveText(
      /^This step: [\d.]+ (k|M|G)bit\/s now, \d+ intervals$/,
    );
    await expectAccessibleInBothThemes(page, `/experiments/${experiment.id} while running`);
    expect(
      (await apiCall<{ status: string }>(request, "GET", `/api/experiments/${experiment.id}`)).status,
      "still running when checked",
    ).toBe("running");
  } finally {
    await apiCall(request, "POST", `/api/experiments/${experiment.id}/cancel`).catch(() => undefined);
    await waitForExperiment(page, experiment.id);
  }
});

/** What the focused element looks like, and what it looks like unfocused: outline and shadow of it and its two parents. */
async function focusLook(page: Page): Promise<{ what: string; focused: string; unfocused: string } | null> {
  return page.evaluate(() => {
    const element = document.activeElement as (HTMLElement | SVGElement) | null;
    if (!element || element === document.body) return null;
    const chain: Element[] = [element, element.parentElement, element.parentElement?.parentElement].filter(
      (entry) => entry instanceof Element,
    );
    const look = () =>
      chain
        .map((entry) => {
          const style = getComputedStyle(entry);
          return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} | ${style.boxShadow}`;
        })
        .join(" || ");
    const focused = look();
    element.blur();
    const unfocused = look();
    element.focus({ preventScroll: true });
    const name = element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 40) ?? "";
    return { what: `<${element.tagName.toLowerCase()}> "${name}"`, focused, unfocused };
  });
}

test("focus is visible on every control a keyboard reaches, on every page", async ({ page }) => {
  test.setTimeout(240_000);
  const unseen: string[] = [];
  for (const route of Object.keys(PAGES)) {
    const address = PAGES[route]!(seeded);
    await page.goto(address);
    await expect(page.locator("h1").first()).toBeVisible();
    const seen = new Set<string>();
    // Up to 60 stops a page: past the navigation, the page's own controls (long tables repeat theirs).
    for (let stop = 0; stop < 60; stop += 1) {
      await page.keyboard.press("Tab");
      const look = await focusLook(page);
      if (!look) break;
      if (seen.has(look.what + look.focused)) break; // back at the start
      seen.add(look.what + look.focused);
      if (look.focused === look.unfocused) unseen.push(`${address}: ${look.what}, focused and not: ${look.focused}`);
    }
    expect(seen.size, `${address}: Tab reaches some control`).toBeGreaterThan(3);
  }
  expect(unseen, "controls with no visible focus").toEqual([]);
});
