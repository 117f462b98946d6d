import { HostTable } from "@/components/HostTable";
import { PageHeader } from "@/components/PageHeader";
import { listHosts } from "@/lib/queries/hosts";

export const dynamic = "force-dynamic";
export const metadata = { title: "Hosts" };

export default async function HostsPage() {
  const hosts = await listHosts();
  return (
    <>
      <PageHeader title="Hosts" description="Machines Wirespeed reaches over SSH, and this machine." />
      <HostTable hosts={hosts} />
    </>
  );
}
