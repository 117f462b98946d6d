import "server-only";
import { db } from "@/lib/db";
import { getExperiment } from "@/lib/experiments/reads";
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";
import { isActiveExperimentStatus, type ResultTable } from "@/lib/experiments/contract";
import { createAnonymizer, showEverything, type Anonymizer } from "@/lib/format/anonymize";
import { clientSideOf, directionOf, isActiveStatus, parseStoredOptions } from "@/lib/runs/contract";
import { describeOptions } from "@/lib/runs/describe";
import { getLinkEnds, getLinkHistory } from "@/lib/runs/link-reads";
import { getRunDetail, listRunRows } from "@/lib/runs/lists";
import { getRunSeries } from "@/lib/runs/series-reads";
import { getApp } from "@/lib/running-app";
import type { SharedContent, SharedExperiment, SharedLink, SharedPage, SharedRun } from "./contract";
import { findOpenShare } from "./store";

// What a share link's page shows, read once and kept (lib/shares/cache.ts): only the fields of
// lib/shares/contract.ts, with every host name and address of the lab hidden when the share says so.

/** How long a page is kept: one whose figures can still change (a live run, a link's history) … */
export const LIVE_TTL_MS = 30_000;
/** … and one that has ended for good (a finished run or experiment). */
export const FINISHED_TTL_MS = 10 * 60_000;
/** The link page's table: its newest runs. */
const LINK_RUNS = 50;

/** Whether a text is an IP address (the anonymizer masks those wherever they are). */
const looksLikeIp = (value: string) => /^[\d.]+$/.test(value) || value.includes(":");

type Hider = { anonymizer: Anonymizer; hide: (text: string) => string };

/**
 * The lab's hiding rule for one page: `first` (the page's own hosts, in their order) get the first
 * letters, and `links` (the page's own links, in their order) read "link 1", "link 2"; every other
 * host and link of the lab is hidden too (a name a user typed may name any), and so is a host's
 * address that is a DNS name.
 * Beyond the anonymizer's whole-word rule, a name of three characters or more is hidden inside a
 * word as well ("nas-10g" → "host A-10g"): a name a user typed may hold a host's name anywhere.
 */
async function hiderOf(isHidden: boolean, first: string[], links: string[]): Promise<Hider> {
  if (!isHidden) return { anonymizer: showEverything, hide: (text) => text };
  const [hosts, allLinks] = await Promise.all([
    db.host.findMany({ select: { name: true, address: true }, orderBy: { id: "asc" } }),
    db.link.findMany({ select: { name: true }, orderBy: { id: "asc" } }),
  ]);
  const anonymizer = createAnonymizer(
    [...first, ...hosts.map((host) => host.name)],
    [...links, ...allLinks.map((link) => link.name)],
  );
  const names = [...new Set([...first, ...hosts.map((host) => host.name)])];
  const dnsAddresses = hosts.map((host) => host.address).filter((address) => address && !looksLikeIp(address));
  const words = [
    ...names.map((name) => [name, anonymizer.host(name)] as const),
    ...dnsAddresses.map((address) => [address, "host"] as const),
  ]
    .filter(([word]) => word.length >= 3)
    .sort((a, b) => b[0].length - a[0].length);
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const hide = (text: string) => {
    let hidden = anonymizer.text(text);
    for (const [word, replacement] of words) hidden = hidden.replace(new RegExp(escape(word), "gi"), replacement);
    return hidden;
  };
  return { anonymizer, hide };
}

async function readSharedRun(runId: number, isHidden: boolean): Promise<{ content: SharedRun; ttlMs: number } | null> {
  const run = await getRunDetail(runId);
  if (!run) return null;
  const ends = await getLinkEnds(run.linkId);
  if (!ends) return null;
  const isActive = isActiveStatus(run.status);
  const series = await getRunSeries({ runId, isFinished: !isActive });
  const options = parseStoredOptions(run.options);
  const clientSide = clientSideOf(run.clientSide);
  const direction = directionOf(options, clientSide);
  const { anonymizer, hide } = await hiderOf(isHidden, [ends.a.hostName, ends.b.hostName], [run.linkName]);
  const aName = anonymizer.host(ends.a.hostName);
  const bName = anonymizer.host(ends.b.hostName);
  const [clientName, serverName] = clientSide === "a" ? [aName, bName] : [bName, aName];
  return {
    content: {
      kind: "run",
      id: run.id,
      title: `Run #${run.id}`,
      linkName: isHidden ? `${aName} ⇄ ${bName}` : run.linkName,
      aName,
      bName,
      clientName,
      serverName,
      speedMbps: ends.speedMbps,
      status: run.status,
      protocol: options.protocol,
      isBidir: Boolean(options.bidir),
      direction,
      optionsText: describeOptions(options, direction),
      createdAt: run.createdAt,
      endedAt: run.endedAt,
      summary: run.summary,
      series: { points: series.points, streamCount: series.streamCount, sampleCount: series.sampleCount },
      errorMessage: run.error ? hide(run.error.message) : null,
    },
    ttlMs: isActive ? LIVE_TTL_MS : FINISHED_TTL_MS,
  };
}

