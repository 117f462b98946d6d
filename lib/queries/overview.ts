import "server-only";
import { db } from "@/lib/db";

/** The counts the overview's header shows. */
export async function getOverviewCounts() {
  const [hosts, links, runs] = await Promise.all([db.host.count(), db.link.count(), db.run.count()]);
  return { hosts, links, runs };
}
