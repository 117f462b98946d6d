import "server-only";
import type { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ACTIVE_RUN_STATUSES } from "@/lib/runs/contract";

// Runs holding a link, a NIC or a host: deleting or rewiring it under them would pull the NICs from a live test.

/** The first queued or running run matching `where`, if any. */
export async function activeRunOf(
  client: Pick<typeof db, "run">,
  where: Prisma.RunWhereInput,
): Promise<{ id: number; status: string } | null> {
  return client.run.findFirst({
    where: { ...where, status: { in: [...ACTIVE_RUN_STATUSES] } },
    select: { id: true, status: true },
    orderBy: { id: "asc" },
  });
}
