// Host check and NIC discovery through the REST API, on the lab (real sshd).
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabState } from "@/testing/lab-state";
import { labHost, requireLabState } from "@/testing/lab-targets";
import { openTestApi, type TestApi } from "@/testing/test-api";
import { closeAll } from "@/lib/ssh";

let api: TestApi;
let state: LabState;

beforeAll(async () => {
  api = await openTestApi();
  state = requireLabState();
});

afterAll(async () => {
  await closeAll();
  await api.close();
});

async function addHost(name: string, labName: string): Promise<number> {
  const lab = labHost(state, labName);
  const created = await api.json("POST", "/api/hosts", {
    name,
    address: lab.sshHost,
    username: "root",
    auth: { method: "key", privateKey: fs.readFileSync(state.clientKeyPath, "utf8") },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

describe("first contact, pinning and detection", () => {
  it("shows an unconfirmed host's key without logging in, and refuses discovery until it is pinned", async () => {
    const alpha = labHost(state, "alpha");
    const id = await addHost("alpha-first", "alpha");
    const check = await api.json("POST", `/api/hosts/${id}/check`);
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({
      reachable: true,
      hostKey: { status: "unconfirmed", presented: alpha.hostKeyFingerprint, pinned: null },
      platform: null,
    });
    expect(check.body.error.hint).toMatch(/ssh-keygen -lf/);

    const discover = await api.json("POST", `/api/hosts/${id}/discover`);
    expect(discover.status).toBe(502);
    expect(discover.body.error).toMatchObject({ code: "host_error", kind: "host-key" });

    // The user compared the fingerprint and pins it: an explicit action.
    expect(
      (await api.json("PATCH", `/api/hosts/${id}`, { hostKeyFingerprint: check.body.hostKey.presented })).status,
    ).toBe(200);
    const pinned = await api.json("POST", `/api/hosts/${id}/check`);
    expect(pinned.body).toMatchObject({
      reachable: true,
      hostKey: { status: "pinned" },
      platform: "linux",
      os: "Linux",
      error: null,
    });
    expect(pinned.body.iperf3.version).toMatch(/^3\.\d+/);
    const host = await api.json("GET", `/api/hosts/${id}`);
    expect(host.body).toMatchObject({
      platform: "linux",
      iperf3Version: pinned.body.iperf3.version,
      iperf3Path: pinned.body.iperf3.path,
    });
    expect(host.body.lastSeenAt).not.toBeNull();
  });

  it("discovers the host's NICs with their addresses and MTUs, and updates them when run again", async () => {
    const alpha = labHost(state, "alpha");
    const id = await addHost("alpha-nics", "alpha");
    await api.json("PATCH", `/api/hosts/${id}`, { hostKeyFingerprint: alpha.hostKeyFingerprint });
    const first = await api.json("POST", `/api/hosts/${id}/discover`);
    expect(first.status).toBe(200);
    const byName = Object.fromEntries(first.body.nics.map((nic: { name: string }) => [nic.name, nic]));
    for (const nic of alpha.nics) {
      expect(byName[nic.name], nic.name).toMatchObject({
        address: `${nic.address}/${nic.prefixLength}`,
        mtu: nic.mtu,
        mac: nic.mac,
      });
    }
    const second = await api.json("POST", `/api/hosts/${id}/discover`);
    expect(second.body.nics.map((nic: { id: number }) => nic.id).sort()).toEqual(
      first.body.nics.map((nic: { id: number }) => nic.id).sort(),
    );
  });

  it("names both fingerprints when the host key changed", async () => {
    const beta = labHost(state, "beta");
    const alpha = labHost(state, "alpha");
    const id = await addHost("beta-moved", "beta");
    await api.json("PATCH", `/api/hosts/${id}`, { hostKeyFingerprint: alpha.hostKeyFingerprint });
    const check = await api.json("POST", `/api/hosts/${id}/check`);
    expect(check.body).toMatchObject({
      reachable: true,
      hostKey: { status: "mismatch", presented: beta.hostKeyFingerprint, pinned: alpha.hostKeyFingerprint },
    });
    expect(check.body.error.message).toContain(beta.hostKeyFingerprint);
    expect(check.body.error.message).toContain(alpha.hostKeyFingerprint);
  });

  it("detects this machine through the local transport", async () => {
    const local = await api.json("POST", "/api/hosts", {
      name: "this-box",
      address: "localhost",
      auth: { method: "local" },
    });
    const check = await api.json("POST", `/api/hosts/${local.body.id}/check`);
    expect(check.body).toMatchObject({ reachable: true, hostKey: { status: "local" }, platform: "linux", error: null });
    expect(check.body.iperf3.version).toMatch(/^3\./);
  });
});
