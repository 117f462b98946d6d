import path from "node:path";
import {
  test as base,
  type BrowserContext,
  type ConsoleMessage,
  type Request,
  type Response,
  type WebError,
} from "@playwright/test";

// What every spec imports `test` and `expect` from. Its `context` (and so `page`, and any page
// opened in it) is watched for what a person would see in the browser's console: a console
// error, an uncaught exception, a request that failed, a resource answered with a status of
// 400 or more, and a script, style or connection the Content-Security-Policy blocked (Chromium's
// console line for it, and the page's securitypolicyviolation event). Any of them fails the test
// that saw it, at its end, listing each with its page.
// Responses a test provokes on purpose are in EXPECTED_RESPONSES, and nowhere else.

export { expect } from "@playwright/test";

/** A response a test provokes on purpose; any other response of 400 or more fails it. */
export type ExpectedResponse = {
  /** The spec file under e2e/ and a part of the test's title (its describe blocks included). */
  spec: string;
  test: string;
  /** The path (with its query) and the status of the response. */
  path: RegExp;
  status: number;
  reason: string;
};

/**
 * The only responses of 400 or more a page may get, each where a test asks for it. An entry that
 * its test no longer provokes fails that test: the list holds nothing that is not needed.
 */
export const EXPECTED_RESPONSES: readonly ExpectedResponse[] = [];

/** What the guard saw; `problems` are those not expected. */
export type ProblemWatch = {
  problems: string[];
  /** The expected responses that did not happen. */
  unused: () => ExpectedResponse[];
  stop: () => void;
};

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

function pageOf(item: ConsoleMessage | Request): string {
  try {
    const page = "frame" in item ? item.frame().page() : item.page();
    return page ? pathOf(page.url()) : "(no page)";
  } catch {
    // A request of a service worker has no frame.
    return "(no page)";
  }
}

/** Chromium's console line for a resource answered with an error status, and the resource's address. */
const FAILED_RESOURCE = /^Failed to load resource: the server responded with a status of (\d+)/;

/** Names the page function each watch of a context gets its pages' violation events through. */
let violationBindings = 0;

/** Watches every page of `context`, those it opens later included. */
export async function watchForProblems(
  context: BrowserContext,
  expected: readonly ExpectedResponse[] = [],
): Promise<ProblemWatch> {
  const problems: string[] = [];
  let isWatching = true;
  const used = new Set<ExpectedResponse>();
  const expectedFor = (url: string, status: number) =>
    expected.find((entry) => entry.status === status && entry.path.test(pathOf(url)));

  const onConsole = (message: ConsoleMessage) => {
    if (message.type() !== "error") return;
    const resourceUrl = message.location().url;
    const failed = FAILED_RESOURCE.exec(message.text());
    // The line Chromium writes for an expected response is that response, already accounted for.
    if (failed && expectedFor(resourceUrl, Number(failed[1]))) return;
    problems.push(
      `console error on ${pageOf(message)}: ${message.text()}${resourceUrl ? ` (${pathOf(resourceUrl)})` : ""}`,
    );
  };
  const onWebError = (error: WebError) => {
    const page = error.page();
    problems.push(`uncaught exception on ${page ? pathOf(page.url()) : "(no page)"}: ${error.error().message}`);
  };
  const onRequestFailed = (request: Request) => {
    const failure = request.failure()?.errorText ?? "failed";
    // Aborted by the page itself: a navigation away, a closed live stream, a cancelled fetch or
    // prefetch. Nothing failed that the page still wanted.
    if (failure === "net::ERR_ABORTED") return;
    problems.push(`request failed on ${pageOf(request)}: ${request.method()} ${pathOf(request.url())}: ${failure}`);
  };
  const onResponse = (response: Response) => {
    const status = response.status();
    if (status < 400) return;
    const entry = expectedFor(response.url(), status);
    if (entry) {
      used.add(entry);
      return;
    }
    problems.push(
      `${status} on ${pageOf(response.request())}: ${response.request().method()} ${pathOf(response.url())}`,
    );
  };

  // A page function cannot be taken back: once stopped, it drops what it is told.
  const binding = `wirespeedReportViolation${(violationBindings += 1)}`;
  await context.exposeBinding(binding, ({ page }, text: string) => {
    if (isWatching) problems.push(`Content-Security-Policy violation on ${pathOf(page.url())}: ${text}`);
  });
  await context.addInitScript((name: string) => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as Record<string, (text: string) => void>)[name];
      report?.(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"}`);
    });
  }, binding);
  context.on("console", onConsole);
  context.on("weberror", onWebError);
  context.on("requestfailed", onRequestFailed);
  context.on("response", onResponse);
  return {
    problems,
    unused: () => expected.filter((entry) => !used.has(entry)),
    stop() {
      isWatching = false;
      context.off("console", onConsole);
      context.off("weberror", onWebError);
      context.off("requestfailed", onRequestFailed);
      context.off("response", onResponse);
    },
  };
}

/** The entries of EXPECTED_RESPONSES that belong to a test, by its file and title. */
export function expectedResponsesFor(
  file: string,
  titlePath: readonly string[],
  list: readonly ExpectedResponse[] = EXPECTED_RESPONSES,
): ExpectedResponse[] {
  const title = titlePath.join(" › ");
  return list.filter((entry) => entry.spec === path.basename(file) && title.includes(entry.test));
}

export const test = base.extend({
  // Playwright's `use` is named `provide` here: the React rules of hooks would take it for React's `use`.
  context: async ({ context }, provide, testInfo) => {
    const expected = expectedResponsesFor(testInfo.file, testInfo.titlePath);
    const watch = await watchForProblems(context, expected);
    await provide(context);
    watch.stop();
    const lines = [...watch.problems];
    // Only a test that ran to its end has provoked everything it was meant to.
    if (testInfo.status === testInfo.expectedStatus) {
      for (const entry of watch.unused())
        lines.push(
          `expected ${entry.status} on ${entry.path} never came: remove it from EXPECTED_RESPONSES (e2e/fixtures.ts)`,
        );
    }
    if (lines.length > 0) throw new Error(`the browser reported ${lines.length} problem(s):\n  ${lines.join("\n  ")}`);
  },
});
