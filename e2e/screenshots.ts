import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";

// Screenshots every spec keeps as artifacts (CI keeps e2e/artifacts), to look at the pages as a person would.
export const ARTIFACTS_DIR = path.resolve("e2e/artifacts");

export const VIEWPORTS = {
  desktop: { width: 1280, height: 860 },
  phone: { width: 390, height: 844 },
} as const;

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  // The whole page, except under an open modal: a full-page capture of a scrolled page draws the
  // top layer's backdrop but not the dialog itself, so the viewport is what a person sees then.
  const hasModal = (await page.locator("dialog[open]").count()) > 0;
  await page.screenshot({ path: file, fullPage: !hasModal });
  return file;
}

/** The page at both widths in both themes; fails when anything overflows sideways, or on a serious axe violation in either theme. */
export async function screenshotEverywhere(page: Page, name: string): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${name} overflows sideways at ${viewportName} width`).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `${name}-${viewportName}-${colorScheme}`);
    }
    // The screenshot waited for the page to settle; axe at the desktop width, in this theme.
    await page.setViewportSize(VIEWPORTS.desktop);
    await expectNoAxeViolations(page, `${name} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(VIEWPORTS.desktop);
}
