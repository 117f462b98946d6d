import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { CreateLinkForm } from "@/components/links/CreateLinkForm";
import { listLinkableNics } from "@/lib/runs/link-reads";
import { requirePage } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";
export const metadata = { title: "Create link" };

export default async function NewLinkPage() {
  await requirePage("inventory");
  const nics = await listLinkableNics();
  const hostCount = new Set(nics.map((nic) => nic.host.id)).size;
  return (
    <div className="max-w-4xl">
      <PageHeader
        title="Create link"
        description="Choose a NIC on each of two hosts: the link is what a test measures."
      />
      {hostCount >= 2 ? (
        <CreateLinkForm nics={nics} />
      ) : (
        <EmptyState title={hostCount === 0 ? "No NICs yet" : "NICs on one host only"}>
          A link needs NICs on two hosts.{" "}
          <Link href="/hosts" className="font-medium text-sky-800 underline dark:text-sky-300">
            Open a host
          </Link>{" "}
          and use Discover NICs{hostCount === 0 ? " on two of them" : " on a second one"}, or{" "}
          <Link href="/hosts/new" className="font-medium text-sky-800 underline dark:text-sky-300">
            add a host
          </Link>
          .
        </EmptyState>
      )}
    </div>
  );
}
