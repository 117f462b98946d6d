import Link from "next/link";
import { cache, type ReactNode } from "react";
import { notFound } from "next/navigation";
import { EmptyState } from "@/components/EmptyState";
import { platformLabel } from "@/lib/platforms";
import { DeleteHostButton } from "@/components/hosts/DeleteHostButton";
import { AddNicForm } from "@/components/hosts/AddNicForm";
import { DiscoverNicsButton } from "@/components/hosts/DiscoverNicsButton";
import { EditHostForm } from "@/components/hosts/EditHostForm";
import { HostConnectionPanel } from "@/components/hosts/HostConnectionPanel";
import { HostStatusBadge, LastSeen } from "@/components/hosts/HostStatus";
import { NicTable } from "@/components/hosts/NicTable";
import { TagList } from "@/components/hosts/TagList";
import { TEXT_LINK } from "@/components/ui/styles";
import { getHostDetail } from "@/lib/inventory/host-reads";
import { requirePage } from "@/lib/auth/guard";
import { can } from "@/lib/auth/roles";
import { accessLabel, jumpOptionsFor, sshTarget } from "@/components/hosts/fields";
import { listHosts, type HostView } from "@/lib/inventory/hosts";
import { PageSection } from "@/components/PageSection";
import { DeviceRuns } from "@/components/devices/DeviceRuns";
import { getDeviceRuns } from "@/lib/runs/device-reads";

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

/** The route SSH takes to a host behind jump hosts: each hop a link to its host, then the host itself. */
function JumpChainLine({ host }: { host: HostView }) {
  return (
    <p className="mt-1 text-sm text-slate-700 dark:text-slate-300" data-testid="host-chain">
      Reached through{" "}
      {host.jumpChain.map((hop) => (
        <span key={hop.id}>
          <Link href={`/hosts/${hop.id}`} className={TEXT_LINK}>
            {hop.name}
          </Link>
          <span aria-hidden> → </span>
          <span className="sr-only">, then </span>
        </span>
      ))}
      <span className="font-medium">{host.name}</span>
    </p>
  );
}

/** The facts of the host's access: what Wirespeed detected on an SSH host, where an iperf3 server or a device is. */
type Fact = { label: string; value: ReactNode; detail?: string | null; testId: string };

function hostFacts(host: HostView): Fact[] {
  return [
    ...accessFacts(host),
    { label: "Tags", value: <TagList tags={host.tags} />, testId: "host-tags" },
    // The site whose instances drive the host (several instances on one Postgres); only where one is set.
    ...(host.site ? [{ label: "Site", value: host.site, testId: "host-site" }] : []),
  ];
}

function accessFacts(host: HostView): Fact[] {
  const access = { label: "Access", value: accessLabel(host), testId: "host-access" };
  if (host.access === "iperf3-server")
    return [
      access,
      { label: "Address", value: host.address, testId: "host-address" },
      {
        label: "iperf3 ports",
        value:
          host.iperfPortMin === host.iperfPortMax
            ? String(host.iperfPortMin)
            : `${host.iperfPortMin}-${host.iperfPortMax}`,
        testId: "host-ports",
      },
    ];
  if (host.access === "device")
    return [access, { label: "Address", value: host.address || "none", testId: "host-address" }];
  const keyStatus = host.isLocal ? "this machine (no SSH)" : host.hostKeyFingerprint ? "pinned" : "not confirmed";
  return [
    access,
    { label: "Platform", value: platformLabel(host.platform), testId: "host-platform" },
    {
      label: "iperf3",
      value: host.iperf3Version ? host.iperf3Version : "not found yet",
      detail: host.iperf3Path,
      testId: "host-iperf3",
    },
    { label: "Last seen", value: <LastSeen date={host.lastSeenAt} />, testId: "host-last-seen" },
    { label: "Host key", value: keyStatus, detail: host.hostKeyFingerprint, testId: "host-key" },
  ];
}

/** What a host Wirespeed does not log in to does in a test. */
const NO_LOGIN_ROLE: Record<"iperf3-server" | "device", string> = {
  "iperf3-server":
    "In a test, the other end of the link runs the iperf3 client against this host's server, on a port of its range.",
  device:
    "In a test, the other end of the link starts an iperf3 server and waits for this device to connect (iperf3 -c, or an iperf3 app).",
};

const SECTION = "rounded-lg border border-slate-200 bg-white p-4 sm:p-6 dark:border-slate-800 dark:bg-slate-900";

export default async function HostPage({ params }: Params) {
  const principal = await requirePage("read");
  const mayEdit = can(principal.role, "inventory");
  const mayDelete = can(principal.role, "credentials");
  const id = hostIdOf((await params).id);
  const [detail, hosts] = await Promise.all([id ? loadHostDetail(id) : null, mayEdit ? listHosts() : []]);
  if (!detail) notFound();
  const { host, nics, impact } = detail;
  const isSsh = host.access === "ssh";
  // A device's page leads with its runs, by NIC: its Wi-Fi side next to its Ethernet side.
  const deviceRuns = host.access === "device" ? await getDeviceRuns(host.id) : null;

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
          {host.jumpChain.length > 0 ? <JumpChainLine host={host} /> : null}
        </div>
      </div>
      <dl className="mb-8 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Host facts">
        {hostFacts(host).map((fact) => (
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

      {deviceRuns ? <DeviceRuns nics={deviceRuns} /> : null}
      {!isSsh ? (
        <PageSection name="connection" title="Connection" headingClassName="mb-1" className={`${SECTION} mb-8`}>
          <p className="text-sm" data-testid="no-login">
            Wirespeed does not log in to this host; add its NICs by hand.
          </p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {NO_LOGIN_ROLE[host.access as keyof typeof NO_LOGIN_ROLE]}
          </p>
        </PageSection>
      ) : mayEdit ? (
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
        {mayEdit && isSsh ? (
          <div className="mb-4">
            <DiscoverNicsButton hostId={host.id} variant={nics.length === 0 ? "primary" : "secondary"} />
          </div>
        ) : null}
        {nics.length > 0 ? (
          <NicTable nics={nics} />
        ) : (
          <EmptyState title="No NICs yet">
            {!isSsh
              ? host.access === "device"
                ? "Add the device's NIC by hand (Wi-Fi, Ethernet); its address may be left out."
                : "Add the NIC its iperf3 server answers on by hand, with that address."
              : host.isLocal || host.hostKeyFingerprint
                ? "Discover NICs reads this host's network interfaces, their addresses, speeds, MTUs and PCIe links."
                : "Confirm the host key first (Check connection above), then discover its NICs."}
          </EmptyState>
        )}
        {mayEdit && !isSsh ? (
          <div className="mt-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
            <h3 className="mb-3 font-semibold">Add a NIC</h3>
            <AddNicForm hostId={host.id} isAddressOptional={host.access === "device"} />
          </div>
        ) : null}
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
          <EditHostForm host={host} jumpOptions={jumpOptionsFor(hosts, host.id)} />
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
