import fs from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";

// Screenshots every spec keeps as artifacts (CI keeps e2e/artifacts), to look at the pages as a person would.
export const ARTIFACTS_DIR = path.resolve("e2e/artifacts");

export const VIEWPORTS = {
  desktop: { width: 1280, height: 860 },
  phone: { width: 390, height: 844 },
} as const;

export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
