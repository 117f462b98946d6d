import "server-only";
import { db } from "@/lib/db";
import { addressesOf } from "@/lib/inventory/nics";
import { listLinkHistory } from "@/lib/runs/link-reads";
import { lineRatePercent } from "@/lib/runs/serialize";

// A device's page: its runs by NIC (the Wi-Fi side and the Ethernet side next to each other),
// each of the NIC's links with its history as a link's page draws it.

/** Runs drawn per link on a device's page: the newest. */
const DEVICE_HISTORY_POINTS = 200;

export type DeviceLinkRuns = {
  linkId: number;
  name: string;
  speedMbps: number;
  /** the host at the other end, which listens for the device */
  otherHostName: string;
  /** which end of the link the device is: its history names a-to-b and b-to-a from the link's ends */
  deviceSide: "a" | "b";
  aName: string;
  bName: string;
  points: Awaited<ReturnType<typeof listLinkHistory>>;
  latest: { runId: number; receivedBitsPerSecond: number; lineRatePercent: number | null; at: string } | null;
};

export type DeviceNicRuns = {
  nicId: number;
  name: string;
  /** ethernet | wifi, as entered; null when not said */
  medium: string | null;
  address: string | null;
  links: DeviceLinkRuns[];
};

/** Each NIC of a device with its links' histories, NICs by name. */
export async function getDeviceRuns(hostId: number): Promise<DeviceNicRuns[]> {
  const end = { select: { host: { select: { name: true } } } } as const;
  const nics = await db.nic.findMany({
    where: { hostId },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    select: {
      id: true,
      name: true,
      addresses: true,
      medium: true,
      host: { select: { name: true } },
      linksAsA: { select: { id: true, name: true, speedMbps: true, bNic: end }, orderBy: { name: "asc" } },
      linksAsB: { select: { id: true, name: true, speedMbps: true, aNic: end }, orderBy: { name: "asc" } },
    },
  });
  return Promise.all(
    nics.map(async (nic) => {
      const links = [
        ...nic.linksAsA.map((link) => ({ ...link, deviceSide: "a" as const, other: link.bNic.host.name })),
        ...nic.linksAsB.map((link) => ({ ...link, deviceSide: "b" as const, other: link.aNic.host.name })),
      ];
      return {
        nicId: nic.id,
        name: nic.name,
        medium: nic.medium,
        address: addressesOf(nic.addresses)[0] ?? null,
        links: await Promise.all(
          links.map(async (link): Promise<DeviceLinkRuns> => {
            const points = await listLinkHistory({ linkId: link.id, limit: DEVICE_HISTORY_POINTS });
            const newest = points.at(-1);
            return {
              linkId: link.id,
              name: link.name,
              speedMbps: link.speedMbps,
              otherHostName: link.other,
              deviceSide: link.deviceSide,
              aName: link.deviceSide === "a" ? nic.host.name : link.other,
              bName: link.deviceSide === "b" ? nic.host.name : link.other,
              points,
              latest: newest
                ? {
                    runId: newest.id,
                    receivedBitsPerSecond: newest.receivedBitsPerSecond,
                    lineRatePercent: lineRatePercent(newest.receivedBitsPerSecond, link.speedMbps),
                    at: newest.time,
                  }
                : null,
            };
          }),
        ),
      };
    }),
  );
}
