import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { HeaderLink, PageHeader } from "@/components/PageHeader";
import { HostList } from "@/components/hosts/HostList";
import { listPageHref, Pagination, pageOf, LIST_PAGE_SIZE } from "@/components/ui/Pagination";
import { listHosts } from "@/lib/inventory/hosts";
import { requirePage } from "@/lib/auth/guard";
import { can } from "@/lib/auth/roles";

export const dynamic = "force-dynamic";
export const metadata = { title: "Hosts" };

export default async function HostsPage({ searchParams }: { searchParams: Promise<{ page?: string | string[] }> }) {
  const principal = await requirePage("read");
  const hosts = await listHosts({ localFirst: true });
  const { page, start } = pageOf((await searchParams).page, hosts.length);
  const remoteCount = hosts.filter((host) => !host.isLocal).length;
  return (
    <>
      <PageHeader
        title="Hosts"
        description="Machines Wirespeed reaches over SSH (directly or through jump hosts), this machine, and iperf3 servers and devices it does not log in to."
        actions={
          <HeaderLink href="/hosts/new" isShown={can(principal.role, "credentials")}>
            Add host
          </HeaderLink>
        }
      />
      {hosts.length > 0 ? <HostList hosts={hosts.slice(start, start + LIST_PAGE_SIZE)} /> : null}
      <Pagination page={page} pageSize={LIST_PAGE_SIZE} total={hosts.length} hrefFor={listPageHref("/hosts")} />
      {remoteCount === 0 ? (
        <div className={hosts.length > 0 ? "mt-6" : ""}>
          <EmptyState title={hosts.length > 0 ? "No other hosts yet" : "No hosts yet"}>
            A link is measured between two hosts.{" "}
            <Link href="/hosts/new" className="font-medium text-sky-800 underline dark:text-sky-300">
              Add a host
            </Link>{" "}
            with its address and SSH key, confirm its host key, then discover its NICs.
          </EmptyState>
        </div>
      ) : null}
    </>
  );
}
