import fs from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, clearInventory } from "./api";
import type { LabHost } from "../testing/lab-state";
import { screenshotEverywhere } from "./screenshots";
import { labHost, requireLabState } from "../testing/lab-targets";

// Hosts are added through the pages as a user would; names avoid alpha/beta/esx and run-*, which other specs use.
test.describe.configure({ mode: "serial" });

// The list starts empty whatever the specs before this one left: its empty state is the first thing shown.
test.beforeAll(async ({ request }) => {
  await clearInventory(request);
});

/** Fills the add-host form for a lab host with key auth; `useFile` reads the key through the file chooser. */
async function fillAddHostForm(page: Page, name: string, host: LabHost, keyPath: string, { useFile = false } = {}) {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Address").fill(host.sshHost);
  await page.getByLabel("SSH port").fill(String(host.sshPort));
  await page.getByLabel("User").fill(host.username);
  await page.getByRole("radio", { name: "SSH key" }).check();
  if (useFile) await page.getByLabel("Or choose a key file").setInputFiles(keyPath);
  else await page.getByLabel("Private key").fill(fs.readFileSync(keyPath, "utf8"));
}

/** Tab and Shift+Tab, each more times than the dialog has controls: focus never leaves it. */
async function expectFocusKeptIn(page: Page, dialog: Locator): Promise<void> {
  expect(
    await dialog.evaluate((element) => element.contains(document.activeElement)),
    "focus is in the dialog when it opens",
  ).toBe(true);
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let press = 0; press < 6; press += 1) {
      await page.keyboard.press(key);
      expect(
        await dialog.evaluate((element) => element.contains(document.activeElement)),
        `focus after ${press + 1}× ${key}`,
      ).toBe(true);
    }
  }
}

