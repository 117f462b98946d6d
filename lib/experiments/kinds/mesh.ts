// Mesh: many links (given, or every link among some hosts), each in each direction, one run at
// a time so that no two tests disturb each other. The result is a row per run and the grid of
// those runs (as GET /api/grid draws the lab): a cell per ordered pair of hosts a link joins.
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import type { GridAnswer, GridCell, GridCellStatus, GridHost } from "@/lib/grid/contract";
import { IperfOptionsSchema } from "@/lib/iperf/options";
import { directionFlags, type RunDirection } from "@/lib/runs/contract";
import type { RunRequest } from "@/lib/runs/request";
import {
  MESH_LINKS,
  type MeshResult,
  type MeshRow,
  type PlanLink,
  type PlanOf,
  type RunOutcome,
  type StepOutcome,
  type StepSpec,
} from "../contract";
import { lineRateOf, linkOf, numberWord, otherSide, percentOf } from "./figures";
import { nextOfSteps, type KindDefinition } from "./kind";
import { formatBitRate, formatPercentWord } from "@/lib/format";

/** A mesh by hosts: at most this many hosts. */
export const MAX_MESH_HOSTS = 64;
/** Each link both ways, a→b first. */
export const MESH_DIRECTIONS = ["a-to-b", "b-to-a"] as const satisfies readonly RunDirection[];
/** A mesh whose every run reaches this share of its line rate is all well. */
const MESH_GOOD_PERCENT = 90;

const HOST_IDS_MESSAGE = `hostIds must list 2 to ${MAX_MESH_HOSTS} host ids (the links with both ends among them are measured)`;

const MeshFieldsSchema = z.strictObject({
  hostIds: z
    .array(
      z
        .number({ error: "must be a host id (a whole number from 1)" })
        .int({ error: "must be a host id (a whole number from 1)" })
        .min(1, { error: "must be a host id (a whole number from 1)" }),
      { error: HOST_IDS_MESSAGE },
    )
    .min(2, { error: HOST_IDS_MESSAGE })
    .max(MAX_MESH_HOSTS, { error: HOST_IDS_MESSAGE })
    .superRefine((ids, context) => {
      ids.forEach((id, index) => {
        if (ids.indexOf(id) !== index)
          context.addIssue({ code: "custom", path: [index], message: `host ${id} is given twice` });
      });
    })
    .nullable()
    .default(null),
});

/** The host a direction starts from and the one it reaches. */
export function meshEnds(link: PlanLink, direction: RunDirection): { from: GridHost; to: GridHost } {
  return direction === "b-to-a" ? { from: link.hosts.b, to: link.hosts.a } : { from: link.hosts.a, to: link.hosts.b };
}

/** "data1 nas → pve", or "link 3 a→b" for a link no longer there. */
function describeMeshRun(link: PlanLink | undefined, linkId: number, direction: RunDirection): string {
  if (!link) return `link ${linkId} ${direction === "b-to-a" ? "b→a" : "a→b"}`;
  const { from, to } = meshEnds(link, direction);
  return `${link.name} ${from.name} → ${to.name}`;
}

/** The key of a mesh row, the same in every mesh: "link 3 b-to-a". */
export function meshRowKey(row: Pick<MeshRow, "linkId" | "direction">): string {
  return `link ${row.linkId} ${row.direction}`;
}

function meshSteps(plan: PlanOf<"mesh">, base: RunRequest, links: readonly PlanLink[]): StepSpec[] {
  return plan.linkIds.flatMap((linkId) => {
    const link = linkOf(links, linkId);
    // The client runs on the managed end of a link to an iperf3 server Wirespeed does not manage; -R gives the other way.
    const clientSide = link?.externalServerEnd ? otherSide(link.externalServerEnd) : base.clientSide;
    return MESH_DIRECTIONS.map((direction) => ({
      label: describeMeshRun(link, linkId, direction),
      tags: { direction },
      runs: [
        {
          linkId,
          options: IperfOptionsSchema.parse({ ...base.options, ...directionFlags(direction, clientSide) }),
          clientSide,
        },
      ],
    }));
  });
}

type MeshRun = { row: MeshRow; run: RunOutcome };

function meshRuns(links: readonly PlanLink[], done: readonly StepOutcome[]): MeshRun[] {
  return done.flatMap((step): MeshRun[] => {
    const run = step.runs[0];
    const direction = step.tags.direction;
    if (!run || !direction) return [];
    const row: MeshRow = {
      linkId: run.linkId,
      direction,
      runId: run.runId,
      receivedBitsPerSecond: run.receivedBitsPerSecond,
      lineRatePercent: percentOf(run.receivedBitsPerSecond, lineRateOf(linkOf(links, run.linkId))),
    };
    return [{ row, run }];
  });
}

