import { notFound } from "next/navigation";
import { pageIdOf } from "@/components/page-params";
import { ExperimentView } from "@/components/experiments/ExperimentView";
import { requirePage } from "@/lib/auth/guard";
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";
import { getExperiment } from "@/lib/experiments/reads";
import { getExperimentHints } from "@/lib/diagnosis/reads";

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
  return <ExperimentView initial={experiment} kindTitle={KIND_DEFINITIONS[experiment.kind].title} hints={hints} />;
}
