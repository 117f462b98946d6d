import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_MARKER, HOSTILE_STRINGS, openTestApi, type TestApi } from "@/testing/test-api";

let api: TestApi;
let hostId: number;
let otherHostId: number;
beforeAll(async () => {
  api = await openTestApi();
  hostId = (await api.json("POST", "/api/hosts", { name: "nas", address: "198.18.0.1", auth: { method: "local" } }))
    .body.id;
  otherHostId = (
    await api.json("POST", "/api/hosts", { name: "pve", address: "198.18.0.2", auth: { method: "local" } })
  ).body.id;
}, 60_000);
afterAll(async () => {
  await api?.close();
});

let counter = 0;
function nicName(): string {
  counter += 1;
  return `eth${counter}`;
}

describe("POST /api/nics", () => {
  it("creates a NIC with every field and answers 201 with its Location", async () => {
    const response = await api.call("POST", "/api/nics", {
      hostId,
      name: "enp1s0f0",
      address: "198.18.0.1/24",
      speedMbps: 10_000,
      mtu: 9000,
      model: "Intel(R) Ethernet Controller X710 for 10GbE SFP+",
      driver: "i40e",
      mac: "3c:fd:fe:aa:bb:cc",
      pcieLinkSpeed: "8.0 GT/s PCIe",
      pcieLinkWidth: 8,
    });
    expect(response.status).toBe(201);
    const nic = await response.json();
    expect(response.headers.get("location")).toBe(`/api/nics/${nic.id}`);
    expect(nic).toMatchObject({
      hostId,
      host: { id: hostId, name: "nas" },
      name: "enp1s0f0",
      address: "198.18.0.1/24",
      addresses: ["198.18.0.1/24"],
      speedMbps: 10_000,
      mtu: 9000,
      model: "Intel(R) Ethernet Controller X710 for 10GbE SFP+",
      driver: "i40e",
      mac: "3c:fd:fe:aa:bb:cc",
      pcieLinkSpeed: "8.0 GT/s PCIe",
      pcieLinkWidth: 8,
      linkCount: 0,
    });
  });

  it("creates a NIC with only a host and a name, and one with a bare IPv6 address or an address list", async () => {
    const bare = await api.json("POST", "/api/nics", { hostId, name: "vEthernet (Default Switch)" });
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ address: null, addresses: [], speedMbps: null, mtu: null, model: null });
    const v6 = await api.json("POST", "/api/nics", { hostId, name: nicName(), address: "fd00::1" });
    expect(v6.body.addresses).toEqual(["fd00::1"]);
    const list = await api.json("POST", "/api/nics", {
      hostId,
      name: nicName(),
      addresses: ["198.18.5.1/24", "fd00::5/64"],
    });
    expect(list.body).toMatchObject({ address: "198.18.5.1/24", addresses: ["198.18.5.1/24", "fd00::5/64"] });
  });

  it.each([
    [{ hostId: 0 }, "hostId", /whole number from 1 to 2147483647/],
    [{ hostId: "1" }, "hostId", /whole number/],
    [{ name: "" }, "name", /1-64 characters/],
    [{ name: "eth0/../../x" }, "name", /letters, digits/],
    [{ name: ".." }, "name", /starting with a letter or digit/],
    [{ address: "198.18.0.1/33" }, "address", /CIDR/],
    [{ address: "nas.local" }, "address", /IPv4 or IPv6/],
    [{ addresses: "198.18.0.1" }, "addresses", /list of at most 16/],
    [{ addresses: Array.from({ length: 17 }, (_, i) => `198.18.0.${i + 1}`) }, "addresses", /at most 16/],
    [{ addresses: ["198.18.0.1", "bad"] }, "addresses.1", /IPv4 or IPv6/],
    [{ address: "198.18.0.1", addresses: ["198.18.0.2"] }, "addresses", /not be given together with address/],
    [{ speedMbps: 0 }, "speedMbps", /^must be a whole number of Mbit\/s from 1 to 1000000$/],
    [{ speedMbps: 1_000_001 }, "speedMbps", /1 to 1000000/],
    [{ mtu: 67 }, "mtu", /^must be a whole number of bytes from 68 to 65535$/],
    [{ mtu: 65536 }, "mtu", /68 to 65535/],
    [{ model: "m".repeat(129) }, "model", /1-128 characters/],
    [{ model: "two\nlines" }, "model", /without control characters/],
    [{ driver: "i40e; reboot" }, "driver", /letters, digits and _ . -/],
    [{ mac: "3c:fd:fe:aa:bb" }, "mac", /six hex pairs/],
    [{ mac: "3c:fd-fe:aa:bb:cc" }, "mac", /six hex pairs/],
    [{ pcieLinkSpeed: "8 GT/s; x" }, "pcieLinkSpeed", /1-32 characters/],
    [{ pcieLinkWidth: 64 }, "pcieLinkWidth", /^must be a whole number of lanes from 1 to 32$/],
    [{ ip: "198.18.0.1" }, "ip", /not a known field/],
  ])("answers 400 naming the field for %j", async (overrides, field, message) => {
    const { status, body } = await api.json("POST", "/api/nics", { hostId, name: nicName(), ...overrides });
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid");
    expect(body.error.fields).toContainEqual({ field, message: expect.stringMatching(message) });
    expect(body.error.message).toContain(field);
  });

  it("names the missing fields", async () => {
    const { status, body } = await api.json("POST", "/api/nics", {});
    expect(status).toBe(400);
    expect(body.error.fields).toEqual([
      { field: "hostId", message: expect.stringMatching(/^is required: /) },
      { field: "name", message: expect.stringMatching(/^is required: /) },
    ]);
  });

  it("answers 404 naming hostId for an unknown host", async () => {
    const { status, body } = await api.json("POST", "/api/nics", { hostId: 424242, name: "eth0" });
    expect(status).toBe(404);
    expect(body.error).toMatchObject({
      code: "not_found",
      fields: [{ field: "hostId", message: "names no host (424242)" }],
    });
  });

  it("answers 409 for a name the host already uses, and allows it on another host", async () => {
    const name = nicName();
    expect((await api.call("POST", "/api/nics", { hostId, name })).status).toBe(201);
    const clash = await api.json("POST", "/api/nics", { hostId, name });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: "conflict", fields: [{ field: "name" }] });
    expect((await api.call("POST", "/api/nics", { hostId: otherHostId, name })).status).toBe(201);
  });
});

