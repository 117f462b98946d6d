import "server-only";
import { db } from "@/lib/db";
import { runJson } from "@/lib/runs/serialize";

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

const runLinkSelect = { select: { id: true, name: true, speedMbps: true } } as const;

/** One run as the API shows it, with both raw outputs; null when there is none. */
export async function getRunDetail(id: number) {
  const run = await db.run.findUnique({ where: { id }, include: { link: runLinkSelect } });
  if (!run) return null;
  return { ...runJson(run, run.link), output: { server: run.serverOutput, client: run.clientOutput } };
}

/** A link's runs, newest first, one page at a time (without raw output). */
export async function listLinkRuns({ linkId, page = 1, pageSize = 50 }: { linkId: number; page?: number; pageSize?: number }) {
  const [runs, total] = await Promise.all([
    db.run.findMany({
      where: { linkId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      omit: { serverOutput: true, clientOutput: true },
      include: { link: runLinkSelect },
    }),
    db.run.count({ where: { linkId } }),
  ]);
  return { runs: runs.map((run) => runJson({ ...run, serverOutput: "", clientOutput: "" }, run.link)), total, page, pageSize };
}

/** A run's samples in order, from sequence `after` on, at most `limit`. */
export async function listRunSamples({ runId, after = 0, limit = 1000 }: { runId: number; after?: number; limit?: number }) {
  return db.sample.findMany({
    where: { runId, seq: { gte: after } },
    orderBy: { seq: "asc" },
    take: limit,
    omit: { id: true, runId: true },
  });
}
