import { notFound } from "next/navigation";
import { pageIdOf } from "@/components/page-params";
import { CompareRuns } from "@/components/runs/CompareRuns";
import { CopyAsPost } from "@/components/posts/CopyAsPost";
import { linkHistoryPostSource, postLinkOf, runComparePostSource } from "@/lib/posts/sources";
import { FindingsSection } from "@/components/diagnosis/HintList";
import { HomeAssistantSection } from "@/components/links/HomeAssistantSection";
import { LinkHeader } from "@/components/links/LinkHeader";
import { NoteEditor } from "@/components/notes/NoteEditor";
import {
  LinkAlerts,
  LinkBaselines,
  LinkExperiments,
  LinkNewTest,
  LinkSchedules,
} from "@/components/links/LinkSections";
import { readPageFilters, runTableQuery, type QueryInput } from "@/lib/runs/filters";
import { LinkActivity } from "@/components/runs/LinkActivity";
import { requirePage } from "@/lib/auth/guard";
import { listExperiments } from "@/lib/experiments/reads";
import { getLinkEnds, getLinkHistory, listLinkStreamCounts } from "@/lib/runs/link-reads";
import { getRunComparison } from "@/lib/runs/series-reads";
import { getLinkHints, getRunEnvironments } from "@/lib/diagnosis/reads";
import { listRunRows } from "@/lib/runs/lists";
import { lineRateThresholds } from "@/lib/overview/reads";
import { listAlerts } from "@/lib/alerts/alerts";
import { getLinkBaseline } from "@/lib/alerts/baseline";
import { listSchedules } from "@/lib/schedules/store";
import { getApp } from "@/lib/app";
import { getLink } from "@/lib/inventory/links";

export const dynamic = "force-dynamic";

/** How many of the link's experiments its page lists; the experiments page has the rest. */
const LATEST_EXPERIMENTS = 5;

type Props = { params: Promise<{ id: string }>; searchParams: Promise<SearchParams> };
type SearchParams = Exclude<QueryInput, URLSearchParams>;

/** `compare=3,7,9`: at most eight distinct run ids. */
function compareIdsOf(params: SearchParams): number[] {
  const raw = Array.isArray(params.compare) ? params.compare[0] : params.compare;
  // Plain decimal ids within 32 bits only: `1e20` or `0x10` never reach the query.
  const ids = (raw ?? "")
    .split(",")
    .filter((part) => /^[1-9]\d{0,9}$/.test(part))
    .map(Number)
    .filter((id) => id <= 2_147_483_647);
  return [...new Set(ids)].slice(0, 8);
}

export async function generateMetadata({ params }: Props) {
  await requirePage("read");
  const linkId = pageIdOf((await params).id);
  const ends = linkId === null ? null : await getLinkEnds(linkId);
  return { title: ends ? ends.name : "Link" };
}

export default async function LinkPage({ params, searchParams }: Props) {
  const principal = await requirePage("read");
  const linkId = pageIdOf((await params).id);
  if (linkId === null) notFound();
  const query = await searchParams;
  // The history and the runs table are rendered here first, then kept current in the browser (LinkActivity).
  const tableQuery = runTableQuery(readPageFilters(query), linkId);
  const compareIds = compareIdsOf(query);
  const [
    ends,
    history,
    table,
    streamCounts,
    comparison,
    experiments,
    openAlerts,
    schedules,
    baseline,
    hints,
    environments,
    settings,
  ] = await Promise.all([
    getLinkEnds(linkId),
    getLinkHistory({ linkId }),
    listRunRows({ filters: tableQuery, page: tableQuery.page }),
    listLinkStreamCounts(linkId),
    compareIds.length >= 2 ? getRunComparison({ ids: compareIds, linkId }) : Promise.resolve([]),
    listExperiments({ linkId, pageSize: LATEST_EXPERIMENTS }),
    listAlerts({ status: "firing", linkId, role: principal.role }),
    listSchedules({ linkId }),
    getLinkBaseline(linkId),
    getLinkHints(linkId),
    compareIds.length >= 2 ? getRunEnvironments(compareIds) : Promise.resolve(new Map<number, null>()),
    getLink(linkId).catch(() => null),
  ]);
  if (!ends) notFound();
  const lineRateBitsPerSecond = ends.speedMbps * 1e6;

  return (
    <>
      <LinkHeader ends={ends} />
      <div className="-mt-2 mb-4">
        <NoteEditor kind="link" id={linkId} note={ends.note} labels={ends.labels} />
      </div>
      <LinkAlerts alerts={openAlerts.alerts} />
      <FindingsSection
        hints={hints}
        title="Latest findings"
        description="What the link's latest runs and experiments say about why it falls short, each with the run or experiment it comes from."
        emptyText="No findings in the link's latest runs and experiments."
        showSource
        testId="link-findings"
        className="mb-8"
      />
      <LinkNewTest linkId={linkId} ends={ends} />
      <LinkExperiments linkId={linkId} experiments={experiments.experiments} total={experiments.total} />
      <LinkSchedules linkId={linkId} schedules={schedules} />
      <LinkBaselines linkId={linkId} baseline={baseline} />
      <HomeAssistantSection
        linkId={linkId}
        isOn={settings?.homeAssistantRunButton ?? false}
        isPublishing={getApp().homeAssistant.isStarted}
      />

      {comparison.length >= 2 ? (
        <>
          <CompareRuns
            runs={comparison.map((entry) => ({ ...entry, environment: environments.get(entry.run.id) ?? null }))}
            lineRateBitsPerSecond={lineRateBitsPerSecond}
          />
          <CopyAsPost
            what="the runs compared"
            source={runComparePostSource({ link: postLinkOf(ends), runs: comparison, environments })}
          />
        </>
      ) : null}

      <LinkActivity
        linkId={linkId}
        initialHistory={history}
        initialRuns={table}
        lineRateBitsPerSecond={lineRateBitsPerSecond}
        aName={ends.a.hostName}
        bName={ends.b.hostName}
        thresholds={lineRateThresholds()}
        streamChoices={streamCounts}
        baselines={baseline?.signatures ?? []}
        historyPost={
          <CopyAsPost
            what="the history"
            source={linkHistoryPostSource({ linkId, link: postLinkOf(ends), points: history.points, hints })}
            className="mt-3"
          />
        }
      />
    </>
  );
}
