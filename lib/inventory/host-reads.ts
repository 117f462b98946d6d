import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getHost } from "@/lib/inventory/hosts";
import { listNics } from "@/lib/inventory/nics";
import { activeRunOf } from "@/lib/inventory/active-runs";

export type HostDetail = NonNullable<Awaited<ReturnType<typeof getHostDetail>>>;

/**
 * One host with its NICs and what deleting it would take along (NICs, links, runs, and
 * a run that is still active, which makes the delete refuse); null when there is none.
 */
export async function getHostDetail({ hostId }: { hostId: number }) {
  const host = await getHost(hostId).catch((error: unknown) => {
    if (error instanceof AppError && (error.kind === "not-found" || error.kind === "invalid")) return null;
    throw error;
  });
  if (!host) return null;
  const linkWhere = { OR: [{ aNic: { hostId } }, { bNic: { hostId } }] };
  const [nics, links, runs, activeRun] = await Promise.all([
    listNics({ hostId }),
    db.link.count({ where: linkWhere }),
    db.run.count({ where: { link: linkWhere } }),
    activeRunOf(db, { link: linkWhere }),
  ]);
  return {
    host,
    nics,
    impact: { nics: nics.length, links, runs, activeRun },
  };
}
