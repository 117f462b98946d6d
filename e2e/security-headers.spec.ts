import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, registerLabLinks, waitForRunStatus, type RunStatusJson } from "./api";

// The security headers of next.config.ts on real responses of the built app, and every
// dashboard page (with a live run streaming) rendered by Chromium under that policy
// without one violation. Names start with sec- so they never clash with other specs.

test.describe.configure({ mode: "serial" });

const EXPECTED_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

for (const path of ["/", "/hosts", "/api/health"]) {
  test(`${path} answers with the security headers`, async ({ page }) => {
    // page.request carries the signed-in browser's cookie: the page itself answers, not a redirect.
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status()).toBe(200);
    const headers = response.headers();
    // The production build the tests run: no 'unsafe-eval', which only `next dev` gets.
    expect(headers["content-security-policy"]).toBe(EXPECTED_CSP);
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["permissions-policy"]).toBe("camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    // HSTS belongs to the HTTPS proxy in front of the app (README), and the framework does not announce itself.
    expect(headers["strict-transport-security"]).toBeUndefined();
    expect(headers["x-powered-by"]).toBeUndefined();
  });
}

test("a server action posted from another origin is refused by the origin check", async ({ page, baseURL }) => {
  // Next.js compares Origin with Host before it looks the action up (allowedOrigins is left unset):
  // the same made-up action is "not found" (409) from the app's own origin, refused (500) from another.
  const post = (origin: string) =>
    page.request.post("/login", {
      headers: { "next-action": "0".repeat(42), origin, "content-type": "text/plain;charset=UTF-8" },
      data: "[]",
      maxRedirects: 0,
    });
  const sameOrigin = await post(new URL(baseURL!).origin);
  expect(sameOrigin.status()).toBe(409);
  expect(await sameOrigin.text()).toBe("Server Action unavailable.");
  const crossOrigin = await post("http://attacker.example");
  expect(crossOrigin.status()).toBe(500);
  expect(await crossOrigin.text()).not.toContain("Server Action unavailable.");
});

type Violation = { source: string; text: string };

/** Collects every report of a blocked resource or script, from the console and from the DOM event. */
async function watchViolations(page: Page): Promise<Violation[]> {
  const violations: Violation[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      violations.push({ source: `console ${page.url()}`, text: message.text() });
  });
  page.on("pageerror", (error) => {
    if (/Content Security Policy|unsafe-eval|unsafe-inline/i.test(error.message))
      violations.push({ source: `pageerror ${page.url()}`, text: error.message });
  });
  await page.exposeFunction("reportCspViolation", (text: string) =>
    violations.push({ source: `event ${page.url()}`, text }),
  );
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"}`,
      );
    });
  });
  return violations;
}

test("every dashboard page loads under the policy with no violation, a live run included", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const linkIds = await registerLabLinks(request, "sec", [{ lab: "ab-1g", name: "sec-ab-1g", speedMbps: 1000 }]);
  const linkId = linkIds["sec-ab-1g"]!;
  const { hosts } = await apiCall<{ hosts: Array<{ id: number; name: string }> }>(request, "GET", "/api/hosts");
  const hostId = hosts.find((host) => host.name.startsWith("sec-"))!.id;
  const violations = await watchViolations(page);

  const pages: Array<[path: string, heading: string | RegExp]> = [
    ["/", "Overview"],
    ["/hosts", "Hosts"],
    ["/hosts/new", "Add host"],
    [`/hosts/${hostId}`, /^sec-/],
    ["/links", "Links"],
    ["/links/new", "Create link"],
    [`/links/${linkId}`, "sec-ab-1g"],
    ["/runs", "Runs"],
    ["/account", "Your account"],
    ["/users", "Users"],
    ["/audit", "Audit log"],
  ];
  for (const [path, heading] of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: heading }), path).toBeVisible();
  }

  // The run page while iperf3 streams: the live chart (inline styles) and the event stream (connect-src).
  const run = await apiCall<RunStatusJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 4 });
  await page.goto(`/runs/${run.id}`);
  await expect(page.getByTestId("interval-chart")).toBeVisible();
  expect((await waitForRunStatus(request, run.id, ["succeeded", "failed", "cancelled", "interrupted"])).status).toBe(
    "succeeded",
  );
  await expect(page.getByTestId("summary-received")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("interval-chart")).not.toHaveAttribute("data-sample-count", "0");

  // Client-side navigation fetches its payloads with fetch(): connect-src must allow it.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Hosts", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Hosts" })).toBeVisible();

  expect(violations).toEqual([]);
});
