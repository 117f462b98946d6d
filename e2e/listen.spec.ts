import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, waitForRunStatus, type ApiHost } from "./api";
import { screenshotEverywhere } from "./screenshots";
import { labHost, labLink, requireLabState } from "../testing/lab-targets";

// Listening for a device in the browser, on the lab's b-phone link: an operator asks beta to listen,
// the run page says where to point the phone (address and port, the command, a QR code, the time
// left), the test plays the phone itself (the lab's phone namespace has no sshd) and the page turns
// live, then succeeded near the line rate. A viewer sees the link without the form. Hosts are set up
// through the REST API under names starting with listen-, which no other spec uses.

test.describe.configure({ mode: "serial" });

const SIGNED_OUT = { storageState: { cookies: [], origins: [] } };
const PASSWORD = "listen spec password";
const USERS = { operator: "listen-operator", viewer: "listen-viewer" } as const;
const NAMES = { managed: "listen-beta", device: "listen-phone", link: "listen-b-phone" } as const;

let linkId = 0;
let deviceId = 0;
let runId = 0;
let phoneClient: ChildProcess | null = null;

async function deleteListenHosts(request: Parameters<typeof apiCall>[0]): Promise<void> {
  const { hosts } = await apiCall<{ hosts: ApiHost[] }>(request, "GET", "/api/hosts");
  for (const host of hosts.filter((entry) => entry.name.startsWith("listen-")))
    await apiCall(request, "DELETE", `/api/hosts/${host.id}`);
}

test.beforeAll(async ({ request }) => {
  await deleteListenHosts(request);
  const state = requireLabState();
  const beta = labHost(state, "beta");
  const labNic = beta.nics.find((nic) => nic.link === "b-phone")!;
  const managed = await apiCall<ApiHost>(request, "POST", "/api/hosts", {
    name: NAMES.managed,
    address: beta.sshHost,
    port: beta.sshPort,
    username: beta.username,
    platform: "linux",
    auth: { method: "key", privateKey: fs.readFileSync(state.clientKeyPath, "utf8") },
    hostKeyFingerprint: beta.hostKeyFingerprint,
  });
  await apiCall(request, "POST", `/api/hosts/${managed.id}/check`);
  const managedNic = await apiCall<{ id: number }>(request, "POST", "/api/nics", {
    hostId: managed.id,
    name: labNic.name,
    address: `${labNic.address}/${labNic.prefixLength}`,
    mtu: labNic.mtu,
    speedMbps: 1000,
  });
  const device = await apiCall<ApiHost>(request, "POST", "/api/hosts", {
    name: NAMES.device,
    access: "device",
    kind: "phone",
  });
  deviceId = device.id;
  // A phone's Wi-Fi address comes from DHCP: its NIC has none.
  const deviceNic = await apiCall<{ id: number }>(request, "POST", "/api/nics", {
    hostId: device.id,
    name: "Wi-Fi",
    medium: "wifi",
  });
  linkId = (
    await apiCall<{ id: number }>(request, "POST", "/api/links", {
      name: NAMES.link,
      aNicId: managedNic.id,
      bNicId: deviceNic.id,
      speedMbps: 1000,
    })
  ).id;
});

// Other specs count hosts, links and runs: what this one made goes again, a server still listening first.
test.afterAll(async ({ request }) => {
  if (phoneClient && phoneClient.exitCode === null) phoneClient.kill();
  if (runId) {
    const run = await apiCall<{ status: string }>(request, "GET", `/api/runs/${runId}`);
    if (["queued", "preparing", "listening", "running"].includes(run.status))
      await apiCall(request, "POST", `/api/runs/${runId}/cancel`);
    await waitForRunStatus(request, runId, ["succeeded", "failed", "cancelled", "interrupted"]);
  }
  await deleteListenHosts(request);
});

async function signIn(page: Page, username: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("account-link")).toContainText(username);
}

