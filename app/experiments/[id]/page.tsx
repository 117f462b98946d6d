import { notFound } from "next/navigation";
import { ExperimentView } from "@/components/experiments/ExperimentView";
import { requirePage } from "@/lib/auth/guard";
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";
import { getExperiment } from "@/lib/experiments/reads";
import { getExperimentHints } from "@/lib/diagnosis/reads";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

function experimentIdOf(raw: string): number | null {
  return /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

export async function generateMetadata({ params }: Params) {
  const { id } = await params;
  return { title: `Experiment #${id}` };
}

export default async function ExperimentPage({ params }: Params) {
  await requirePage("read");
  const experimentId = experimentIdOf((await params).id);
  if (experimentId === null) notFound();
  const [experiment, hints] = await Promise.all([getExperiment(experimentId), getExperimentHints(experimentId)]);
  if (!experiment) notFound();
  return <ExperimentView initial={experiment} kindTitle={KIND_DEFINITIONS[experiment.kind].title} hints={hints} />;
}
