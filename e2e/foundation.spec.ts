import os from "node:os";
import fs from "node:fs";
import { expect, test } from "./fixtures";
import { clearInventory } from "./api";
import { saveScreenshot, VIEWPORTS } from "./screenshots";

// The first screen of a fresh install: this machine and nothing else, whatever the specs before this one left.
test.beforeAll(async ({ request }) => {
  await clearInventory(request);
});

test("the health check reports a usable database", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  // The database kind and the instance that answered (its host name here: no WIRESPEED_INSTANCE).
  expect(await response.json()).toEqual({ ok: true, db: "ok", database: "sqlite", instance: expect.any(String) });
});

test("the first screen lists this machine as a real host", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  const hosts = page.getByRole("region", { name: "Hosts" });
  const row = hosts.getByRole("row").filter({ hasText: "this machine" });
  await expect(row).toHaveCount(1);
  // Recorded on first start from the machine itself, not a placeholder.
  await expect(row).toContainText(os.hostname());
  await expect(row).toContainText("Linux");
  await expect(page.getByTestId("count-hosts")).toHaveText("1");
  await expect(page.getByText("No links yet")).toBeVisible();
});

test("the navigation reaches every section", async ({ page }) => {
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const [label, path, heading] of [
    ["Hosts", "/hosts", "Hosts"],
    ["Links", "/links", "Links"],
    ["Runs", "/runs", "Runs"],
    ["Overview", "/", "Overview"],
  ] as const) {
    await nav.getByRole("link", { name: label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path === "/" ? "/$" : path}`));
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(nav.getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
  }
});

for (const colorScheme of ["light", "dark"] as const) {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    test(`overview follows the system's ${colorScheme} theme at ${viewportName} width`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
      // Tailwind 4 colours are oklch(): let a canvas turn the body's background into RGB.
      const [r = 0, g = 0, b = 0] = await page.evaluate(() => {
        const context = document.createElement("canvas").getContext("2d")!;
        context.fillStyle = getComputedStyle(document.body).backgroundColor;
        context.fillRect(0, 0, 1, 1);
        return Array.from(context.getImageData(0, 0, 1, 1).data);
      });
      // slate-50 in light, slate-950 in dark: the page really switched.
      const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      if (colorScheme === "dark") expect(luminance).toBeLessThan(0.2);
      else expect(luminance).toBeGreaterThan(0.8);
      // Nothing overflows sideways on a phone.
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      const file = await saveScreenshot(page, `overview-${viewportName}-${colorScheme}`);
      expect(fs.statSync(file).size).toBeGreaterThan(1000);
    });
  }
}
