import "server-only";
import { db } from "@/lib/db";

export type RunListItem = Awaited<ReturnType<typeof listRuns>>["runs"][number];

/** Runs across all links, newest first, one page at a time. */
export async function listRuns({ page = 1, pageSize = 50 }: { page?: number; pageSize?: number } = {}) {
  const [runs, total] = await Promise.all([
    db.run.findMany({
      orderBy: { createdAt: "desc" },
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: {
        id: true,
        status: true,
        createdAt: true,
        receivedBitsPerSecond: true,
        link: { select: { id: true, name: true, speedMbps: true } },
      },
    }),
    db.run.count(),
  ]);
  return { runs, total, page, pageSize };
}