/** A run that measured: it succeeded with a received rate. */
function hasResult(run: RunOutcome): boolean {
  return run.status === "succeeded" && run.receivedBitsPerSecond !== null;
}

/**
 * The grid of a mesh's runs, as GET /api/grid draws the lab: its links' hosts (by name) and a cell
 * per ordered pair of hosts a link joins. Where several links join them, the fastest successful run
 * that way. A cell whose runs all failed is `failed` with no figures (as the grid keeps a failed
 * cell's figures for a successful run, of which there is none here); cancelled and interrupted runs
 * say nothing of a link and leave a cell `never`. No baseline and nothing stale: the runs are new.
 */
export function meshGridOf(
  linkIds: readonly number[],
  links: readonly PlanLink[],
  runs: readonly MeshRun[],
): GridAnswer {
  const planLinks = linkIds.flatMap((id) => linkOf(links, id) ?? []);
  const hosts = new Map<number, GridHost>();
  for (const link of planLinks) for (const host of [link.hosts.a, link.hosts.b]) hosts.set(host.id, host);
  const sortedHosts = [...hosts.values()].sort((x, y) => x.name.localeCompare(y.name) || x.id - y.id);
  const order = new Map(sortedHosts.map((host, index) => [host.id, index]));

  const byPair = new Map<string, { from: number; to: number; ways: { link: PlanLink; direction: RunDirection }[] }>();
  for (const link of planLinks) {
    for (const direction of MESH_DIRECTIONS) {
      const { from, to } = meshEnds(link, direction);
      if (from.id === to.id) continue;
      const key = `${from.id}-${to.id}`;
      const entry = byPair.get(key) ?? { from: from.id, to: to.id, ways: [] };
      entry.ways.push({ link, direction });
      byPair.set(key, entry);
    }
  }
  const cells = [...byPair.values()].map(({ from, to, ways }): GridCell => {
    const tried = runs.filter(({ row }) =>
      ways.some((way) => way.link.id === row.linkId && way.direction === row.direction),
    );
    const measured = tried.filter(({ run }) => hasResult(run));
    const fastest = measured.reduce<MeshRun | null>(
      (best, entry) =>
        best === null || entry.row.receivedBitsPerSecond! > best.row.receivedBitsPerSecond! ? entry : best,
      null,
    );
    const failed = tried.filter(({ run }) => run.status === "failed").at(-1);
    const fastestLink = ways.reduce((best, way) => (way.link.speedMbps > best.link.speedMbps ? way : best)).link;
    const status: GridCellStatus = fastest ? "succeeded" : failed ? "failed" : "never";
    return {
      fromHostId: from,
      toHostId: to,
      linkId: fastest?.row.linkId ?? failed?.row.linkId ?? fastestLink.id,
      linkCount: new Set(ways.map((way) => way.link.id)).size,
      runId: fastest?.row.runId ?? null,
      at: fastest?.run.startedAtMs != null ? new Date(fastest.run.startedAtMs).toISOString() : null,
      receivedBitsPerSecond: fastest?.row.receivedBitsPerSecond ?? null,
      lineRatePercent: fastest?.row.lineRatePercent ?? null,
      baselinePercent: null,
      stale: false,
      offLink: fastest?.run.pathVerdict === "off-link",
      status,
    };
  });
  cells.sort(
    (x, y) => order.get(x.fromHostId)! - order.get(y.fromHostId)! || order.get(x.toHostId)! - order.get(y.toHostId)!,
  );
  return { hosts: sortedHosts, cells };
}

/** The hosts the plan's links join, by name: "nas, pve and esx". */
function hostNamesOf(plan: PlanOf<"mesh">, links: readonly PlanLink[]): string {
  const hosts = new Map<number, string>();
  for (const link of plan.linkIds.flatMap((id) => linkOf(links, id) ?? []))
    for (const host of [link.hosts.a, link.hosts.b]) hosts.set(host.id, host.name);
  const names = [...hosts.values()];
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : (names[0] ?? "");
}

