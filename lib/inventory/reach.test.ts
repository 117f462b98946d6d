import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { createHost, deleteHost, getHost, listHosts, updateHost } from "@/lib/inventory/hosts";
import { createNic } from "@/lib/inventory/nics";
import { createLink } from "@/lib/inventory/links";
import { checkHost } from "@/lib/hosts/check";
import { discoverNics } from "@/lib/hosts/discover";

// How a host is reached: over SSH (directly or through up to 3 jump hosts), as an iperf3 server
// Wirespeed does not log in to, or as a device that connects to Wirespeed. Each refusal names its
// field and stores nothing.

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
}, 60_000);
afterAll(() => database?.close());

const key = { method: "password", password: "pw" } as const;
let serial = 0;
const sshHost = (extra: Record<string, unknown> = {}) =>
  createHost({ name: `ssh-${++serial}`, address: `198.18.1.${serial}`, auth: key, ...extra });

async function expectRefused(promise: Promise<unknown>, field: string, message: RegExp, kind = "invalid") {
  await expect(promise).rejects.toMatchObject({ kind, fields: [{ field, message: expect.stringMatching(message) }] });
}

describe("access", () => {
  it("an iperf3-server host has an address and a port range, and no credentials", async () => {
    const server = await createHost({
      name: "isp-server",
      access: "iperf3-server",
      address: "speedtest.example.net",
      iperfPortMin: 5201,
      iperfPortMax: 5209,
    });
    expect(server).toMatchObject({
      access: "iperf3-server",
      authMethod: "none",
      hasSecret: false,
      iperfPortMin: 5201,
      iperfPortMax: 5209,
      kind: null,
      jumpChain: [],
    });
    const before = (await listHosts()).length;
    for (const [field, value] of [
      ["auth", key],
      ["username", "root"],
      ["port", 22],
      ["hostKeyFingerprint", `SHA256:${"A".repeat(43)}`],
    ] as const)
      await expectRefused(
        createHost({ name: `srv-${field}`, access: "iperf3-server", address: "198.18.9.9", [field]: value }),
        field,
        /must be left out: Wirespeed does not log in to an iperf3-server host/,
      );
    await expectRefused(createHost({ name: "srv-noaddr", access: "iperf3-server" }), "address", /is required/);
    await expectRefused(
      createHost({ name: "srv-kind", access: "iperf3-server", address: "198.18.9.9", kind: "tv" }),
      "kind",
      /only a device/,
    );
    expect((await listHosts()).length).toBe(before);
  });

  it("a device has a kind (other by default) and may have no address; credentials are refused", async () => {
    const phone = await createHost({ name: "pixel", access: "device", kind: "phone" });
    expect(phone).toMatchObject({ access: "device", kind: "phone", address: "", authMethod: "none" });
    expect(await createHost({ name: "console", access: "device" })).toMatchObject({ kind: "other" });
    await expectRefused(createHost({ name: "tv", access: "device", kind: "fridge" }), "kind", /one of phone, tablet/);
    await expectRefused(createHost({ name: "tv", access: "device", auth: key }), "auth", /does not log in to a device/);
    const jump = await sshHost();
    await expectRefused(createHost({ name: "tv", access: "device", jumpHostId: jump.id }), "jumpHostId", /device/);
    await expectRefused(createHost({ name: "x", access: "bluetooth" }), "access", /one of ssh, iperf3-server, device/);
  });

  it("an ssh host needs credentials and has no kind; access cannot change", async () => {
    await expectRefused(createHost({ name: "nokey", address: "198.18.9.1" }), "auth", /is required/);
    await expectRefused(sshHost({ kind: "phone" }), "kind", /only a device/);
    const host = await sshHost();
    await expectRefused(updateHost(host.id, { access: "device" }), "access", /cannot change/);
    const device = await createHost({ name: "tablet", access: "device", kind: "tablet" });
    await expectRefused(updateHost(device.id, { username: "root" }), "username", /does not log in/);
    expect(await updateHost(device.id, { kind: "laptop", access: "device" })).toMatchObject({ kind: "laptop" });
  });
});

