import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_MARKER, HOSTILE_STRINGS, openTestApi, type TestApi } from "@/testing/test-api";

let api: TestApi;
let hostA: number;
let hostB: number;
beforeAll(async () => {
  api = await openTestApi();
  hostA = (await api.json("POST", "/api/hosts", { name: "nas", address: "198.18.0.1", auth: { method: "local" } })).body
    .id;
  hostB = (await api.json("POST", "/api/hosts", { name: "pve", address: "198.18.0.2", auth: { method: "local" } })).body
    .id;
}, 60_000);
afterAll(async () => {
  await api?.close();
});

let counter = 0;
async function nic(hostId: number, fields: Record<string, unknown> = {}): Promise<number> {
  counter += 1;
  const response = await api.json("POST", "/api/nics", {
    hostId,
    name: `eth${counter}`,
    address: `198.18.${hostId}.${counter}/24`,
    ...fields,
  });
  expect(response.status).toBe(201);
  return response.body.id;
}

async function pair(
  aFields: Record<string, unknown> = {},
  bFields: Record<string, unknown> = {},
): Promise<[number, number]> {
  return [await nic(hostA, aFields), await nic(hostB, bFields)];
}

describe("POST /api/links", () => {
  it("creates a link with both ends described, and answers 201 with its Location", async () => {
    const [aNicId, bNicId] = await pair({ speedMbps: 10_000, mtu: 9000 }, { speedMbps: 10_000, mtu: 9000 });
    const response = await api.call("POST", "/api/links", {
      name: "nas-pve 10G",
      aNicId,
      bNicId,
      speedMbps: 10_000,
      notes: "DAC",
    });
    expect(response.status).toBe(201);
    const link = await response.json();
    expect(response.headers.get("location")).toBe(`/api/links/${link.id}`);
    expect(link).toMatchObject({
      name: "nas-pve 10G",
      speedMbps: 10_000,
      notes: "DAC",
      mtuMismatch: false,
      runCount: 0,
      a: {
        host: { id: hostA, name: "nas" },
        nic: {
          id: aNicId,
          name: expect.any(String),
          address: expect.stringMatching(/^198\.18\./),
          speedMbps: 10_000,
          mtu: 9000,
        },
      },
      b: { host: { id: hostB, name: "pve" }, nic: { id: bNicId, speedMbps: 10_000, mtu: 9000 } },
    });
  });

  it("defaults speedMbps to the slower NIC's speed, or the one known", async () => {
    const [a1, b1] = await pair({ speedMbps: 2500 }, { speedMbps: 1000 });
    expect((await api.json("POST", "/api/links", { name: "slower", aNicId: a1, bNicId: b1 })).body.speedMbps).toBe(
      1000,
    );
    const [a2, b2] = await pair({}, { speedMbps: 5000 });
    expect(
      (await api.json("POST", "/api/links", { name: "one known", aNicId: a2, bNicId: b2, speedMbps: null })).body
        .speedMbps,
    ).toBe(5000);
  });

  it("answers 400 naming speedMbps when no speed is given and neither NIC has one", async () => {
    const [aNicId, bNicId] = await pair();
    const { status, body } = await api.json("POST", "/api/links", { name: "unknown speed", aNicId, bNicId });
    expect(status).toBe(400);
    expect(body.error.fields).toEqual([
      { field: "speedMbps", message: expect.stringMatching(/required when neither NIC has a speed/) },
    ]);
  });

  it("flags an MTU mismatch only when both MTUs are known and differ", async () => {
    const [a1, b1] = await pair({ speedMbps: 1000, mtu: 9000 }, { speedMbps: 1000, mtu: 1500 });
    expect(
      (await api.json("POST", "/api/links", { name: "jumbo on one side", aNicId: a1, bNicId: b1 })).body.mtuMismatch,
    ).toBe(true);
    const [a2, b2] = await pair({ speedMbps: 1000, mtu: 9000 }, { speedMbps: 1000 });
    expect(
      (await api.json("POST", "/api/links", { name: "one unknown", aNicId: a2, bNicId: b2 })).body.mtuMismatch,
    ).toBe(false);
  });

  it("answers 400 when both ends are the same NIC or on the same host", async () => {
    const [aNicId] = await pair({ speedMbps: 1000 });
    const same = await api.json("POST", "/api/links", { name: "loop", aNicId, bNicId: aNicId });
    expect(same.status).toBe(400);
    expect(same.body.error.fields).toEqual([
      { field: "bNicId", message: expect.stringMatching(/different NIC than aNicId/) },
    ]);
    const sameHost = await api.json("POST", "/api/links", {
      name: "same host",
      aNicId,
      bNicId: await nic(hostA, { speedMbps: 1000 }),
    });
    expect(sameHost.status).toBe(400);
    expect(sameHost.body.error.fields).toEqual([
      { field: "bNicId", message: expect.stringMatching(/another host than aNicId: both are on host nas/) },
    ]);
  });

  it("answers 404 naming the end that names no NIC", async () => {
    const [aNicId] = await pair({ speedMbps: 1000 });
    const { status, body } = await api.json("POST", "/api/links", { name: "dangling", aNicId, bNicId: 888888 });
    expect(status).toBe(404);
    expect(body.error).toMatchObject({
      code: "not_found",
      fields: [{ field: "bNicId", message: "names no NIC (888888)" }],
    });
  });

  it("answers 409 for a second link between the same two NICs, in either order", async () => {
    const [aNicId, bNicId] = await pair({ speedMbps: 1000 }, { speedMbps: 1000 });
    expect((await api.call("POST", "/api/links", { name: "first", aNicId, bNicId })).status).toBe(201);
    expect((await api.call("POST", "/api/links", { name: "again", aNicId, bNicId })).status).toBe(409);
    expect((await api.call("POST", "/api/links", { name: "reversed", aNicId: bNicId, bNicId: aNicId })).status).toBe(
      409,
    );
  });

  it.each([
    [{ name: "" }, "name", /1-64 characters/],
    [{ name: "a|b" }, "name", /letters, digits/],
    [{ aNicId: -1 }, "aNicId", /whole number from 1/],
    [{ bNicId: 1.5 }, "bNicId", /whole number/],
    [{ speedMbps: 0 }, "speedMbps", /1 to 1000000/],
    [{ speedMbps: "1000" }, "speedMbps", /whole number/],
    [{ notes: "n".repeat(2001) }, "notes", /at most 2000/],
    [{ mtu: 1500 }, "mtu", /not a known field/],
  ])("answers 400 naming the field for %j", async (overrides, field, message) => {
    const { status, body } = await api.json("POST", "/api/links", { name: "x", aNicId: 1, bNicId: 2, ...overrides });
    expect(status).toBe(400);
    expect(body.error.fields).toContainEqual({ field, message: expect.stringMatching(message) });
    expect(body.error.message).toContain(field);
  });

  it("names the missing fields", async () => {
    const { body } = await api.json("POST", "/api/links", {});
    expect(body.error.fields.map((entry: { field: string }) => entry.field)).toEqual(["name", "aNicId", "bNicId"]);
  });
});

