import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { apiCall, clearInventory, registerLabHosts, type ApiHost, type ApiNic } from "./api";
import { screenshotEverywhere } from "./screenshots";
import { requireLabState } from "../testing/lab-targets";

// The spec makes what it needs, whatever the specs before it left: no host but this machine, then
// ui-alpha and ui-beta with their NICs discovered, through the API (hosts.spec.ts adds them through the form).
test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  await clearInventory(request);
});

let labHosts: Record<string, { host: ApiHost; nics: ApiNic[] }> | null = null;

/** ui-alpha and ui-beta, registered by the first test that needs them. */
async function uiHosts(request: APIRequestContext): Promise<Record<string, { host: ApiHost; nics: ApiNic[] }>> {
  labHosts ??= await registerLabHosts(request, { "ui-alpha": "alpha", "ui-beta": "beta" });
  return labHosts;
}

test("the links page says what to do when there are none", async ({ page }) => {
  await page.goto("/links");
  await expect(page.getByRole("heading", { level: 1, name: "Links" })).toBeVisible();
  await expect(page.getByText("No links yet")).toBeVisible();
  await expect(page.getByRole("link", { name: "create a link" })).toBeVisible();
  await screenshotEverywhere(page, "links-empty");
});

test("create a link between ui-alpha eth1 and ui-beta eth1 from the same-subnet suggestion", async ({ page }) => {
  test.setTimeout(180_000);
  const inventory = await uiHosts(page.request);
  const state = requireLabState();
  const alphaEth1 = state.hosts.find((host) => host.name === "alpha")!.nics.find((nic) => nic.name === "eth1")!;
  const subnet = `${alphaEth1.address.replace(/\.\d+$/, ".0")}/${alphaEth1.prefixLength}`;
  const aNic = inventory["ui-alpha"]!.nics.find((nic) => nic.name === "eth1")!;
  const bNic = inventory["ui-beta"]!.nics.find((nic) => nic.name === "eth1")!;
  const slower = Math.min(...[aNic.speedMbps, bNic.speedMbps].filter((speed): speed is number => speed !== null));

  await page.goto("/links");
  await page.getByRole("link", { name: "Create link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create link" })).toBeVisible();

  // The suggestions come first, and the pair on one subnet is among them.
  const suggestion = page
    .getByTestId("suggested-pair")
    .filter({ hasText: "ui-alpha eth1" })
    .filter({ hasText: "ui-beta eth1" });
  await expect(suggestion).toHaveCount(1);
  await expect(suggestion).toContainText(`same subnet ${subnet}`);
  // eth2 pairs sit on another subnet, so eth1 is never suggested with them.
  await expect(
    page.getByTestId("suggested-pair").filter({ hasText: "ui-alpha eth1" }).filter({ hasText: "ui-beta eth2" }),
  ).toHaveCount(0);
  await screenshotEverywhere(page, "link-new");

  // Before choosing the suggestion: a pair with different MTUs is flagged before anything is created.
  await page.getByLabel("A host", { exact: true }).selectOption({ label: "ui-alpha" });
  await page.getByLabel("A NIC", { exact: true }).selectOption(String(aNic.id));
  await page.getByLabel("B host", { exact: true }).selectOption({ label: "ui-beta" });
  const bEth2 = inventory["ui-beta"]!.nics.find((nic) => nic.name === "eth2")!;
  await page.getByLabel("B NIC", { exact: true }).selectOption(String(bEth2.id));
  await expect(page.getByTestId("mtu-warning")).toContainText("MTU mismatch 9000/1500");
  await expect(page.getByText("Not in one subnet")).toBeVisible();
  await screenshotEverywhere(page, "link-new-mtu-mismatch");

  await suggestion.getByRole("button", { name: /^Use / }).click();
  await expect(page.getByLabel("A NIC", { exact: true })).toHaveValue(String(aNic.id));
  await expect(page.getByLabel("B NIC", { exact: true })).toHaveValue(String(bNic.id));
  await expect(page.getByTestId("mtu-warning")).toHaveCount(0);
  await expect(page.getByTestId("pair-subnet")).toHaveText(`Both ends are in ${subnet}.`);
  // The speed starts at the slower NIC's.
  await expect(page.getByLabel("Nominal speed (Mbit/s)")).toHaveValue(String(slower));
  await expect(page.getByTestId("speed-default")).toContainText(`Defaults to the slower NIC's speed: ${slower} Mbit/s`);
  await page.getByLabel("Name").fill("ui-ab-eth1");
  await screenshotEverywhere(page, "link-new-chosen");
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page).toHaveURL(/\/links\/\d+$/);

  const { links } = await apiCall<{
    links: { id: number; name: string; speedMbps: number; a: { nic: { id: number } }; b: { nic: { id: number } } }[];
  }>(page.request, "GET", "/api/links");
  const created = links.find((link) => link.name === "ui-ab-eth1");
  expect(created).toMatchObject({ speedMbps: slower, a: { nic: { id: aNic.id } }, b: { nic: { id: bNic.id } } });
  expect(page.url()).toMatch(new RegExp(`/links/${created!.id}$`));

  await page.goto("/links");
  const row = page.getByTestId(`link-row-${created!.id}`);
  await expect(row).toContainText("ui-alpha eth1");
  await expect(row).toContainText("ui-beta eth1");
  await expect(row.getByRole("link", { name: "ui-ab-eth1" })).toHaveAttribute("href", `/links/${created!.id}`);
  await expect(row.getByTestId("mtu-mismatch")).toHaveCount(0);

  // The pair is linked now: it is no longer suggested.
  await page.goto("/links/new");
  await expect(
    page.getByTestId("suggested-pair").filter({ hasText: "ui-alpha eth1" }).filter({ hasText: "ui-beta eth1" }),
  ).toHaveCount(0);
});