async function addLabHostThroughForm(
  page: Page,
  name: string,
  labName: string,
  { useFile = false, screenshots = false } = {},
) {
  const state = requireLabState();
  const host = labHost(state, labName);
  await page.goto("/hosts");
  await page.getByRole("link", { name: "Add host" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Add host" })).toBeVisible();
  await fillAddHostForm(page, name, host, state.clientKeyPath, { useFile });
  if (useFile) await expect(page.getByLabel("Private key")).toHaveValue(/BEGIN OPENSSH PRIVATE KEY/);
  if (screenshots) await screenshotEverywhere(page, "host-add-form");
  await page.getByRole("button", { name: "Add host" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Host ${name} added` })).toBeVisible();

  await page.getByRole("button", { name: "Test connection" }).click();
  // First contact: the key the host presents, exactly the lab's, and nothing trusted yet, in a
  // dialog that keeps the keyboard inside it.
  const keyDialog = page.getByRole("dialog", { name: `Confirm the host key of ${name}` });
  await expect(keyDialog).toBeVisible();
  await expect(keyDialog.getByRole("button", { name: "It does not match" })).toBeFocused();
  await expectFocusKeptIn(page, keyDialog);
  await expect(page.getByTestId("presented-fingerprint")).toHaveText(host.hostKeyFingerprint);
  await expect(page.getByText("ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub")).toBeVisible();
  if (screenshots) await screenshotEverywhere(page, "host-add-fingerprint");

  await page.getByRole("button", { name: "It matches: trust this key" }).click();
  const result = page.getByTestId("check-result");
  await expect(result).toBeVisible({ timeout: 30_000 });
  // The dialog closed, and focus went back to the button that asked for the check.
  await expect(keyDialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Test again" })).toBeFocused();
  await expect(result.getByTestId("check-platform")).toContainText("Linux");
  await expect(result.getByTestId("check-iperf3")).toContainText(/^3\.\d+/);
  if (screenshots) await screenshotEverywhere(page, "host-add-ready");

  await page.getByRole("link", { name: `Go to ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("host-platform")).toHaveText("Linux");
  await expect(page.getByTestId("host-iperf3")).toContainText(/3\.\d+/);
  await expect(page.getByTestId("host-key")).toContainText(host.hostKeyFingerprint);
}

async function discoverAndSeeEth1(page: Page, labName: string, { screenshots = false } = {}) {
  const eth1 = labHost(requireLabState(), labName).nics.find((nic) => nic.name === "eth1");
  if (!eth1) throw new Error(`lab host ${labName} has no eth1`);
  await expect(page.getByText("No NICs yet")).toBeVisible();
  if (screenshots) await screenshotEverywhere(page, "host-page-no-nics");
  await page.getByRole("button", { name: "Discover NICs" }).click();
  await expect(page.getByTestId("discover-result")).toContainText(/Found \d+ NICs: .*eth1/, { timeout: 30_000 });
  const row = page.getByTestId("nic-row-eth1");
  await expect(row.getByTestId("nic-addresses")).toContainText(`${eth1.address}/${eth1.prefixLength}`);
  expect(eth1.address).toMatch(/^198\.18\.\d+\.\d+$/);
  await expect(row.getByTestId("nic-mtu")).toHaveText("9000");
}

test("add lab host alpha as ui-alpha with a pasted key, confirm its fingerprint, see Linux and iperf3", async ({
  page,
}) => {
  // SSH to the lab and 16 screenshots: slower than most tests when the machine is busy.
  test.setTimeout(180_000);
  await page.goto("/hosts");
  await expect(page.getByRole("heading", { level: 1, name: "Hosts" })).toBeVisible();
  await expect(page.getByText("No other hosts yet")).toBeVisible();
  await screenshotEverywhere(page, "hosts-empty");
  await addLabHostThroughForm(page, "ui-alpha", "alpha", { screenshots: true });
  await discoverAndSeeEth1(page, "alpha", { screenshots: true });
  await screenshotEverywhere(page, "host-page");
});

test("add lab host beta as ui-beta with a key file, then discover its NICs", async ({ page }) => {
  test.setTimeout(120_000);
  await addLabHostThroughForm(page, "ui-beta", "beta", { useFile: true });
  await discoverAndSeeEth1(page, "beta");

  await page.goto("/hosts");
  for (const name of ["ui-alpha", "ui-beta"]) {
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
    await expect(row).toContainText("Linux");
    await expect(row).toContainText(/3\.\d+/);
    await expect(row.getByTestId("host-status")).toHaveText("Reachable");
    await expect(row).toContainText(/just now|minute/);
  }
  await screenshotEverywhere(page, "hosts-list");

  // A pinned host checks again from its own page, logging in this time.
  await page.getByRole("link", { name: "ui-beta", exact: true }).click();
  await page.getByRole("button", { name: "Check connection" }).click();
  await expect(page.getByRole("heading", { name: "ui-beta is ready for tests" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("check-iperf3")).toContainText(/^3\.\d+/);
  await screenshotEverywhere(page, "host-page-checked");
});

test("a port out of range is refused with the server's message beside the field", async ({ page }) => {
  const state = requireLabState();
  await page.goto("/hosts/new");
  await fillAddHostForm(page, "ui-bad-port", labHost(state, "alpha"), state.clientKeyPath);
  await page.getByLabel("SSH port").fill("70000");
  await page.getByRole("button", { name: "Add host" }).click();
  const port = page.getByLabel("SSH port");
  await expect(port).toHaveAttribute("aria-invalid", "true");
  await expect(port).toHaveAccessibleDescription(/must be a whole number from 1 to 65535/);
  await expect(page.getByRole("alert").filter({ hasText: "The host was not added" })).toBeVisible();
  // The other fields were fine: only the port is marked.
  await expect(page.getByLabel("Name")).not.toHaveAttribute("aria-invalid", "true");
  await screenshotEverywhere(page, "host-add-invalid");
  const hosts = await apiCall<{ hosts: { name: string }[] }>(page.request, "GET", "/api/hosts");
  expect(hosts.hosts.map((host) => host.name)).not.toContain("ui-bad-port");
});

test("delete a host after a confirmation that names its NICs, links and runs", async ({ page }) => {
  const state = requireLabState();
  const beta = labHost(state, "beta");
  // Set up through the API: what this test is about is the delete dialog.
  const doomed = await apiCall<{ id: number }>(page.request, "POST", "/api/hosts", {
    name: "ui-doomed",
    address: beta.sshHost,
    auth: { method: "key", privateKey: fs.readFileSync(state.clientKeyPath, "utf8") },
    hostKeyFingerprint: beta.hostKeyFingerprint,
  });
  const peer = await apiCall<{ id: number }>(page.request, "POST", "/api/hosts", {
    name: "ui-doomed-peer",
    address: "198.51.100.20",
    auth: { method: "password", password: "unused" },
  });
  const nicA = await apiCall<{ id: number }>(page.request, "POST", "/api/nics", {
    hostId: doomed.id,
    name: "eth7",
    address: "198.51.100.1/24",
    speedMbps: 1000,
    mtu: 1500,
  });
  await apiCall(page.request, "POST", "/api/nics", { hostId: doomed.id, name: "eth8" });
  const nicB = await apiCall<{ id: number }>(page.request, "POST", "/api/nics", {
    hostId: peer.id,
    name: "eth0",
    address: "198.51.100.2/24",
    speedMbps: 1000,
    mtu: 1500,
  });
  await apiCall(page.request, "POST", "/api/links", { name: "ui-doomed-link", aNicId: nicA.id, bNicId: nicB.id });

  await page.goto(`/hosts/${doomed.id}`);
  // By keyboard: the dialog opens on the safe choice and keeps focus inside.
  const opener = page.getByRole("button", { name: "Delete host…" });
  await opener.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Delete ui-doomed?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Keep it" })).toBeFocused();
  await expectFocusKeptIn(page, dialog);
  await expect(dialog.getByTestId("delete-impact")).toHaveText(
    "This deletes ui-doomed with its 2 NICs, 1 link and 0 runs. It cannot be undone.",
  );
  await screenshotEverywhere(page, "host-delete-dialog");
  // Escape keeps it, and focus is back on the button that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await page.getByRole("button", { name: "Delete host…" }).click();
  await dialog.getByRole("button", { name: "Delete ui-doomed" }).click();
  await expect(page).toHaveURL(/\/hosts$/);
  await expect(page.getByRole("link", { name: "ui-doomed", exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "ui-doomed-peer", exact: true })).toBeVisible();
  const links = await apiCall<{ links: { name: string }[] }>(page.request, "GET", "/api/links");
  expect(links.links.map((link) => link.name)).not.toContain("ui-doomed-link");
  await apiCall(page.request, "DELETE", `/api/hosts/${peer.id}`);
});
