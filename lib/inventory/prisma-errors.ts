import "server-only";
import type { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

// Duck-typed on the error code: tests reload modules, so `instanceof` a Prisma class is unreliable.
function prismaCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  const { code } = error as { code: unknown };
  return typeof code === "string" ? code : undefined;
}

/** A unique constraint failed (P2002): a name already taken. */
export function isUniqueViolation(error: unknown): boolean {
  return prismaCode(error) === "P2002";
}

/** The row to update or delete is gone (P2025): deleted by another request meanwhile. */
export function isRecordMissing(error: unknown): boolean {
  return prismaCode(error) === "P2025";
}

/** Runs holding a link: deleting or rewiring it under them would pull the NICs from a live test. */
export const ACTIVE_RUN_STATUSES = ["queued", "preparing", "running"] as const;

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