export const meshKind: KindDefinition<"mesh"> = {
  kind: "mesh",
  title: "Mesh",
  defaultName: (plan) => (plan.hostIds ? "The whole lab" : "Mesh"),
  fieldsSchema: MeshFieldsSchema,
  maxLinks: MESH_LINKS.max,
  maxPlanRuns: MESH_LINKS.max * MESH_DIRECTIONS.length,
  // Each step sets its direction: options.direction is not used.
  baseOptions: (plan) => plan.options,
  check(plan, _base, links) {
    const errors: FieldError[] = [];
    plan.linkIds.forEach((linkId, index) => {
      const link = linkOf(links, linkId);
      if (link?.deviceEnd)
        errors.push({
          field: `linkIds[${index}]`,
          message: `link ${link.name} ends at a device (end ${link.deviceEnd}), which runs no ordinary run: leave it out of the mesh`,
        });
    });
    const count = plan.linkIds.length;
    if (count < MESH_LINKS.min) {
      errors.push(
        plan.hostIds
          ? {
              field: "hostIds",
              message:
                count === 1 && hostNamesOf(plan, links)
                  ? `the hosts ${hostNamesOf(plan, links)} are joined by one link; a mesh needs at least ${MESH_LINKS.min}`
                  : `no two of these hosts are joined by a link Wirespeed can test (links to a device are left out); a mesh needs at least ${MESH_LINKS.min}`,
            }
          : {
              field: "linkIds",
              message: `a mesh measures ${MESH_LINKS.min} to ${MESH_LINKS.max} links (${count} given); for one link, run every direction`,
            },
      );
    }
    return errors;
  },
  maxRuns: (plan) => plan.linkIds.length * MESH_DIRECTIONS.length,
  maxSteps: (plan) => plan.linkIds.length * MESH_DIRECTIONS.length,
  steps: (plan, base, links) => meshSteps(plan, base, links),
  nextStep: (plan, base, links, done) => nextOfSteps(meshSteps(plan, base, links), done),
  result(plan, links, done): MeshResult {
    const runs = meshRuns(links, done);
    return { rows: runs.map(({ row }) => row), grid: meshGridOf(plan.linkIds, links, runs) };
  },
  answer(_plan, links, result) {
    const measured = result.rows.filter((row) => row.receivedBitsPerSecond !== null);
    const failed = result.rows.length - measured.length;
    const failedWords = failed > 0 ? `; ${numberWord(failed)} ${failed === 1 ? "run" : "runs"} failed` : "";
    if (measured.length === 0) return failed > 0 ? `No run gave a result${failedWords}` : null;
    // The slowest by share of line rate where the links' speeds are known, else by rate.
    const slowest = measured.reduce((worst, row) =>
      (row.lineRatePercent ?? Infinity) < (worst.lineRatePercent ?? Infinity) ||
      (row.lineRatePercent === worst.lineRatePercent && row.receivedBitsPerSecond! < worst.receivedBitsPerSecond!)
        ? row
        : worst,
    );
    const where = describeMeshRun(linkOf(links, slowest.linkId), slowest.linkId, slowest.direction);
    const share =
      slowest.lineRatePercent !== null ? ` (${formatPercentWord(slowest.lineRatePercent)} of its line rate)` : "";
    const slowestWords = `${where} at ${formatBitRate(slowest.receivedBitsPerSecond!)}${share}`;
    const allGood = measured.every((row) => row.lineRatePercent !== null && row.lineRatePercent >= MESH_GOOD_PERCENT);
    const runsWord = `${numberWord(measured.length)} ${measured.length === 1 ? "run" : "runs"}`;
    if (allGood && failed === 0)
      return `All ${runsWord} reach ${MESH_GOOD_PERCENT}% of their line rate or more; the slowest is ${slowestWords}`;
    return `Slowest of ${runsWord}: ${slowestWords}${failedWords}`;
  },
  table(_plan, links, result) {
    return {
      columns: [
        { key: "link", label: "Link", format: "text" },
        { key: "from", label: "From", format: "text" },
        { key: "to", label: "To", format: "text" },
        { key: "receivedBitsPerSecond", label: "Received", format: "bitsPerSecond" },
        { key: "lineRatePercent", label: "Of line rate", format: "percent" },
        { key: "runIds", label: "Run", format: "runs" },
      ],
      rows: result.rows.map((row) => {
        const link = linkOf(links, row.linkId);
        const ends = link ? meshEnds(link, row.direction) : null;
        return {
          key: meshRowKey(row),
          cells: {
            link: link?.name ?? `link ${row.linkId}`,
            from: ends?.from.name ?? (row.direction === "b-to-a" ? "b" : "a"),
            to: ends?.to.name ?? (row.direction === "b-to-a" ? "a" : "b"),
            receivedBitsPerSecond: row.receivedBitsPerSecond,
            lineRatePercent: row.lineRatePercent,
            runIds: [row.runId],
          },
        };
      }),
    };
  },
};
