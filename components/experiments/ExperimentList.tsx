import Link from "next/link";
import { StatusBadge } from "@/components/runs/StatusBadge";
import { RelativeTime } from "@/components/ui/RelativeTime";
import { TEXT_LINK } from "@/components/ui/styles";
import { TableOrCards } from "@/components/ui/TableOrCards";
import type { ExperimentListItem } from "@/lib/experiments/contract";
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";

// No "use client": the experiments page and a link page render it on the server.

function ExperimentLinks({ experiment }: { experiment: ExperimentListItem }) {
  return (
    <>
      {experiment.links.map((link, index) => (
        <span key={link.id} className="whitespace-nowrap">
          {index > 0 ? ", " : null}
          <Link href={`/links/${link.id}`} className={TEXT_LINK}>
            {link.name}
          </Link>
        </span>
      ))}
    </>
  );
}

function Steps({ experiment }: { experiment: ExperimentListItem }) {
  return (
    <span className="tabular-nums" title={`${experiment.stepsDone} of ${experiment.plannedSteps} steps done`}>
      {experiment.stepsDone}/{experiment.plannedSteps}
    </span>
  );
}

function Answer({ experiment }: { experiment: ExperimentListItem }) {
  return experiment.answer ? <>{experiment.answer}</> : <span className="text-slate-600 dark:text-slate-400">–</span>;
}

function ExperimentCard({ experiment, showLinks }: { experiment: ExperimentListItem; showLinks: boolean }) {
  return (
    <>
      <div className="flex items-start justify-between gap-3">
        <Link href={`/experiments/${experiment.id}`} className={`min-w-0 font-medium break-words ${TEXT_LINK}`}>
          {experiment.name}
        </Link>
        <StatusBadge status={experiment.status} />
      </div>
      <p className="mt-0.5 text-slate-700 dark:text-slate-300">
        {KIND_DEFINITIONS[experiment.kind].title} · steps <Steps experiment={experiment} /> ·{" "}
        <RelativeTime date={experiment.createdAt} />
      </p>
      {showLinks ? (
        <p className="mt-0.5 break-words text-slate-700 dark:text-slate-300">
          <ExperimentLinks experiment={experiment} />
        </p>
      ) : null}
      {experiment.answer ? <p className="mt-1">{experiment.answer}</p> : null}
    </>
  );
}

function ExperimentCells({ experiment, showLinks }: { experiment: ExperimentListItem; showLinks: boolean }) {
  return (
    <>
      <th scope="row" className="px-4 py-2 font-medium">
        <Link href={`/experiments/${experiment.id}`} className={TEXT_LINK}>
          {experiment.name}
        </Link>
      </th>
      <td className="px-4 py-2 whitespace-nowrap">{KIND_DEFINITIONS[experiment.kind].title}</td>
      {showLinks ? (
        <td className="px-4 py-2">
          <ExperimentLinks experiment={experiment} />
        </td>
      ) : null}
      <td className="px-4 py-2">
        <StatusBadge status={experiment.status} />
      </td>
      <td className="min-w-48 px-4 py-2">
        <Answer experiment={experiment} />
      </td>
      <td className="px-4 py-2 text-right">
        <Steps experiment={experiment} />
      </td>
      <td className="px-4 py-2 whitespace-nowrap">
        <RelativeTime date={experiment.createdAt} />
      </td>
    </>
  );
}

/**
 * Experiments newest first: name (opens it), kind, links, status, the answer in a sentence,
 * steps done of planned, and when it was created. A link page leaves the links out.
 */
export function ExperimentList({
  experiments,
  showLinks = true,
}: {
  experiments: ExperimentListItem[];
  showLinks?: boolean;
}) {
  const columns = [
    { header: "Name" },
    { header: "Kind" },
    ...(showLinks ? [{ header: "Links" }] : []),
    { header: "Status" },
    { header: "Answer" },
    { header: "Steps", className: "text-right" },
    { header: "Created" },
  ];
  return (
    <TableOrCards
      items={experiments}
      label="Experiments"
      columns={columns}
      keyOf={(experiment) => experiment.id}
      row={(experiment) => <ExperimentCells experiment={experiment} showLinks={showLinks} />}
      rowTestId={(experiment) => `experiment-row-${experiment.id}`}
      card={(experiment) => <ExperimentCard experiment={experiment} showLinks={showLinks} />}
      cardTestId={(experiment) => `experiment-card-${experiment.id}`}
      breakpoint="md"
    />
  );
}