describe("jump hosts", () => {
  it("chains of up to 3 hops, each shown first hop first", async () => {
    const bastion = await sshHost();
    const second = await sshHost({ jumpHostId: bastion.id });
    const third = await sshHost({ jumpHostId: second.id });
    const far = await sshHost({ jumpHostId: third.id });
    expect((await getHost(far.id)).jumpChain).toEqual([
      { id: bastion.id, name: bastion.name },
      { id: second.id, name: second.name },
      { id: third.id, name: third.name },
    ]);
    const before = (await listHosts()).length;
    await expectRefused(sshHost({ jumpHostId: far.id }), "jumpHostId", /at most 3 jump hosts: this one makes 4/);
    expect((await listHosts()).length).toBe(before);
    // Putting the bastion behind another host makes `far` 4 hops away.
    const other = await sshHost();
    await expectRefused(
      updateHost(bastion.id, { jumpHostId: other.id }),
      "jumpHostId",
      /this one makes 4 for a host reached through this one/,
    );
    expect((await getHost(bastion.id)).jumpHostId).toBeNull();
  });

  it("refuses a loop, this machine, a host not reached over SSH and an unknown id", async () => {
    const a = await sshHost();
    const b = await sshHost({ jumpHostId: a.id });
    await expectRefused(updateHost(a.id, { jumpHostId: b.id }), "jumpHostId", /loop/);
    await expectRefused(updateHost(a.id, { jumpHostId: a.id }), "jumpHostId", /loop/);
    const local = await createHost({ name: `local-${++serial}`, address: "127.0.0.1", auth: { method: "local" } });
    await expectRefused(sshHost({ jumpHostId: local.id }), "jumpHostId", /this machine/);
    await expectRefused(
      createHost({ name: `local-${++serial}`, address: "127.0.0.1", auth: { method: "local" }, jumpHostId: a.id }),
      "jumpHostId",
      /not reached over SSH/,
    );
    const server = await createHost({ name: `srv-${++serial}`, access: "iperf3-server", address: "198.18.9.2" });
    await expectRefused(sshHost({ jumpHostId: server.id }), "jumpHostId", /an iperf3-server host/);
    await expectRefused(sshHost({ jumpHostId: 999_999 }), "jumpHostId", /no host has id 999999/);
    // A jump host may not become this machine while others are reached through it.
    await expectRefused(updateHost(a.id, { auth: { method: "local" } }), "auth", /reached through this host/);
    expect(await updateHost(b.id, { jumpHostId: null })).toMatchObject({ jumpHostId: null, jumpChain: [] });
  });

  it("deleting a host others jump through is a 409 naming them", async () => {
    const bastion = await sshHost();
    const behind = await sshHost({ jumpHostId: bastion.id });
    await expect(deleteHost(bastion.id)).rejects.toMatchObject({
      kind: "conflict",
      message: expect.stringContaining(`${behind.name} is reached through this host`),
      fields: [{ field: "jumpHostId", message: expect.any(String) }],
    });
    await deleteHost(behind.id);
    expect(await deleteHost(bastion.id)).toMatchObject({ hosts: 1 });
  });
});

describe("links", () => {
  it("join a managed NIC to an iperf3 server or a device, never two hosts Wirespeed does not log in to", async () => {
    const managed = await sshHost();
    const server = await createHost({ name: `srv-${++serial}`, access: "iperf3-server", address: "198.18.9.3" });
    const device = await createHost({ name: `dev-${++serial}`, access: "device" });
    const nic = (hostId: number, address?: string) =>
      createNic({ hostId, name: "eth0", ...(address ? { address } : {}), speedMbps: 1000 });
    const [managedNic, serverNic, deviceNic] = [
      await nic(managed.id, "198.18.9.1/24"),
      await nic(server.id, "198.18.9.3/24"),
      // A Wi-Fi phone whose address changes: left empty.
      await nic(device.id),
    ];
    expect(await createLink({ name: `isp-${serial}`, aNicId: managedNic.id, bNicId: serverNic.id })).toMatchObject({
      b: { host: { access: "iperf3-server" } },
    });
    expect(await createLink({ name: `wifi-${serial}`, aNicId: managedNic.id, bNicId: deviceNic.id })).toMatchObject({
      b: { host: { access: "device" }, nic: { address: null } },
    });
    await expectRefused(
      createLink({ name: `none-${serial}`, aNicId: serverNic.id, bNicId: deviceNic.id }),
      "bNicId",
      /must be a NIC of a host Wirespeed logs in to/,
    );
  });
});

describe("check and discovery", () => {
  it("are refused (409) for an iperf3 server and a device: there is nothing to log in to", async () => {
    const server = await createHost({ name: `srv-${++serial}`, access: "iperf3-server", address: "198.18.9.4" });
    const device = await createHost({ name: `dev-${++serial}`, access: "device", kind: "tv" });
    for (const host of [server, device]) {
      await expect(checkHost(host.id)).rejects.toMatchObject({ kind: "conflict", message: /does not log in to it/ });
      await expect(discoverNics(host.id)).rejects.toMatchObject({ kind: "conflict", message: /does not log in to it/ });
    }
  });
});
