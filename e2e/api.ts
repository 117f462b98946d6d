import fs from "node:fs";
import { expect, type APIRequestContext } from "@playwright/test";
import { readLabState } from "../testing/lab/lab";

/** The app under test runs with this API token (playwright.config.ts), for set-up through the REST API. */
export const E2E_API_TOKEN = "wirespeed-e2e-token-0123456789abcdef";

/** The admin the app under test is seeded with (WIRESPEED_ADMIN_PASSWORD in playwright.config.ts). */
export const E2E_ADMIN = { username: "admin", password: "e2e admin password" } as const;

/** The build folder of the app under test on `port` (a run on another port builds its own copy). */
export function distDirFor(port: number): string {
  return port === 3100 ? ".next" : `.next-e2e-${port}`;
}

/** The app under test's log (stdout and stderr), which the accounts spec searches for secrets. */
export function serverLogFor(port: number): string {
  return `test-results/server-${port}.log`;
}

/** Where e2e/auth.setup.ts keeps the admin's signed-in browser state, per port. */
export function adminStorageState(port: number): string {
  return `test-results/.auth/admin-${port}.json`;
}

/** A REST call as a script would make it; throws with the answer when the status is not 2xx. */
export async function apiCall<T = unknown>(
  request: APIRequestContext,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  path: string,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(path, { method, data, headers: { authorization: `Bearer ${E2E_API_TOKEN}` } });
  if (!response.ok()) throw new Error(`${method} ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

type Created = { id: number };
export type RunStatusJson = { id: number; status: string };
export type ApiHost = { id: number; name: string };
export type ApiNic = { id: number; name: string; speedMbps: number | null; mtu: number | null; addresses: string[] };

/**
 * Deletes every host but this machine, and with them their NICs, links and runs: a spec whose
 * pages start from an empty inventory makes it so, whatever the specs before it left.
 */
export async function clearInventory(request: APIRequestContext): Promise<void> {
  await endActiveExperiments(request);
  const { hosts } = await apiCall<{ hosts: Array<ApiHost & { authMethod: string }> }>(request, "GET", "/api/hosts");
  for (const host of hosts) if (host.authMethod !== "local") await apiCall(request, "DELETE", `/api/hosts/${host.id}`);
}

/**
 * Cancels every experiment still queued or running (cancel answers once it has ended): a host
 * whose runs are still going cannot be deleted, so a spec that failed mid-experiment must not
 * leave the specs after it unable to clean up.
 */
export async function endActiveExperiments(request: APIRequestContext): Promise<void> {
  const { experiments } = await apiCall<{ experiments: Array<{ id: number; status: string }> }>(
    request,
    "GET",
    "/api/experiments?pageSize=500",
  );
  for (const experiment of experiments.filter((entry) => entry.status === "queued" || entry.status === "running")) {
    await apiCall(request, "POST", `/api/experiments/${experiment.id}/cancel`);
  }
}

/**
 * Registers lab hosts under the given names (key auth, pinned host key) and discovers their
 * NICs, as a user does before creating a link; returns each host with its NICs, by name.
 */
export async function registerLabHosts(
  request: APIRequestContext,
  names: Record<string, string>,
): Promise<Record<string, { host: ApiHost; nics: ApiNic[] }>> {
  const state = readLabState();
  if (!state) throw new Error("the lab is not up (e2e/global-setup.ts brings it up)");
  const privateKey = fs.readFileSync(state.clientKeyPath, "utf8");
  const result: Record<string, { host: ApiHost; nics: ApiNic[] }> = {};
  for (const [name, labName] of Object.entries(names)) {
    const lab = state.hosts.find((entry) => entry.name === labName);
    if (!lab) throw new Error(`the lab has no host ${labName}`);
    const host = await apiCall<ApiHost>(request, "POST", "/api/hosts", {
      name,
      address: lab.sshHost,
      port: lab.sshPort,
      username: lab.username,
      auth: { method: "key", privateKey },
      hostKeyFingerprint: lab.hostKeyFingerprint,
    });
    const { nics } = await apiCall<{ nics: ApiNic[] }>(request, "POST", `/api/hosts/${host.id}/discover`);
    result[name] = { host, nics };
  }
  return result;
}

/** A lab link to register, under its name in the app and with the nominal speed to record. */
export type LabLinkSpec = { lab: string; name: string; speedMbps: number };

/**
 * Registers the two lab hosts of the given lab links as `<prefix>-alpha` and `<prefix>-beta`
 * (key auth, pinned host key, checked so that their iperf3 version is known), their NICs
 * on those links, and the links; returns the links' ids by name. Specs that test runs or
 * the overview set up this way; the hosts and links pages have specs of their own.
 */
export async function registerLabLinks(
  request: APIRequestContext,
  prefix: string,
  links: readonly LabLinkSpec[],
): Promise<Record<string, number>> {
  const state = readLabState();
  if (!state) throw new Error("the lab is not up (e2e/global-setup.ts brings it up)");
  const privateKey = fs.readFileSync(state.clientKeyPath, "utf8");
  const labLinks = links.map((entry) => {
    const labLink = state.links.find((link) => link.name === entry.lab);
    if (!labLink) throw new Error(`the lab has no ${entry.lab} link`);
    return labLink;
  });
  const nicIds = new Map<string, number>();
  for (const [side, hostName] of [
    ["a", labLinks[0]!.a.host],
    ["b", labLinks[0]!.b.host],
  ] as const) {
    const host = state.hosts.find((entry) => entry.name === hostName)!;
    const created = await apiCall<Created>(request, "POST", "/api/hosts", {
      name: `${prefix}-${hostName}`,
      address: host.sshHost,
      port: host.sshPort,
      username: host.username,
      platform: "linux",
      auth: { method: "key", privateKey },
      hostKeyFingerprint: host.hostKeyFingerprint,
    });
    await apiCall(request, "POST", `/api/hosts/${created.id}/check`);
    for (const entry of links) {
      const nic = host.nics.find((candidate) => candidate.link === entry.lab)!;
      const createdNic = await apiCall<Created>(request, "POST", "/api/nics", {
        hostId: created.id,
        name: nic.name,
        address: `${nic.address}/${nic.prefixLength}`,
        mtu: nic.mtu,
        speedMbps: entry.speedMbps,
      });
      nicIds.set(`${side}:${entry.lab}`, createdNic.id);
    }
  }
  const linkIds: Record<string, number> = {};
  for (const entry of links) {
    const link = await apiCall<Created>(request, "POST", "/api/links", {
      name: entry.name,
      aNicId: nicIds.get(`a:${entry.lab}`),
      bNicId: nicIds.get(`b:${entry.lab}`),
      speedMbps: entry.speedMbps,
    });
    linkIds[entry.name] = link.id;
  }
  return linkIds;
}

/**
 * The ids of a link's two hosts, a's then b's: what a spec deletes when it is done, and with them
 * their NICs, the link and everything that ran on it.
 */
export async function hostIdsOfLink(request: APIRequestContext, linkId: number): Promise<number[]> {
  const link = await apiCall<{ a: { host: { id: number } }; b: { host: { id: number } } }>(
    request,
    "GET",
    `/api/links/${linkId}`,
  );
  return [link.a.host.id, link.b.host.id];
}

/** Polls a run until its status is one of `statuses`, and returns it. */
export async function waitForRunStatus(
  request: APIRequestContext,
  runId: number,
  statuses: string[],
  timeoutMs = 60_000,
): Promise<RunStatusJson> {
  let run: RunStatusJson | null = null;
  await expect
    .poll(async () => (run = await apiCall<RunStatusJson>(request, "GET", `/api/runs/${runId}`)).status, {
      timeout: timeoutMs,
      intervals: [500],
    })
    .toMatch(new RegExp(`^(${statuses.join("|")})$`));
  return run!;
}