/** The seconds the listening page's countdown shows (m:ss). */
async function countdownSeconds(page: Page): Promise<number> {
  const text = (await page.getByTestId("listen-countdown").textContent()) ?? "";
  const match = /Time left: (\d+):(\d\d)/.exec(text);
  if (!match) throw new Error(`no countdown in ${JSON.stringify(text)}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** The run page's live chart: how many intervals it holds while the progress bar (a live run) is shown; 0 otherwise. */
async function liveSampleCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const chart = document.querySelector<HTMLElement>('[data-testid="interval-chart"]');
    const isLive = document.querySelector('[data-testid="live-progress"]') !== null;
    const curves = chart?.querySelectorAll("path.recharts-line-curve").length ?? 0;
    return isLive && chart && curves > 0 ? Number(chart.dataset.sampleCount ?? 0) : 0;
  });
}

/** The phone's iperf3 client, run in its lab namespace as its app would; resolves with its exit code and output. */
function runPhoneClient(args: string[]): Promise<{ code: number | null; output: string }> {
  const phone = labHost(requireLabState(), "phone");
  return new Promise((resolve) => {
    const child = spawn("ip", ["netns", "exec", phone.netns, "iperf3", ...args]);
    phoneClient = child;
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("close", (code) => resolve({ code, output }));
  });
}

test("an admin adds an operator and a viewer for the next tests", async ({ page }) => {
  await page.goto("/users");
  for (const [username, role] of [
    [USERS.operator, "operator"],
    [USERS.viewer, "viewer"],
  ] as const) {
    const form = page.getByRole("form", { name: "Add a user" });
    await form.getByLabel("Username").fill(username);
    await form.getByLabel("Password").fill(PASSWORD);
    await form.getByLabel("Role").selectOption(role);
    await form.getByRole("button", { name: "Add user" }).click();
    await expect(page.getByTestId("users-message")).toHaveText(`Created ${username}.`);
  }
});

test.describe("an operator", () => {
  test.use(SIGNED_OUT);

  test("listens for the phone, points it at the address the page shows, and sees its run live", async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const betaAddress = labLink(requireLabState(), "b-phone").a.address;
    await signIn(page, USERS.operator);
    await page.goto(`/links/${linkId}`);
    await expect(page.getByRole("heading", { level: 1, name: NAMES.link })).toBeVisible();
    // A device starts its own client: the link offers Listen, not the New test form.
    const listenForm = page.getByTestId("listen-for-device");
    await expect(listenForm).toContainText(`${NAMES.device} has no SSH`);
    await expect(page.getByRole("form", { name: "New test" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Start test" })).toHaveCount(0);
    await expect(listenForm.getByLabel("Wait for (minutes)")).toHaveValue("5");
    await listenForm.getByRole("button", { name: "Listen for a device" }).click();
    await expect(page).toHaveURL(/\/runs\/\d+$/, { timeout: 20_000 });
    runId = Number(/\/runs\/(\d+)$/.exec(new URL(page.url()).pathname)![1]);

    const panel = page.getByRole("region", { name: `Waiting for ${NAMES.device} to connect` });
    await expect(panel).toBeVisible();
    await expect(page.getByTestId("run-status").first()).toHaveAttribute("data-status", "listening");
    const address = (await panel.getByTestId("listen-address").textContent())!.trim();
    const port = Number((await panel.getByTestId("listen-port").textContent())!.trim());
    expect(address).toBe(betaAddress);
    expect(port).toBeGreaterThan(0);
    // The figures the page shows are the run's own.
    const listening = await apiCall<{ status: string; listen: { address: string; port: number } }>(
      request,
      "GET",
      `/api/runs/${runId}`,
    );
    expect(listening).toMatchObject({ status: "listening", listen: { address, port } });
    await expect(panel.getByTestId("listen-endpoint")).toHaveText(`${address}:${port}`);
    await expect(panel.getByTestId("listen-command")).toHaveText(`iperf3 -c ${address} -p ${port}`);
    await expect(panel.getByRole("button", { name: "Copy the iperf3 command" })).toBeVisible();
    const qr = panel.getByRole("img", { name: `QR code of ${address}:${port}` });
    await expect(qr.locator("svg")).toBeVisible();
    await expect(panel.getByText(`Scan: ${address}:${port}`)).toBeVisible();
    // The countdown starts near the 5 minutes asked for, and goes down.
    await expect.poll(() => countdownSeconds(page).catch(() => -1)).toBeGreaterThan(0);
    const firstLeft = await countdownSeconds(page);
    expect(firstLeft).toBeLessThanOrEqual(300);
    expect(firstLeft).toBeGreaterThan(240);
    await expect.poll(() => countdownSeconds(page), { timeout: 5_000 }).toBeLessThan(firstLeft);
    await screenshotEverywhere(page, "listen-waiting");

    // The phone connects to what the page shows.
    const client = runPhoneClient(["-c", address, "-p", String(port), "-t", "4"]);
    await expect(page.locator('[data-testid="run-status"][data-status="running"]').first()).toBeVisible({
      timeout: 20_000,
    });
    await expect(panel).toHaveCount(0);
    await expect.poll(() => liveSampleCount(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    const { code, output } = await client;
    expect(code, output).toBe(0);

    await expect(page.getByTestId("summary-received")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("run-status").first()).toHaveAttribute("data-status", "succeeded");
    await expect(page.getByTestId("summary-received")).toContainText(/(Mbit|Gbit)\/s/);
    const run = await apiCall<{ status: string; summary: { receivedBitsPerSecond: number | null } | null }>(
      request,
      "GET",
      `/api/runs/${runId}`,
    );
    expect(run.status).toBe("succeeded");
    expect(run.summary?.receivedBitsPerSecond ?? 0).toBeGreaterThan(500e6);
    expect(run.summary?.receivedBitsPerSecond ?? 0).toBeLessThan(1.05e9);
  });
});

test.describe("a viewer", () => {
  test.use(SIGNED_OUT);

  test("sees the device's link and its run, without the Listen form", async ({ page }) => {
    await signIn(page, USERS.viewer);
    await page.goto(`/links/${linkId}`);
    await expect(page.getByRole("heading", { level: 1, name: NAMES.link })).toBeVisible();
    await expect(page.getByText("Starting tests needs the operator or admin role.")).toBeVisible();
    await expect(page.getByTestId("listen-for-device")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Listen for a device" })).toHaveCount(0);
    await expect(page.getByTestId(`run-row-${runId}`)).toBeVisible();
  });

  test("sees the device's page: its runs by NIC, the Wi-Fi side with the run's result and history", async ({
    page,
  }) => {
    await signIn(page, USERS.viewer);
    await page.goto(`/hosts/${deviceId}`);
    const runs = page.getByTestId("device-runs");
    await expect(runs.getByRole("heading", { name: "Runs by NIC" })).toBeVisible();
    await expect(runs.getByRole("heading", { name: /^Wi-Fi/ })).toBeVisible();
    await expect(runs.getByRole("link", { name: NAMES.link })).toBeVisible();
    await expect(runs.getByRole("link", { name: `run ${runId}` })).toBeVisible();
    await expect(runs.getByText(/of the line rate/)).toBeVisible();
    await expect(runs.locator(".recharts-surface").first()).toBeVisible();
    await screenshotEverywhere(page, "device-page");
  });
});
