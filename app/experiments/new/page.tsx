import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { NewExperimentForm } from "@/components/experiments/NewExperimentForm";
import type { FormLink } from "@/components/experiments/form/fields";
import { readNewExperimentParams } from "@/components/experiments/form/prefill";
import { requirePage } from "@/lib/auth/guard";
import { listHosts } from "@/lib/queries/hosts";
import { listLinks } from "@/lib/queries/links";

export const dynamic = "force-dynamic";
export const metadata = { title: "New experiment" };

type SearchValue = string | string[] | undefined;

export default async function NewExperimentPage({
  searchParams,
}: {
  searchParams: Promise<{ preset?: SearchValue; kind?: SearchValue; link?: SearchValue; links?: SearchValue }>;
}) {
  await requirePage("run");
  const [links, hosts, params] = await Promise.all([listLinks(), listHosts(), searchParams]);
  const hostById = new Map(hosts.map((host) => [host.id, host]));
  // Each end's iperf3 version (options it lacks are disabled) and port range.
  const endOf = (end: (typeof links)[number]["a"]) => {
    const host = hostById.get(end.host.id);
    return {
      hostName: end.host.name,
      iperf3Version: host?.iperf3Version ?? null,
      portMin: host?.iperfPortMin ?? 0,
      portMax: host?.iperfPortMax ?? 0,
    };
  };
  const formLinks: FormLink[] = links.map((link) => ({
    id: link.id,
    name: link.name,
    speedMbps: link.speedMbps,
    a: endOf(link.a),
    b: endOf(link.b),
  }));
  return (
    <div className="max-w-5xl">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-600 dark:text-slate-400">
        <Link href="/experiments" className="hover:underline">
          Experiments
        </Link>
      </nav>
      <PageHeader
        title="New experiment"
        description="A series of runs that changes one thing at a time, carried out for you and turned into one answer."
      />
      {formLinks.length > 0 ? (
        <NewExperimentForm links={formLinks} prefill={readNewExperimentParams(params)} />
      ) : (
        <EmptyState title="No links yet">
          Experiments measure links.{" "}
          <Link href="/links" className="font-medium text-sky-800 underline dark:text-sky-300">
            Create a link
          </Link>{" "}
          between the NICs of two hosts first.
        </EmptyState>
      )}
    </div>
  );
}