describe("GET, PATCH and DELETE /api/links/:id", () => {
  it("lists links by name and gets one", async () => {
    const [aNicId, bNicId] = await pair({ speedMbps: 1000 }, { speedMbps: 1000 });
    const created = await api.json("POST", "/api/links", { name: "0-first-by-name", aNicId, bNicId });
    const list = await api.json("GET", "/api/links");
    expect(list.status).toBe(200);
    expect(list.body.links[0]).toEqual(created.body);
    expect((await api.json("GET", `/api/links/${created.body.id}`)).body).toEqual(created.body);
  });

  it.each(["GET", "PATCH", "DELETE"])("%s of an unknown id answers 404", async (method) => {
    const { status, body } = await api.json(
      method,
      "/api/links/999999",
      method === "PATCH" ? { name: "x" } : undefined,
    );
    expect(status).toBe(404);
    expect(body.error).toEqual({ code: "not_found", message: "no link has id 999999" });
  });

  it("renames, sets the speed, resets it to the slower NIC's with null, and rewires an end", async () => {
    const [aNicId, bNicId] = await pair({ speedMbps: 2500, mtu: 1500 }, { speedMbps: 1000, mtu: 1500 });
    const created = await api.json("POST", "/api/links", { name: "before", aNicId, bNicId });
    const id = created.body.id;
    expect((await api.json("PATCH", `/api/links/${id}`, { name: "after", speedMbps: 900 })).body).toMatchObject({
      name: "after",
      speedMbps: 900,
    });
    expect((await api.json("PATCH", `/api/links/${id}`, { speedMbps: null })).body.speedMbps).toBe(1000);
    const jumbo = await nic(hostB, { speedMbps: 10_000, mtu: 9000 });
    const rewired = await api.json("PATCH", `/api/links/${id}`, { bNicId: jumbo });
    expect(rewired.body).toMatchObject({ b: { nic: { id: jumbo, mtu: 9000 } }, mtuMismatch: true, speedMbps: 1000 });
    const sameHost = await api.json("PATCH", `/api/links/${id}`, { bNicId: await nic(hostA) });
    expect(sameHost.status).toBe(400);
    expect(sameHost.body.error.fields[0].field).toBe("bNicId");
  });

  it("refuses to rewire or delete a link while a run is active", async () => {
    const [aNicId, bNicId] = await pair({ speedMbps: 1000 }, { speedMbps: 1000 });
    const created = await api.json("POST", "/api/links", { name: "busy", aNicId, bNicId });
    const run = await api.db.run.create({ data: { linkId: created.body.id, status: "queued", options: {} } });
    expect((await api.call("PATCH", `/api/links/${created.body.id}`, { bNicId: await nic(hostB) })).status).toBe(409);
    expect((await api.call("PATCH", `/api/links/${created.body.id}`, { notes: "still fine" })).status).toBe(200);
    const refused = await api.json("DELETE", `/api/links/${created.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`run ${run.id} queued`);
    await api.db.run.update({ where: { id: run.id }, data: { status: "cancelled" } });
    expect((await api.json("GET", `/api/links/${created.body.id}`)).body.runCount).toBe(1);
    expect((await api.json("DELETE", `/api/links/${created.body.id}`)).body).toEqual({
      deleted: { hosts: 0, nics: 0, links: 1, runs: 1 },
    });
    expect(await api.db.run.count({ where: { id: run.id } })).toBe(0);
    // The NICs stay.
    expect((await api.call("GET", `/api/nics/${aNicId}`)).status).toBe(200);
  });

  it("is gone with either host (cascade)", async () => {
    const hostC = (
      await api.json("POST", "/api/hosts", { name: "temp", address: "198.18.0.3", auth: { method: "local" } })
    ).body.id;
    const aNicId = await nic(hostA, { speedMbps: 1000 });
    const cNicId = await nic(hostC, { speedMbps: 1000 });
    const created = await api.json("POST", "/api/links", { name: "to temp", aNicId, bNicId: cNicId });
    expect((await api.json("DELETE", `/api/hosts/${hostC}`)).body.deleted).toMatchObject({ nics: 1, links: 1 });
    expect((await api.call("GET", `/api/links/${created.body.id}`)).status).toBe(404);
    expect((await api.call("GET", `/api/nics/${aNicId}`)).status).toBe(200);
  });
});

describe("hostile strings in link fields", () => {
  it.each(
    (["name", "notes"] as const).flatMap((field) =>
      HOSTILE_STRINGS.map(([label, value]) => [field, label, value] as const),
    ),
  )("%s = %s is refused naming the field, or stored and returned verbatim", async (field, _label, value) => {
    const [aNicId, bNicId] = await pair({ speedMbps: 1000 }, { speedMbps: 1000 });
    const created = await api.json("POST", "/api/links", { name: "hostile", aNicId, bNicId, [field]: value });
    if (created.status === 400) {
      expect(created.body.error.fields.map((entry: { field: string }) => entry.field)).toEqual([field]);
    } else {
      expect(created.status).toBe(201);
      expect(created.body[field]).toBe(value);
      expect((await api.json("GET", `/api/links/${created.body.id}`)).body[field]).toBe(value);
    }
  });

  it("ran nothing", () => {
    expect(fs.existsSync(HOSTILE_MARKER)).toBe(false);
  });
});
