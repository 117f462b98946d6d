import "server-only";
import { db } from "@/lib/db";
import { parseStoredEnvironment, type Hint } from "@/lib/diagnosis/contract";
import type { ExperimentComparison } from "@/lib/experiments/compare";
import type { ExperimentJson } from "@/lib/experiments/contract";
import { getLinkEnds } from "@/lib/runs/link-reads";
import { postLinkOf, type ExperimentComparePostSource, type ExperimentPostSource, type PostLink } from "./sources";

// What an experiment's post needs beyond what its page reads: each link's ends (hosts, NICs, MTU)
// and the first run's commands, iperf3 versions and environment, which stand for the others'.

async function postLinks(linkIds: number[]): Promise<Map<number, PostLink>> {
  const ends = await Promise.all([...new Set(linkIds)].map(async (id) => [id, await getLinkEnds(id)] as const));
  return new Map(ends.flatMap(([id, value]) => (value ? [[id, postLinkOf(value)] as const] : [])));
}

/** What a post says of an experiment itself: its name, kind, status, answer and table. */
function experimentPart(experiment: ExperimentJson) {
  return {
    id: experiment.id,
    kind: experiment.kind,
    name: experiment.name,
    status: experiment.status,
    answer: experiment.answer,
    table: experiment.table,
    createdAt: experiment.createdAt,
  };
}

/** The post of an experiment page: its links' ends and its first run that started iperf3. */
export async function experimentPostSource(
  experiment: ExperimentJson,
  kindTitle: string,
  hints: Hint[],
): Promise<ExperimentPostSource> {
  const [links, first] = await Promise.all([
    postLinks(experiment.links.map((link) => link.id)),
    db.run.findFirst({
      where: { experimentId: experiment.id, clientCommand: { not: null } },
      orderBy: { id: "asc" },
      select: {
        id: true,
        linkId: true,
        clientSide: true,
        serverCommand: true,
        clientCommand: true,
        serverIperfVersion: true,
        clientIperfVersion: true,
        environment: true,
      },
    }),
  ]);
  const firstLink = first ? (links.get(first.linkId) ?? (await postLinks([first.linkId])).get(first.linkId)) : null;
  return {
    kind: "experiment",
    experiment: experimentPart(experiment),
    kindTitle,
    links: experiment.links.flatMap((link) => links.get(link.id) ?? []),
    firstRun:
      first && firstLink
        ? {
            id: first.id,
            link: firstLink,
            clientSide: first.clientSide === "b" ? "b" : "a",
            commands: { server: first.serverCommand, client: first.clientCommand },
            versions: { server: first.serverIperfVersion, client: first.clientIperfVersion },
            environment: parseStoredEnvironment(first.environment),
          }
        : null,
    hints,
  };
}

/** The post of the experiments compare page: both experiments, their links' ends, the rows paired. */
export async function experimentComparePostSource(
  a: ExperimentJson,
  b: ExperimentJson,
  kindTitle: string,
  comparison: ExperimentComparison,
): Promise<ExperimentComparePostSource> {
  const ids = [...a.links, ...b.links].map((link) => link.id);
  const links = await postLinks(ids);
  return {
    kind: "experiment-compare",
    kindTitle,
    a: experimentPart(a),
    b: experimentPart(b),
    links: [...new Set(ids)].flatMap((id) => links.get(id) ?? []),
    comparison,
  };
}
