import { EmptyState } from "@/components/EmptyState";
import { LinkTable } from "@/components/LinkTable";
import { PageHeader } from "@/components/PageHeader";
import { listLinks } from "@/lib/queries/links";

export const dynamic = "force-dynamic";
export const metadata = { title: "Links" };

export default async function LinksPage() {
  const links = await listLinks();
  return (
    <>
      <PageHeader title="Links" description="Pairs of NICs whose throughput Wirespeed measures." />
      {links.length > 0 ? (
        <LinkTable links={links} />
      ) : (
        <EmptyState title="No links yet">A link joins a NIC on one host to a NIC on another host.</EmptyState>
      )}
    </>
  );
}