test("a link with different MTUs at its ends carries a badge in the list", async ({ page }) => {
  const inventory = await uiHosts(page.request);
  // alpha eth3 is on a jumbo-frame link, beta eth2 on an MTU 1500 one.
  const alphaEth3 = inventory["ui-alpha"]!.nics.find((nic) => nic.name === "eth3")!;
  const betaEth2 = inventory["ui-beta"]!.nics.find((nic) => nic.name === "eth2")!;
  const link = await apiCall<{ id: number }>(page.request, "POST", "/api/links", {
    name: "ui-mismatch",
    aNicId: alphaEth3.id,
    bNicId: betaEth2.id,
    speedMbps: 1000,
  });
  await page.goto("/links");
  await expect(page.getByTestId(`link-row-${link.id}`).getByTestId("mtu-mismatch")).toContainText(
    "MTU mismatch 9000/1500",
  );
  await screenshotEverywhere(page, "links-list");
});

test("a link's Home Assistant Run again button is turned on and off from its page, and the summary a dashboard reads keeps its shape", async ({
  page,
}) => {
  const { links } = await apiCall<{ links: { id: number; name: string }[] }>(page.request, "GET", "/api/links");
  const link = links.find((entry) => entry.name === "ui-mismatch")!;
  await page.goto(`/links/${link.id}`);
  const section = page.getByTestId("link-home-assistant");
  // The e2e server names no broker: the section says how to turn publishing on.
  await expect(section).toContainText("once WIRESPEED_MQTT_URL names your MQTT broker");
  const toggle = section.getByLabel("Let Home Assistant's Run again button start this link's last test");
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(toggle).toBeChecked();
  await expect
    .poll(
      async () =>
        (await apiCall<{ homeAssistantRunButton: boolean }>(page.request, "GET", `/api/links/${link.id}`))
          .homeAssistantRunButton,
    )
    .toBe(true);
  await section.scrollIntoViewIfNeeded();
  await screenshotEverywhere(page, "link-home-assistant");
  await toggle.uncheck();
  await expect
    .poll(
      async () =>
        (await apiCall<{ homeAssistantRunButton: boolean }>(page.request, "GET", `/api/links/${link.id}`))
          .homeAssistantRunButton,
    )
    .toBe(false);

  // GET /api/summary: the small answer a Homepage customapi widget reads.
  const summary = await apiCall<Record<string, unknown>>(page.request, "GET", "/api/summary");
  expect(Object.keys(summary).sort()).toEqual(["failingLinks", "firingAlerts", "lastRunAt", "links", "slowest"]);
  expect(summary.links).toBeGreaterThanOrEqual(2);
});
