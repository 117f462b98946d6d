// The reads app/links/[id]/page.tsx makes for one link (no runs compared, the runs table's first
// page), as it makes them, for the benches that time the link page (link-page, growth).

/**
 * Loads the modules the link page reads through (after the bench has installed its app) and gives
 * the page's reads: `withoutSchedules` every read but listSchedules (generateMetadata's getLinkEnds
 * first), `page` those and the schedules'.
 */
export async function loadLinkPageReads() {
  const [links, lists, experiments, alerts, schedules, baselines, diagnosis, filters] = await Promise.all([
    import("../lib/runs/link-reads"),
    import("../lib/runs/lists"),
    import("../lib/experiments/reads"),
    import("../lib/alerts/alerts"),
    import("../lib/schedules/store"),
    import("../lib/alerts/baseline"),
    import("../lib/diagnosis/reads"),
    import("../lib/runs/filters"),
  ]);
  const withoutSchedules = (linkId: number) => {
    const table = filters.runTableQuery({ page: 1 }, linkId);
    return Promise.all([
      links.getLinkEnds(linkId),
      links.getLinkEnds(linkId),
      links.getLinkHistory({ linkId }),
      lists.listRunRows({ filters: table, page: table.page }),
      links.listLinkStreamCounts(linkId),
      experiments.listExperiments({ linkId, pageSize: 5 }),
      alerts.listAlerts({ status: "firing", linkId }),
      baselines.getLinkBaseline(linkId),
      diagnosis.getLinkHints(linkId),
    ]);
  };
  const page = (linkId: number) => Promise.all([withoutSchedules(linkId), schedules.listSchedules({ linkId })]);
  return { withoutSchedules, page };
}
