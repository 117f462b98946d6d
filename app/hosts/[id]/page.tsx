import Link from "next/link";
import { cache } from "react";
import { notFound } from "next/navigation";
import { EmptyState } from "@/components/EmptyState";
import { platformLabel } from "@/lib/platforms";
import { DeleteHostButton } from "@/components/hosts/DeleteHostButton";
import { DiscoverNicsButton } from "@/components/hosts/DiscoverNicsButton";
import { EditHostForm } from "@/components/hosts/EditHostForm";
import { HostConnectionPanel } from "@/components/hosts/HostConnectionPanel";
import { HostStatusBadge, LastSeen } from "@/components/hosts/HostStatus";
import { NicTable } from "@/components/hosts/NicTable";
import { TEXT_LINK } from "@/components/ui/styles";
import { getHostDetail } from "@/lib/inventory/host-reads";
import { requirePage } from "@/lib/auth/guard";
import { can } from "@/lib/auth/roles";
import { sshTarget } from "@/components/hosts/fields";
import { PageSection } from "@/components/PageSection";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ id: string }> };

function hostIdOf(text: string): number | null {
  return /^\d{1,10}$/.test(text) ? Number(text) : null;
}

export async function generateMetadata({ params }: Params) {
  await requirePage("read");
  const id = hostIdOf((await params).id);
  const detail = id ? await loadHostDetail(id) : null;
  return { title: detail ? detail.host.name : "Host" };
}

// The metadata and the page ask for the same host in one request: read it once.
const loadHostDetail = cache((hostId: number) => getHostDetail({ hostId }));

const SECTION = "rounded-lg border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900";

export default async function HostPage({ params }: Params) {
  const principal = await requirePage("read");
  const mayEdit = can(principal.role, "inventory");
  const mayDelete = can(principal.role, "credentials");
  const id = hostIdOf((await params).id);
  const detail = id ? await loadHostDetail(id) : null;
  if (!detail) notFound();
  const { host, nics, impact } = detail;
  const keyStatus = host.isLocal ? "this machine (no SSH)" : host.hostKeyFingerprint ? "pinned" : "not confirmed";

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link href="/hosts" className={TEXT_LINK}>
          Hosts
        </Link>
        <span aria-hidden className="mx-1 text-slate-500">
          /
        </span>
        <span aria-current="page">{host.name}</span>
      </nav>
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold tracking-tight">
            {host.name} <HostStatusBadge host={host} />
          </h1>
          <p className="mt-1 font-mono text-sm break-all text-slate-600 dark:text-slate-400">{sshTarget(host)}</p>
        </div>
      </div>
      <dl className="mb-8 grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Host facts">
        {[
          { label: "Platform", value: platformLabel(host.platform), testId: "host-platform" },
          {
            label: "iperf3",
            value: host.iperf3Version ? host.iperf3Version : "not found yet",
            detail: host.iperf3Path,
            testId: "host-iperf3",
          },
          { label: "Last seen", value: <LastSeen date={host.lastSeenAt} />, testId: "host-last-seen" },
          { label: "Host key", value: keyStatus, detail: host.hostKeyFingerprint, testId: "host-key" },
        ].map((fact) => (
          <div
            key={fact.label}
            className="min-w-0 rounded-lg border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900"
          >
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-600 dark:text-slate-400">
              {fact.label}
            </dt>
            <dd className="mt-1 font-medium" data-testid={fact.testId}>
              {fact.value}
              {fact.detail ? (
                <span
                  className="mt-0.5 block truncate font-mono text-xs font-normal text-slate-600 dark:text-slate-400"
                  title={fact.detail}
                >
                  {fact.detail}
                </span>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>

      {mayEdit ? (
        <PageSection name="connection" title="Connection" headingClassName="mb-1" className={`${SECTION} mb-8`}>
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
            {host.isLocal || host.hostKeyFingerprint
              ? "Logs in and detects the platform and iperf3 again."
              : "The host key is not confirmed yet: check the connection to see the key the host presents, and confirm it."}
          </p>
          <HostConnectionPanel hostId={host.id} hostName={host.name} buttonLabel="Check connection" />
        </PageSection>
      ) : null}

      <PageSection name="nics" title="NICs" count={nics.length} className="mb-8">
        {mayEdit ? (
          <div className="mb-4">
            <DiscoverNicsButton hostId={host.id} variant={nics.length === 0 ? "primary" : "secondary"} />
          </div>
        ) : null}
        {nics.length > 0 ? (
          <NicTable nics={nics} />
        ) : (
          <EmptyState title="No NICs yet">
            {host.isLocal || host.hostKeyFingerprint
              ? "Discover NICs reads this host's network interfaces, their addresses, speeds, MTUs and PCIe links."
              : "Confirm the host key first (Check connection above), then discover its NICs."}
          </EmptyState>
        )}
        {nics.length > 0 ? (
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            Next:{" "}
            <Link href="/links/new" className="font-medium text-sky-800 underline dark:text-sky-300">
              create a link
            </Link>{" "}
            from one of these NICs to a NIC of another host.
          </p>
        ) : null}
      </PageSection>

      {mayEdit ? (
        <PageSection name="edit" title="Settings" headingClassName="mb-4" className={`${SECTION} mb-8`}>
          <EditHostForm host={host} />
        </PageSection>
      ) : null}

      {mayDelete ? (
        <section
          aria-labelledby="danger-heading"
          className="rounded-lg border border-red-200 p-4 sm:p-6 dark:border-red-900"
        >
          <h2 id="danger-heading" className="mb-1 text-lg font-semibold">
            Delete
          </h2>
          <p className="mb-4 text-sm text-slate-600 dark:text-slate-400">
            Removes the host with its NICs, their links and the history of those links.
          </p>
          <DeleteHostButton hostId={host.id} hostName={host.name} impact={impact} />
        </section>
      ) : null}
    </>
  );
}
