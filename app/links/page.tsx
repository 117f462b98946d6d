import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { HeaderLink, PageHeader } from "@/components/PageHeader";
import { LinkList } from "@/components/links/LinkList";
import { listPageHref, Pagination, pageOf, LIST_PAGE_SIZE } from "@/components/ui/Pagination";
import { listLinks } from "@/lib/inventory/links";
import { requirePage } from "@/lib/auth/guard";
import { can } from "@/lib/auth/roles";

export const dynamic = "force-dynamic";
export const metadata = { title: "Links" };

export default async function LinksPage({ searchParams }: { searchParams: Promise<{ page?: string | string[] }> }) {
  const principal = await requirePage("read");
  const links = await listLinks();
  const { page, start } = pageOf((await searchParams).page, links.length);
  return (
    <>
      <PageHeader
        title="Links"
        description="Pairs of NICs whose throughput Wirespeed measures."
        actions={
          <HeaderLink href="/links/new" isShown={can(principal.role, "inventory")}>
            Create link
          </HeaderLink>
        }
      />
      {links.length > 0 ? (
        <>
          {/* Run together needs two links, and a role that starts tests. */}
          <LinkList
            links={links.slice(start, start + LIST_PAGE_SIZE)}
            canRunTogether={can(principal.role, "run") && links.length >= 2}
          />
          <Pagination page={page} pageSize={LIST_PAGE_SIZE} total={links.length} hrefFor={listPageHref("/links")} />
        </>
      ) : (
        <EmptyState title="No links yet">
          A link joins a NIC on one host to a NIC on another host.{" "}
          <Link href="/hosts" className="font-medium text-sky-800 underline dark:text-sky-300">
            Add two hosts
          </Link>
          , discover their NICs, then{" "}
          <Link href="/links/new" className="font-medium text-sky-800 underline dark:text-sky-300">
            create a link
          </Link>{" "}
          between them.
        </EmptyState>
      )}
    </>
  );
}
