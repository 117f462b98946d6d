import "server-only";
import { db } from "@/lib/db";

// One run or experiment per link at a time across every instance on the database. Within one
// instance the link queue (link-queue.ts) orders the runs; when a run's turn comes there, it also
// takes its links here: a LinkHold row per link, whose primary key (the link id) lets one holder in,
// whichever instance asks. The rows are taken all together in one INSERT (all or none) and deleted
// when the run or experiment ends. A link another instance holds is tried again until it is free:
// the queue on the other instance is what orders those runs. The rows of an instance that dies are
// deleted by the instance that takes over its runs (lib/instances/registry.ts).

/** Who holds the links: a run (the first of runs that go together) or an experiment. */
export type LinkHolder = { runId: number } | { experimentId: number };

const RETRY_MS = 500;

function rowsOf(instance: string, linkIds: number[], holder: LinkHolder) {
  return [...new Set(linkIds)].map((linkId) => ({
    linkId,
    instance,
    runId: "runId" in holder ? holder.runId : null,
    experimentId: "experimentId" in holder ? holder.experimentId : null,
  }));
}

function isTaken(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === "P2002";
}

/** Takes every link now, or none of them; false when one is held already. */
export async function tryHoldLinks(instance: string, linkIds: number[], holder: LinkHolder): Promise<boolean> {
  try {
    await db.linkHold.createMany({ data: rowsOf(instance, linkIds, holder) });
    return true;
  } catch (error) {
    if (isTaken(error)) return false;
    throw error;
  }
}

/**
 * Takes every link, waiting while any is held elsewhere; resolves false without them once
 * `hasGivenUp()` (the runs were cancelled or stopped meanwhile).
 */
export async function holdLinks(
  instance: string,
  linkIds: number[],
  holder: LinkHolder,
  hasGivenUp: () => boolean,
): Promise<boolean> {
  for (;;) {
    if (hasGivenUp()) return false;
    if (await tryHoldLinks(instance, linkIds, holder)) return true;
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/** Frees the links `holder` holds (none is fine). */
export async function releaseLinks(instance: string, linkIds: number[], holder: LinkHolder): Promise<void> {
  await db.linkHold.deleteMany({
    where: {
      linkId: { in: [...new Set(linkIds)] },
      instance,
      ...("runId" in holder ? { runId: holder.runId } : { experimentId: holder.experimentId }),
    },
  });
}
