import fs from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, type ApiHost } from "./api";
import { screenshotEverywhere } from "./screenshots";
import { labHost, requireLabState } from "../testing/lab-targets";

// Hosts reached in the new ways, added through the forms as a user would: an SSH host behind a jump
// host (the lab's hidden, whose sshd only gamma reaches), an iperf3 server (appl) and a device (phone).
// Names start with reach-, which no other spec uses.
test.describe.configure({ mode: "serial" });

const NAMES = { jump: "reach-gamma", behind: "reach-hidden", server: "reach-appl", device: "reach-phone" } as const;

async function deleteReachHosts(request: Parameters<typeof apiCall>[0]): Promise<void> {
  const { hosts } = await apiCall<{ hosts: Array<ApiHost & { jumpHostId: number | null }> }>(
    request,
    "GET",
    "/api/hosts",
  );
  const ours = hosts.filter((host) => host.name.startsWith("reach-"));
  // Those reached through another first: a jump host is refused while a host is reached through it.
  ours.sort((a, b) => Number(b.jumpHostId !== null) - Number(a.jumpHostId !== null));
  for (const host of ours) await apiCall(request, "DELETE", `/api/hosts/${host.id}`);
}

test.beforeAll(async ({ request }) => {
  await deleteReachHosts(request);
  // The jump host is set up as a script would: this spec is about the hosts behind it.
  const state = requireLabState();
  const gamma = labHost(state, "gamma");
  await apiCall(request, "POST", "/api/hosts", {
    name: NAMES.jump,
    address: gamma.sshHost,
    port: gamma.sshPort,
    username: gamma.username,
    auth: { method: "key", privateKey: fs.readFileSync(state.clientKeyPath, "utf8") },
    hostKeyFingerprint: gamma.hostKeyFingerprint,
  });
});

test.afterAll(async ({ request }) => {
  await deleteReachHosts(request);
});

async function openAddHostForm(page: Page): Promise<void> {
  await page.goto("/hosts/new");
  await expect(page.getByRole("heading", { level: 1, name: "Add host" })).toBeVisible();
}

async function openHost(page: Page, name: string): Promise<void> {
  await page.goto("/hosts");
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test("an SSH host added through a jump host shows the chain, as links, on its page and in the list", async ({
  page,
}) => {
  const state = requireLabState();
  const hidden = labHost(state, "hidden");
  await openAddHostForm(page);
  await expect(page.getByRole("radio", { name: "SSH (Wirespeed logs in)" })).toBeChecked();
  await page.getByLabel("Name").fill(NAMES.behind);
  await page.getByLabel("Address").fill(hidden.sshHost);
  await page.getByLabel("SSH port").fill(String(hidden.sshPort));
  await page.getByLabel("User").fill(hidden.username);
  // Each choice is named by its own chain; this machine is none of them.
  const reach = page.getByLabel("Reach through");
  await reach.selectOption({ label: NAMES.jump });
  await page.getByRole("radio", { name: "SSH key" }).check();
  await page.getByLabel("Private key").fill(fs.readFileSync(state.clientKeyPath, "utf8"));
  await screenshotEverywhere(page, "host-reach-add-ssh");
  await page.getByRole("button", { name: "Add host" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Host ${NAMES.behind} added` })).toBeVisible();

  await page.getByRole("link", { name: `Go to ${NAMES.behind}` }).click();
  const chain = page.getByTestId("host-chain");
  await expect(chain).toContainText(`Reached through ${NAMES.jump}`);
  await expect(chain).toContainText(NAMES.behind);
  await expect(page.getByTestId("host-access")).toHaveText("SSH");
  await expect(page.getByRole("button", { name: "Check connection" })).toBeVisible();
  // The edit form offers every other SSH host, never this one, and keeps the chosen jump host.
  await expect(page.getByLabel("Reach through")).toHaveValue(/^\d+$/);
  await expect(page.getByLabel("Reach through").getByRole("option", { name: NAMES.behind })).toHaveCount(0);
  await screenshotEverywhere(page, "host-reach-page-jumped");

  await chain.getByRole("link", { name: NAMES.jump }).click();
  await expect(page.getByRole("heading", { level: 1, name: NAMES.jump })).toBeVisible();
  // The jump host cannot be deleted while a host is reached through it: the dialog says which.
  await page.getByRole("button", { name: "Delete host…" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${NAMES.jump}?` });
  await dialog.getByRole("button", { name: `Delete ${NAMES.jump}` }).click();
  await expect(dialog.getByRole("alert").or(dialog.getByRole("status"))).toContainText(
    `${NAMES.behind} is reached through this host`,
  );
  await dialog.getByRole("button", { name: "Keep it" }).click();

  await page.goto("/hosts");
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: NAMES.behind, exact: true }) });
  await expect(row.getByTestId("host-via")).toHaveText(`via ${NAMES.jump}`);
});

