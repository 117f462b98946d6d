import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

// axe-core over what the browser shows, with every rule axe enables by default (WCAG 2.0-2.2
// A and AA, and best practices). A violation of impact "serious" or "critical" fails the test
// that found it; "moderate" and "minor" ones are printed, not failed. docs/architecture.md
// ("Accessibility") holds the rules this enforces.

export const FAILING_IMPACTS: readonly string[] = ["serious", "critical"];
export const THEMES = ["light", "dark"] as const;

type Violation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

function describe(violation: Violation): string {
  const nodes = violation.nodes
    .slice(0, 5)
    .map((node) => `    ${node.target.join(" ")}: ${node.failureSummary?.split("\n").slice(1).join(" ").trim() ?? ""}`);
  const more = violation.nodes.length > 5 ? [`    … and ${violation.nodes.length - 5} more`] : [];
  return [
    `${violation.id} (${violation.impact}, ${violation.nodes.length}×): ${violation.help}`,
    ...nodes,
    ...more,
  ].join("\n");
}

/**
 * axe on the page as it is now; fails on any serious or critical violation, naming each with its
 * elements. `soft`: the test goes on to its next page and fails at its end, with every page's.
 */
export async function expectNoAxeViolations(page: Page, where: string, { soft = false } = {}): Promise<void> {
  await page.waitForLoadState("domcontentloaded");
  const { violations } = await new AxeBuilder({ page }).analyze();
  const failing = violations.filter((violation) => FAILING_IMPACTS.includes(violation.impact ?? ""));
  const others = violations.filter((violation) => !failing.includes(violation));
  if (others.length > 0)
    console.log(`axe, ${where}: ${others.map((violation) => `${violation.id} (${violation.impact})`).join(", ")}`);
  (soft ? expect.soft : expect)(
    failing.map(describe).join("\n"),
    `axe: serious or critical violations on ${where}`,
  ).toBe("");
}

/** The page in the light theme, then in the dark one (prefers-color-scheme), checked by axe; left in light. */
export async function expectAccessibleInBothThemes(
  page: Page,
  where: string,
  options: { soft?: boolean } = {},
): Promise<void> {
  for (const colorScheme of THEMES) {
    await page.emulateMedia({ colorScheme });
    // Colours with a transition (150 ms in Tailwind) would be measured half way.
    await page.waitForTimeout(300);
    await expectNoAxeViolations(page, `${where} (${colorScheme})`, options);
  }
  await page.emulateMedia({ colorScheme: "light" });
}