async function readSharedLink(
  linkId: number,
  isHidden: boolean,
): Promise<{ content: SharedLink; ttlMs: number } | null> {
  const ends = await getLinkEnds(linkId);
  if (!ends) return null;
  const [history, table] = await Promise.all([
    getLinkHistory({ linkId }),
    listRunRows({ filters: { linkId }, page: 1, pageSize: LINK_RUNS }),
  ]);
  const { anonymizer } = await hiderOf(isHidden, [ends.a.hostName, ends.b.hostName], [ends.name]);
  const aName = anonymizer.host(ends.a.hostName);
  const bName = anonymizer.host(ends.b.hostName);
  return {
    content: {
      kind: "link",
      id: linkId,
      title: isHidden ? `${aName} ⇄ ${bName}` : ends.name,
      aName,
      bName,
      speedMbps: ends.speedMbps,
      // A team's notes and labels are its own working words (and may name addresses): a share shows the figures only.
      points: history.points.map((point) => ({ ...point, note: undefined, labels: undefined })),
      runs: table.runs.map((row) => ({
        id: row.id,
        createdAt: row.createdAt,
        status: row.status,
        optionsText: describeOptions(row.options, row.direction),
        receivedBitsPerSecond: row.receivedBitsPerSecond,
        lineRatePercent: row.lineRatePercent,
        retransmits: row.retransmits,
      })),
    },
    ttlMs: LIVE_TTL_MS,
  };
}

/** The result table a visitor may read: no run ids (pages they cannot open), names hidden when asked. */
function sharedTable(table: ResultTable | null, hide: (text: string) => string, isHidden: boolean): ResultTable | null {
  if (!table) return null;
  const columns = table.columns.filter((column) => column.format !== "runs");
  // Keys may be host or link names: hidden ones become plain positions.
  const keyOf = (key: string, index: number, prefix: string) => (isHidden ? `${prefix}${index}` : key);
  const columnKeys = new Map(columns.map((column, index) => [column.key, keyOf(column.key, index, "c")]));
  return {
    columns: columns.map((column) => ({ ...column, key: columnKeys.get(column.key)!, label: hide(column.label) })),
    rows: table.rows.map((row, index) => ({
      ...row,
      key: keyOf(row.key, index, "r"),
      cells: Object.fromEntries(
        columns.map((column) => {
          const cell = row.cells[column.key];
          return [columnKeys.get(column.key)!, typeof cell === "string" ? hide(cell) : (cell ?? null)];
        }),
      ),
    })),
  };
}

async function readSharedExperiment(
  experimentId: number,
  isHidden: boolean,
): Promise<{ content: SharedExperiment; ttlMs: number } | null> {
  const experiment = await getExperiment(experimentId);
  if (!experiment) return null;
  // Its links' hosts get the first letters, in the order of its links (each link's A side first),
  // and its links their numbers: the answer and the table name them.
  const ends = isHidden ? await Promise.all(experiment.links.map((link) => getLinkEnds(link.id))) : [];
  const { anonymizer, hide } = await hiderOf(
    isHidden,
    ends.flatMap((end) => (end ? [end.a.hostName, end.b.hostName] : [])),
    experiment.links.map((link) => link.name),
  );
  return {
    content: {
      kind: "experiment",
      id: experiment.id,
      title: hide(experiment.name),
      kindTitle: KIND_DEFINITIONS[experiment.kind].title,
      status: experiment.status,
      linkNames: experiment.links.map((link) => anonymizer.link(link.name)),
      answer: experiment.answer === null ? null : hide(experiment.answer),
      table: sharedTable(experiment.table, hide, isHidden),
      createdAt: experiment.createdAt,
      endedAt: experiment.endedAt,
      errorMessage: experiment.error ? hide(experiment.error.message) : null,
    },
    ttlMs: isActiveExperimentStatus(experiment.status) ? LIVE_TTL_MS : FINISHED_TTL_MS,
  };
}

/** Reads what a share shows, without the cache (the benchmark's baseline). */
export async function readSharedContent(share: {
  kind: string;
  targetId: number;
  hideAddresses: boolean;
}): Promise<{ content: SharedContent | null; ttlMs: number }> {
  const read =
    share.kind === "run"
      ? readSharedRun
      : share.kind === "experiment"
        ? readSharedExperiment
        : share.kind === "link"
          ? readSharedLink
          : null;
  const found = read ? await read(share.targetId, share.hideAddresses) : null;
  // A run or link deleted since: 404, asked again after a short while.
  return found ?? { content: null, ttlMs: LIVE_TTL_MS };
}

/**
 * The page a share token opens and the share's id (what its page is kept by in memory), or null (no
 * such token, expired, revoked, or what it showed is gone): the share is looked up at every call,
 * what it shows comes from the cache.
 */
export async function openSharedPage(
  token: string,
  now = new Date(),
): Promise<{ shareId: number; page: SharedPage } | null> {
  const share = await findOpenShare(token, now);
  if (!share) return null;
  const content = await getApp().sharedPages.get(share.id, () => readSharedContent(share), now.getTime());
  if (!content) return null;
  return {
    shareId: share.id,
    page: { content, hideAddresses: share.hideAddresses, expiresAt: share.expiresAt?.toISOString() ?? null },
  };
}

/** The page a share token opens, or null: openSharedPage's page. */
export async function getSharedPage(token: string, now = new Date()): Promise<SharedPage | null> {
  return (await openSharedPage(token, now))?.page ?? null;
}
