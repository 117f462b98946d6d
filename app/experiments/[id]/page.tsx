import { notFound } from "next/navigation";
import { pageIdOf } from "@/components/page-params";
import { ExperimentView } from "@/components/experiments/ExperimentView";
import { requirePage } from "@/lib/auth/guard";
import { isActiveExperimentStatus } from "@/lib/experiments/contract";
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";
import { getExperiment } from "@/lib/experiments/reads";
import { getExperimentHints } from "@/lib/diagnosis/reads";
import { CopyAsPost } from "@/components/posts/CopyAsPost";
import { experimentPostSource } from "@/lib/posts/reads";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params) {
  const { id } = await params;
  return { title: `Experiment #${id}` };
}

export default async function ExperimentPage({ params }: Params) {
  await requirePage("read");
  const experimentId = pageIdOf((await params).id);
  if (experimentId === null) notFound();
  const [experiment, hints] = await Promise.all([getExperiment(experimentId), getExperimentHints(experimentId)]);
  if (!experiment) notFound();
  const kindTitle = KIND_DEFINITIONS[experiment.kind].title;
  return (
    <>
      <ExperimentView initial={experiment} kindTitle={kindTitle} hints={hints} />
      {/* The post once the experiment has ended: the page refreshes then. */}
      {isActiveExperimentStatus(experiment.status) ? null : (
        <CopyAsPost source={await experimentPostSource(experiment, kindTitle, hints)} className="mt-8" />
      )}
    </>
  );
}
