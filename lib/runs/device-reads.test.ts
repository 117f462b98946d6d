import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { getDeviceRuns } from "@/lib/runs/device-reads";

const database: TestDatabase = await openTestDatabase();
const { db } = database;
afterAll(() => database.close());

describe("a device's runs by NIC", () => {
  it("lists each NIC by name with its links, whichever end the device is, their newest result and history", async () => {
    const nas = await db.host.create({ data: { name: "nas", address: "127.0.0.1", authMethod: "local" } });
    const phone = await db.host.create({
      data: { name: "phone", address: "", authMethod: "none", access: "device", kind: "phone" },
    });
    const nasNic = await db.nic.create({ data: { hostId: nas.id, name: "eth0", addresses: ["198.18.5.1/24"] } });
    const wifi = await db.nic.create({ data: { hostId: phone.id, name: "Wi-Fi", addresses: [], medium: "wifi" } });
    const ethernet = await db.nic.create({ data: { hostId: phone.id, name: "Ethernet", addresses: ["198.18.5.9"] } });
    const wifiLink = await db.link.create({
      data: { name: "phone-wifi", aNicId: nasNic.id, bNicId: wifi.id, speedMbps: 1200 },
    });
    await db.link.create({ data: { name: "phone-usb", aNicId: ethernet.id, bNicId: nasNic.id, speedMbps: 1000 } });
    const options = { protocol: "tcp", parallel: 1, reverse: false, bidir: false, interval: 1, zerocopy: false };
    for (const [minute, rate] of [
      [1, 3e8],
      [2, 6e8],
    ] as const)
      await db.run.create({
        data: {
          linkId: wifiLink.id,
          status: "succeeded",
          clientSide: "b",
          options,
          receivedBitsPerSecond: rate,
          createdAt: new Date(Date.UTC(2026, 11, 1, 10, minute)),
        },
      });
    const nics = await getDeviceRuns(phone.id);
    expect(nics.map((nic) => [nic.name, nic.address, nic.links.map((link) => link.name)])).toEqual([
      ["Ethernet", "198.18.5.9", ["phone-usb"]],
      ["Wi-Fi", null, ["phone-wifi"]],
    ]);
    expect(nics.map((nic) => nic.medium)).toEqual([null, "wifi"]);
    const [usb] = nics[0]!.links;
    expect(usb).toMatchObject({ otherHostName: "nas", deviceSide: "a", aName: "phone", bName: "nas", latest: null });
    const [wireless] = nics[1]!.links;
    expect(wireless).toMatchObject({ deviceSide: "b", aName: "nas", bName: "phone" });
    expect(wireless!.points.map((point) => point.receivedBitsPerSecond)).toEqual([3e8, 6e8]);
    expect(wireless!.latest).toMatchObject({ receivedBitsPerSecond: 6e8, lineRatePercent: 50 });
    expect(await getDeviceRuns(nas.id + 1000)).toEqual([]);
  });
});
