import "server-only";
import { db } from "@/lib/db";

export type LinkListItem = Awaited<ReturnType<typeof listLinks>>[number];

const nicSelect = { select: { id: true, name: true, host: { select: { id: true, name: true } } } } as const;

/** Every link with the hosts and NICs at both ends. */
export async function listLinks() {
  return db.link.findMany({
    orderBy: { name: "asc" },
    select: { id: true, name: true, speedMbps: true, aNic: nicSelect, bNic: nicSelect, _count: { select: { runs: true } } },
  });
}