describe("GET /api/nics", () => {
  it("lists every NIC, or one host's with ?hostId=", async () => {
    const mine = await api.json("POST", "/api/nics", { hostId: otherHostId, name: nicName() });
    const all = await api.json("GET", "/api/nics");
    expect(all.status).toBe(200);
    expect(all.body.nics.map((nic: { id: number }) => nic.id)).toContain(mine.body.id);
    const filtered = await api.json("GET", `/api/nics?hostId=${otherHostId}`);
    const idsOf = (nics: Array<{ id: number }>) => nics.map((nic) => nic.id).sort((a, b) => a - b);
    // exactly that host's NICs of the full list, the new one among them
    expect(idsOf(filtered.body.nics)).toEqual(
      idsOf(all.body.nics.filter((nic: { hostId: number }) => nic.hostId === otherHostId)),
    );
    expect(idsOf(filtered.body.nics)).toContain(mine.body.id);
    expect(filtered.body.nics.length).toBeLessThan(all.body.nics.length);
  });

  it("answers 404 for ?hostId= of no host, 400 for one that is no id", async () => {
    expect((await api.json("GET", "/api/nics?hostId=777777")).status).toBe(404);
    const bad = await api.json("GET", "/api/nics?hostId=abc");
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual([{ field: "hostId", message: expect.stringMatching(/whole number/) }]);
  });

  it("gets one NIC, and answers 404 for an unknown id", async () => {
    const created = await api.json("POST", "/api/nics", { hostId, name: nicName(), mtu: 1500 });
    const one = await api.json("GET", `/api/nics/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const missing = await api.json(method, "/api/nics/999999", method === "PATCH" ? { mtu: 1500 } : undefined);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toEqual({ code: "not_found", message: "no NIC has id 999999" });
    }
  });
});

describe("PATCH /api/nics/:id", () => {
  it("changes the fields given, clears with null, and replaces the address list", async () => {
    const created = await api.json("POST", "/api/nics", {
      hostId,
      name: nicName(),
      address: "198.18.9.1/24",
      mtu: 1500,
      model: "X550",
    });
    const patched = await api.json("PATCH", `/api/nics/${created.body.id}`, {
      mtu: 9000,
      model: null,
      address: "198.18.9.2/24",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      mtu: 9000,
      model: null,
      addresses: ["198.18.9.2/24"],
      name: created.body.name,
    });
    const cleared = await api.json("PATCH", `/api/nics/${created.body.id}`, { address: null });
    expect(cleared.body.addresses).toEqual([]);
  });

  it("refuses to move a NIC to another host, and a rename onto a taken name", async () => {
    const first = await api.json("POST", "/api/nics", { hostId, name: nicName() });
    const second = await api.json("POST", "/api/nics", { hostId, name: nicName() });
    const move = await api.json("PATCH", `/api/nics/${second.body.id}`, { hostId: otherHostId });
    expect(move.status).toBe(400);
    expect(move.body.error.fields).toEqual([{ field: "hostId", message: "is not a known field here" }]);
    const clash = await api.json("PATCH", `/api/nics/${second.body.id}`, { name: first.body.name });
    expect(clash.status).toBe(409);
  });
});

describe("DELETE /api/nics/:id", () => {
  it("deletes the NIC and its links, and answers the counts", async () => {
    const a = await api.json("POST", "/api/nics", { hostId, name: nicName(), speedMbps: 1000 });
    const b = await api.json("POST", "/api/nics", { hostId: otherHostId, name: nicName(), speedMbps: 1000 });
    const link = await api.json("POST", "/api/links", { name: "doomed", aNicId: a.body.id, bNicId: b.body.id });
    await api.db.run.create({ data: { linkId: link.body.id, status: "failed", options: {} } });
    const deleted = await api.json("DELETE", `/api/nics/${b.body.id}`);
    expect(deleted.body).toEqual({ deleted: { hosts: 0, nics: 1, links: 1, runs: 1 } });
    expect((await api.call("GET", `/api/links/${link.body.id}`)).status).toBe(404);
    expect((await api.json("GET", `/api/nics/${a.body.id}`)).body.linkCount).toBe(0);
  });
});

describe("hostile strings in NIC fields", () => {
  const textFields = ["name", "address", "model", "driver", "mac", "pcieLinkSpeed"] as const;

  it.each(textFields.flatMap((field) => HOSTILE_STRINGS.map(([label, value]) => [field, label, value] as const)))(
    "%s = %s is refused naming the field, or stored and returned verbatim",
    async (field, _label, value) => {
      const created = await api.json("POST", "/api/nics", { hostId, name: nicName(), [field]: value });
      if (created.status === 400) {
        expect(created.body.error.fields.map((entry: { field: string }) => entry.field)).toEqual([field]);
      } else {
        expect(created.status).toBe(201);
        expect(created.body[field]).toBe(value);
        expect((await api.json("GET", `/api/nics/${created.body.id}`)).body[field]).toBe(value);
      }
    },
  );

  it("ran nothing", () => {
    expect(fs.existsSync(HOSTILE_MARKER)).toBe(false);
  });
});
