import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";

// The inventory functions called directly, as server actions will call them.
let database: TestDatabase;
let inventory: {
  hosts: typeof import("@/lib/inventory/hosts");
  nics: typeof import("@/lib/inventory/nics");
  links: typeof import("@/lib/inventory/links");
  db: typeof import("@/lib/db").db;
};

beforeAll(async () => {
  database = await openTestDatabase();
  const [hosts, nics, links] = await Promise.all([
    import("@/lib/inventory/hosts"),
    import("@/lib/inventory/nics"),
    import("@/lib/inventory/links"),
  ]);
  inventory = { hosts, nics, links, db: database.db };
}, 60_000);
afterAll(() => database?.close());

describe("inventory functions", () => {
  it("create, read, update and delete without HTTP", async () => {
    const { hosts, nics, links } = inventory;
    const a = await hosts.createHost({
      name: "a",
      address: "198.18.0.1",
      auth: { method: "password", password: "pw" },
    });
    const b = await hosts.createHost({ name: "b", address: "198.18.0.2", auth: { method: "local" } });
    expect(a).toMatchObject({ hasSecret: true, authMethod: "password" });
    expect(a).not.toHaveProperty("secret");
    const aNic = await nics.createNic({
      hostId: a.id,
      name: "eth0",
      address: "198.18.0.1/24",
      speedMbps: 1000,
      mtu: 1500,
    });
    const bNic = await nics.createNic({
      hostId: b.id,
      name: "eth0",
      address: "198.18.0.2/24",
      speedMbps: 2500,
      mtu: 9000,
    });
    const link = await links.createLink({ name: "a-b", aNicId: aNic.id, bNicId: bNic.id });
    expect(link).toMatchObject({ speedMbps: 1000, mtuMismatch: true });
    expect((await hosts.getHost(a.id)).nicCount).toBe(1);
    expect((await nics.listNics({ hostId: b.id })).map((nic) => nic.id)).toEqual([bNic.id]);
    expect((await links.updateLink(link.id, { notes: "n" })).notes).toBe("n");
    expect(link.baselineRuns).toBe(10);
    expect((await links.updateLink(link.id, { baselineRuns: 20 })).baselineRuns).toBe(20);
    await expect(links.updateLink(link.id, { baselineRuns: 0 })).rejects.toMatchObject({
      kind: "invalid",
      fields: [{ field: "baselineRuns", message: expect.stringMatching(/from 1 to 100/) }],
    });
    expect(await hosts.deleteHost(a.id)).toEqual({ hosts: 1, nics: 1, links: 1, runs: 0 });
    expect(await links.listLinks()).toEqual([]);
  });

  it("throw AppErrors with kind and fields, for server actions to return as { errors }", async () => {
    const { hosts } = inventory;
    await expect(hosts.createHost({ name: "", address: "x", auth: { method: "local" } })).rejects.toMatchObject({
      name: "AppError",
      kind: "invalid",
      fields: [{ field: "name", message: expect.any(String) }],
    });
    await expect(hosts.getHost(123456)).rejects.toMatchObject({
      name: "InventoryError",
      kind: "not-found",
      message: "no host has id 123456",
    });
    await expect(hosts.getHost(0)).rejects.toMatchObject({
      kind: "invalid",
      fields: [{ field: "id", message: expect.stringMatching(/whole number/) }],
    });
  });
});
