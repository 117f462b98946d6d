import { NoLinksYet } from "@/components/EmptyState";
import { Breadcrumb, PageHeader } from "@/components/PageHeader";
import { NewExperimentForm } from "@/components/experiments/NewExperimentForm";
import { formHostsOf } from "@/components/experiments/form/fields";
import { readNewExperimentParams } from "@/components/experiments/form/prefill";
import { formLinksOf } from "@/components/schedules/form-links";
import { requirePage } from "@/lib/auth/guard";
import { listHosts } from "@/lib/inventory/hosts";
import { listLinks } from "@/lib/inventory/links";

export const dynamic = "force-dynamic";
export const metadata = { title: "New experiment" };

type SearchValue = string | string[] | undefined;

export default async function NewExperimentPage({
  searchParams,
}: {
  searchParams: Promise<{ preset?: SearchValue; kind?: SearchValue; link?: SearchValue; links?: SearchValue }>;
}) {
  await requirePage("run");
  const [links, hosts, params] = await Promise.all([listLinks(), listHosts({ localFirst: true }), searchParams]);
  const formLinks = formLinksOf(links, hosts);
  return (
    <div className="max-w-5xl">
      <Breadcrumb href="/experiments" label="Experiments" />
      <PageHeader
        title="New experiment"
        description="A series of runs that changes one thing at a time, carried out for you and turned into one answer."
      />
      {formLinks.length > 0 ? (
        <NewExperimentForm links={formLinks} hosts={formHostsOf(links)} prefill={readNewExperimentParams(params)} />
      ) : (
        <NoLinksYet lead="Experiments measure links." />
      )}
    </div>
  );
}