test("an iperf3 server is added without credentials, says Wirespeed does not log in, and gets its NIC by hand", async ({
  page,
}) => {
  const appl = labHost(requireLabState(), "appl");
  const nic = appl.nics.find((entry) => entry.link !== null)!;
  await openAddHostForm(page);
  await page.getByRole("radio", { name: "iperf3 server (an appliance or a public server, no login)" }).check();
  await expect(page.getByLabel("Private key")).toHaveCount(0);
  await expect(page.getByLabel("SSH port")).toHaveCount(0);
  await expect(page.getByText("public servers often use 5201-5209")).toBeVisible();
  // Sent empty: each field says what it needs.
  await page.getByRole("button", { name: "Add host" }).click();
  await expect(page.getByTestId("field-error").first()).toBeVisible();
  await screenshotEverywhere(page, "host-reach-add-server-errors");
  await page.getByLabel("Name").fill(NAMES.server);
  await page.getByLabel("Address").fill(nic.address);
  await page.getByLabel("First iperf3 port").fill("5201");
  await page.getByLabel("Last iperf3 port").fill("5201");
  await page.getByRole("button", { name: "Add host" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Host ${NAMES.server} added` })).toBeVisible();

  await openHost(page, NAMES.server);
  await expect(page.getByTestId("host-access")).toHaveText("iperf3 server");
  await expect(page.getByTestId("no-login")).toHaveText(
    "Wirespeed does not log in to this host; add its NICs by hand.",
  );
  await expect(page.getByRole("button", { name: "Check connection" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Discover NICs" })).toHaveCount(0);
  const nicForm = page.getByRole("form", { name: "Add a NIC" });
  await nicForm.getByLabel("NIC name").fill(nic.name);
  await nicForm.getByLabel("Addresses").fill(nic.address);
  await nicForm.getByRole("button", { name: "Add NIC" }).click();
  await expect(nicForm.getByRole("status")).toHaveText(`NIC ${nic.name} added.`);
  await expect(page.getByTestId("nic-addresses")).toContainText(nic.address);
  await screenshotEverywhere(page, "host-reach-page-server");
});

test("a device is added with its kind and no address, and its NIC may have none", async ({ page }) => {
  await openAddHostForm(page);
  await page.getByRole("radio", { name: "Device (phone, TV, laptop: no SSH)" }).check();
  await expect(page.getByLabel("Address")).toHaveCount(0);
  await page.getByLabel("Name").fill(NAMES.device);
  await page.getByLabel("Kind").selectOption("phone");
  await screenshotEverywhere(page, "host-reach-add-device");
  await page.getByRole("button", { name: "Add host" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Host ${NAMES.device} added` })).toBeVisible();

  await openHost(page, NAMES.device);
  await expect(page.getByTestId("host-access")).toHaveText("Device: phone");
  await expect(page.getByTestId("no-login")).toBeVisible();
  const nicForm = page.getByRole("form", { name: "Add a NIC" });
  await nicForm.getByLabel("NIC name").fill("wlan0");
  await nicForm.getByRole("button", { name: "Add NIC" }).click();
  await expect(nicForm.getByRole("status")).toHaveText("NIC wlan0 added.");
  await expect(page.getByTestId("nic-addresses")).toContainText("none");
  // The edit form keeps to a device's fields: its kind changes, access is only shown.
  await page.getByLabel("Kind").selectOption("tablet");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("host-access")).toHaveText("Device: tablet");
  await screenshotEverywhere(page, "host-reach-page-device");

  await page.goto("/hosts");
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: NAMES.device, exact: true }) });
  await expect(row.getByTestId("host-access")).toHaveText("Device: tablet");
  await screenshotEverywhere(page, "host-reach-list");
});
