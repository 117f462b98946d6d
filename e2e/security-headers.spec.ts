import { expect, test } from "./fixtures";
import { apiCall, registerLabLinks, waitForRunStatus, type RunStatusJson } from "./api";

// The security headers of next.config.ts and proxy.ts on real responses of the built app, and
// every dashboard page (with a live run streaming) rendered by Chromium under that policy
// without one violation (e2e/fixtures.ts fails a test on any). Names start with sec- so they
// never clash with other specs.

test.describe.configure({ mode: "serial" });

/** A page's policy: its scripts need the response's nonce (the production build: no 'unsafe-eval'). */
const pagePolicy = (nonce: string) =>
  [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
/** The API answers data only: nothing may load, nothing may frame it. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'";
const HSTS = "max-age=31536000; includeSubDomains";

/** The nonce of a page's Content-Security-Policy header. */
function nonceOf(policy: string | undefined): string {
  const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy ?? "")?.[1];
  expect(nonce, `a nonce in ${policy}`).toBeTruthy();
  return nonce!;
}

/** The opening tag of every <script> in a page's HTML. */
const scriptTagsOf = (html: string) => html.match(/<script\b[^>]*>/g) ?? [];

for (const path of ["/", "/hosts", "/api/health"]) {
  test(`${path} answers with the security headers`, async ({ page }) => {
    // page.request carries the signed-in browser's cookie: the page itself answers, not a redirect.
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status()).toBe(200);
    const headers = response.headers();
    const policy = headers["content-security-policy"];
    if (path.startsWith("/api/")) expect(policy).toBe(API_POLICY);
    else {
      expect(policy).toBe(pagePolicy(nonceOf(policy)));
      expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    }
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["permissions-policy"]).toBe("camera=(), microphone=(), geolocation=(), payment=(), usb=()");
    // Plain HTTP: no HSTS (see the test below), and the framework does not announce itself.
    expect(headers["strict-transport-security"]).toBeUndefined();
    expect(headers["x-powered-by"]).toBeUndefined();
  });
}

test("each page gets a nonce of its own, and every script of the page carries it", async ({
  page,
  browser,
  baseURL,
}) => {
  // A context of the test's browser starts with the admin's cookie unless told otherwise.
  const anonymous = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  try {
    // Pages of the signed-in and of a visitor without an account; a page that does not exist renders too.
    const answers = [
      await page.request.get("/", { maxRedirects: 0 }),
      await page.request.get("/", { maxRedirects: 0 }),
      await page.request.get("/runs", { maxRedirects: 0 }),
      await anonymous.request.get("/login", { maxRedirects: 0 }),
      await page.request.get("/sec-no-such-page", { maxRedirects: 0 }),
    ];
    expect(answers.map((answer) => answer.status())).toEqual([200, 200, 200, 200, 404]);
    const nonces = answers.map((answer) => nonceOf(answer.headers()["content-security-policy"]));
    expect(new Set(nonces).size, nonces.join(" ")).toBe(answers.length);
    for (const [index, answer] of answers.entries()) {
      const scripts = scriptTagsOf(await answer.text());
      // Next.js's bootstrap: its chunks and the inline scripts that stream the page's data.
      expect(scripts.length, answer.url()).toBeGreaterThan(2);
      for (const tag of scripts) expect(tag, answer.url()).toContain(` nonce="${nonces[index]}"`);
    }
  } finally {
    await anonymous.close();
  }
});

test("Strict-Transport-Security is sent when the request came over HTTPS, and only then", async ({ page }) => {
  for (const path of ["/", "/api/health", "/login"]) {
    const overHttps = await page.request.get(path, { headers: { "x-forwarded-proto": "https" }, maxRedirects: 0 });
    expect(overHttps.headers()["strict-transport-security"], path).toBe(HSTS);
    const overHttp = await page.request.get(path, { headers: { "x-forwarded-proto": "http" }, maxRedirects: 0 });
    expect(overHttp.headers()["strict-transport-security"], path).toBeUndefined();
    const direct = await page.request.get(path, { maxRedirects: 0 });
    expect(direct.headers()["strict-transport-security"], path).toBeUndefined();
  }
});

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

test("every dashboard page loads under the policy with no violation, a live run included", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const linkIds = await registerLabLinks(request, "sec", [{ lab: "ab-1g", name: "sec-ab-1g", speedMbps: 1000 }]);
  const linkId = linkIds["sec-ab-1g"]!;
  const { hosts } = await apiCall<{ hosts: Array<{ id: number; name: string }> }>(request, "GET", "/api/hosts");
  const hostId = hosts.find((host) => host.name.startsWith("sec-"))!.id;

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

  // React handles a click: the overview's timeline (drawn in the browser only) switches its
  // range in place, in the same document, instead of following the link.
  await page.goto("/");
  const timeline = page.getByRole("region", { name: "Throughput over time" });
  await expect(timeline.getByTestId("timeline-chart")).toBeVisible();
  await page.evaluate(() => Object.assign(window, { secSameDocument: true }));
  await timeline.getByRole("navigation", { name: "Timeline range" }).getByRole("link", { name: "6 hours" }).click();
  await expect(page).toHaveURL(/\/\?range=6h$/);
  expect(await page.evaluate(() => (window as unknown as { secSameDocument?: boolean }).secSameDocument)).toBe(true);
});
