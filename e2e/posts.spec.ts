import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { apiCall, hostIdsOfLink, registerLabLinks, waitForRunStatus, type RunStatusJson } from "./api";
import { expectAccessibleInBothThemes } from "./axe";
import { ARTIFACTS_DIR, screenshotEverywhere } from "./screenshots";

// Copy as post and Download chart on a real run of the lab: the post in Markdown has the result
// table and both commands with the lab's host names and addresses, and the switch hides them all;
// the copy reaches the clipboard; the chart downloads as a PNG 1200 px wide in the dark theme (the
// size read from the file's header, the background from its pixels); axe passes with the control
// open, in both themes. One page load. Names start with po- so they clash with no other spec's.

const LINK = { lab: "ab-2g5", name: "po-ab", speedMbps: 2500 } as const;

let linkId = 0;
let hostIds: number[] = [];
let runId = 0;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  linkId = (await registerLabLinks(request, "po", [LINK]))[LINK.name]!;
  hostIds = await hostIdsOfLink(request, linkId);
  const run = await apiCall<RunStatusJson>(request, "POST", `/api/links/${linkId}/runs`, { duration: 2, parallel: 2 });
  expect((await waitForRunStatus(request, run.id, ["succeeded", "failed", "cancelled", "interrupted"])).status).toBe(
    "succeeded",
  );
  runId = run.id;
});

test.afterAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  for (const id of hostIds) await apiCall(request, "DELETE", `/api/hosts/${id}`);
  await request.dispose();
});

/** Width and height from a PNG's IHDR chunk (bytes 16-23, big-endian), after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test("a run as a post in Markdown, with the lab's names hidden at one switch, and its chart as a dark PNG 1200 px wide", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const link = await apiCall<{
    a: { host: { name: string }; nic: { address: string } };
    b: { host: { name: string }; nic: { address: string } };
  }>(page.request, "GET", `/api/links/${linkId}`);
  const names = [link.a.host.name, link.b.host.name, LINK.name];
  // Without their prefix length (198.18.81.1/24): the bare address must be gone too.
  const addresses = [link.a.nic.address, link.b.nic.address].map((address) => address.split("/")[0]!);

  await page.goto(`/runs/${runId}`);
  const control = page.getByTestId("copy-as-post");
  await control.getByRole("button", { name: "Copy as post" }).click();
  const text = control.getByLabel("Post text");

  // Markdown: the result table and both commands, with the lab's names and addresses.
  await expect(control.getByLabel("Format")).toHaveValue("markdown");
  await expect(text).toHaveValue(/\| Direction \| Sent \| Received \| Retransmits \| Of line rate \|/);
  await expect(text).toHaveValue(/```sh\n\S*iperf3 -s [^\n]+\n```/);
  await expect(text).toHaveValue(/```sh\n\S*iperf3 -c [^\n]+\n```/);
  const shown = await text.inputValue();
  for (const value of [...names, ...addresses]) expect(shown).toContain(value);

  // One switch hides every host name, link name and address, in the commands too.
  await control.getByRole("switch", { name: "Hide addresses and host names" }).check();
  await expect(text).toHaveValue(/host A → host B/);
  const hidden = await text.inputValue();
  for (const value of [...names, ...addresses]) expect(hidden).not.toContain(value);
  expect(hidden).toMatch(/iperf3 -c \d+\.\d+\.\d+\.x /);

  // Copied to the clipboard, and said so.
  await control.getByRole("button", { name: "Copy to clipboard" }).click();
  await expect(control.getByRole("status")).toHaveText(/^Copied/);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(hidden);

  // BBCode is one choice away.
  await control.getByLabel("Format").selectOption("bbcode");
  await expect(text).toHaveValue(/\[table\]\n\[tr\]\[td\]\[b\]Direction\[\/b\]/);
  await control.getByLabel("Format").selectOption("markdown");

  await expectAccessibleInBothThemes(page, "run page with Copy as post open");
  await screenshotEverywhere(page, "run-copy-as-post");

  // The interval chart as a PNG, in the dark theme whatever the page's.
  const chart = page.getByTestId("download-chart");
  await chart.getByLabel("PNG theme").selectOption("dark");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    chart.getByRole("button", { name: "Download chart" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`wirespeed-run-${runId}.png`);
  const file = path.join(ARTIFACTS_DIR, "run-chart-download-dark.png");
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await download.saveAs(file);
  const bytes = fs.readFileSync(file);
  const size = pngSize(bytes);
  expect(size.width).toBe(1200);
  expect(size.height).toBeGreaterThan(300);
  await expect(chart.getByRole("status")).toHaveText(`Saved wirespeed-run-${runId}.png.`);

  // Dark: the corner is the dark page's colour (slate-950), and the chart drew something lighter.
  const pixels = await page.evaluate(async (base64) => {
    const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))]));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d")!;
    context.drawImage(bitmap, 0, 0);
    const corner = [...context.getImageData(2, 2, 1, 1).data];
    const all = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
    let light = 0;
    for (let index = 0; index < all.length; index += 4)
      if (all[index]! + all[index + 1]! + all[index + 2]! > 300) light += 1;
    return { corner, light };
  }, bytes.toString("base64"));
  expect(pixels.corner.slice(0, 3)).toEqual([2, 6, 23]);
  expect(pixels.light).toBeGreaterThan(1000);
});
