import fs from "node:fs";
import path from "node:path";
import { adminStorageState } from "./api";
import { expect, expectedResponsesFor, test, watchForProblems, type ExpectedResponse } from "./fixtures";

// The guard of e2e/fixtures.ts can fail: on a context of its own (the test's own page stays
// clean), a real page of the app asks for a missing image, logs an error, throws, loses a
// request, and runs an inline script without the page's nonce, and the guard reports each; a
// response listed as expected is not reported, and an expected one that never came is.

const MISSING = "/no-such-image.png";
const REFUSED = "/refused-by-the-test";

test("the guard reports a console error, an uncaught exception, a failed request and a 404 of a page's resource", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({
    baseURL,
    storageState: adminStorageState(Number(new URL(baseURL!).port)),
  });
  try {
    const missingImage: ExpectedResponse = {
      spec: "fixtures.spec.ts",
      test: "guard",
      path: /^\/no-such-image\.png$/,
      status: 404,
      reason: "provoked",
    };
    const neverAsked: ExpectedResponse = {
      spec: "fixtures.spec.ts",
      test: "guard",
      path: /^\/never-asked$/,
      status: 403,
      reason: "provoked",
    };
    const strict = await watchForProblems(context);
    const lenient = await watchForProblems(context, [missingImage, neverAsked]);
    await context.route(`**${REFUSED}`, (route) => route.abort("failed"));

    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    expect(strict.problems, "the overview itself loads cleanly").toEqual([]);

    await page.evaluate(
      async ({ missing, refused }) => {
        const image = document.createElement("img");
        image.alt = "";
        image.src = missing;
        document.body.append(image);
        await new Promise((resolve) => image.addEventListener("error", resolve));
        console.error("logged by the test");
        setTimeout(() => {
          throw new Error("thrown by the test");
        });
        await fetch(refused).catch(() => undefined);
      },
      { missing: MISSING, refused: REFUSED },
    );
    await expect.poll(() => strict.problems.length).toBeGreaterThanOrEqual(5);
    strict.stop();
    lenient.stop();

    expect(strict.problems).toEqual(
      expect.arrayContaining([
        `404 on /: GET ${MISSING}`,
        expect.stringMatching(
          new RegExp(
            `^console error on /: Failed to load resource: the server responded with a status of 404 .*\\(${MISSING}\\)$`,
          ),
        ),
        "console error on /: logged by the test",
        "uncaught exception on /: thrown by the test",
        `request failed on /: GET ${REFUSED}: net::ERR_FAILED`,
      ]),
    );
    // The expected 404 and Chromium's console line for it are not problems; the rest still are.
    expect(lenient.problems.filter((problem) => problem.includes(MISSING))).toEqual([]);
    expect(lenient.problems).toEqual(strict.problems.filter((problem) => !problem.includes(MISSING)));
    expect(lenient.unused()).toEqual([neverAsked]);
  } finally {
    await context.close();
  }
});

test("the guard reports an inline script the Content-Security-Policy blocks, from the console and the page's event", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({
    baseURL,
    storageState: adminStorageState(Number(new URL(baseURL!).port)),
  });
  try {
    const watch = await watchForProblems(context);
    // What a stored script injection would look like: the overview's HTML with a <script> of
    // its own, which has no nonce, so the policy must stop it.
    await context.route(/\/$/, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        "</body>",
        "<script>window.injectedScriptRan = true;</script></body>",
      );
      expect(html, "the script is in the page").toContain("injectedScriptRan");
      await route.fulfill({ response, body: html });
    });
    const page = await context.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    const hasRun = await page.evaluate(() => (window as unknown as { injectedScriptRan?: boolean }).injectedScriptRan);
    expect(hasRun, "the injected script ran").toBeUndefined();
    await expect.poll(() => watch.problems.length).toBeGreaterThanOrEqual(2);
    watch.stop();
    expect(watch.problems).toHaveLength(2);
    expect(watch.problems).toEqual(
      expect.arrayContaining([
        // Chromium's line, in its older and newer words.
        expect.stringMatching(
          /^console error on \/: (Refused to execute inline script because it|Executing inline script) violates the following Content Security Policy directive:? ["']script-src /,
        ),
        "Content-Security-Policy violation on /: script-src-elem blocked inline",
      ]),
    );
  } finally {
    await context.close();
  }
});

test("expected responses belong to the test that names them, by spec file and title", () => {
  const list: ExpectedResponse[] = [
    { spec: "accounts.spec.ts", test: "a viewer › is sent", path: /^\/users$/, status: 403, reason: "" },
    { spec: "runs.spec.ts", test: "is sent", path: /^\/users$/, status: 403, reason: "" },
  ];
  expect(
    expectedResponsesFor("/repo/e2e/accounts.spec.ts", ["accounts.spec.ts", "a viewer", "is sent to sign in"], list),
  ).toEqual([list[0]]);
  expect(
    expectedResponsesFor("/repo/e2e/accounts.spec.ts", ["accounts.spec.ts", "an operator", "is sent to sign in"], list),
  ).toEqual([]);
});

test("every spec takes test and expect from e2e/fixtures.ts, so that the guard watches its pages", () => {
  const files = fs
    .readdirSync(path.resolve("e2e"))
    .filter((name) => name.endsWith(".spec.ts") || name.endsWith(".setup.ts"));
  expect(files.length).toBeGreaterThan(10);
  // Types may still come from Playwright itself; anything else would be a test without the guard.
  const unguarded = files.filter((name) =>
    /^import (?!type\b)[^;]*from "@playwright\/test";/m.test(fs.readFileSync(path.resolve("e2e", name), "utf8")),
  );
  expect(unguarded).toEqual([]);
});
