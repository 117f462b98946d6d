import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { HostTable } from "@/components/HostTable";
import { LinkTable } from "@/components/LinkTable";
import { PageHeader } from "@/components/PageHeader";
import { listHosts } from "@/lib/queries/hosts";
import { listLinks } from "@/lib/queries/links";
import { getOverviewCounts } from "@/lib/queries/overview";

// The inventory changes under the page (runs, new hosts): never serve a stale build-time copy.
export const dynamic = "force-dynamic";

export default async function OverviewPage() {
  const [counts, hosts, links] = await Promise.all([getOverviewCounts(), listHosts(), listLinks()]);
  return (
    <>
      <PageHeader title="Overview" description="What each link of your lab really delivers." />
      <dl className="mb-8 grid grid-cols-3 gap-3">
        {[
          { label: "Hosts", value: counts.hosts, href: "/hosts" },
          { label: "Links", value: counts.links, href: "/links" },
          { label: "Runs", value: counts.runs, href: "/runs" },
        ].map((item) => (
          <Link
            key={item.label}
            href={item.href}
            className="rounded-lg border border-slate-200 bg-white p-4 hover:border-sky-400 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-sky-600"
          >
            <dt className="text-sm text-slate-600 dark:text-slate-400">{item.label}</dt>
            <dd className="text-2xl font-semibold" data-testid={`count-${item.label.toLowerCase()}`}>{item.value}</dd>
          </Link>
        ))}
      </dl>
      <section aria-labelledby="links-heading" className="mb-8">
        <h2 id="links-heading" className="mb-3 text-lg font-semibold">Links</h2>
        {links.length > 0 ? (
          <LinkTable links={links} />
        ) : (
          <EmptyState title="No links yet">
            A link joins a NIC on one host to a NIC on another. Add a second host, discover its NICs, then create a link
            between them to measure it.
          </EmptyState>
        )}
      </section>
      <section aria-labelledby="hosts-heading">
        <h2 id="hosts-heading" className="mb-3 text-lg font-semibold">Hosts</h2>
        <HostTable hosts={hosts} />
      </section>
    </>
  );
}
