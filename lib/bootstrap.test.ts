import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { platformOfNode } from "@/lib/platforms";
import { openTestDatabase } from "@/testing/database";
import { ensureLocalHost } from "./bootstrap";

const database = await openTestDatabase();
const { db } = database;

afterAll(() => database.close());

describe("ensureLocalHost", () => {
  it("records this machine once, with the local transport and its real name", async () => {
    await ensureLocalHost();
    await ensureLocalHost();
    const hosts = await db.host.findMany();
    expect(hosts).toHaveLength(1);
    expect(hosts[0]).toMatchObject({
      name: os.hostname(),
      authMethod: "local",
      platform: platformOfNode(process.platform),
    });
  });

  it("keeps its hands off a host the user already named like this machine", async () => {
    await database.reset();
    await db.host.create({ data: { name: os.hostname(), address: "198.18.0.9", authMethod: "key" } });
    await ensureLocalHost();
    const local = await db.host.findFirstOrThrow({ where: { authMethod: "local" } });
    expect(local.name).toBe(`${os.hostname()} (local)`);
    expect(await db.host.count()).toBe(2);
  });
});
