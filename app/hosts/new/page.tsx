import { PageHeader } from "@/components/PageHeader";
import { AddHostForm } from "@/components/hosts/AddHostForm";
import { jumpOptionsFor } from "@/components/hosts/fields";
import { listHosts } from "@/lib/inventory/hosts";
import { requirePage } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";
export const metadata = { title: "Add host" };

export default async function NewHostPage() {
  await requirePage("credentials");
  // The hosts a new one may be reached through (its "Reach through" choices).
  const jumpOptions = jumpOptionsFor(await listHosts());
  return (
    <div className="max-w-3xl">
      <PageHeader
        title="Add host"
        description="Wirespeed logs in over SSH to start iperf3 there and read its NICs; an iperf3 server or a device takes part in tests without a login."
      />
      <AddHostForm jumpOptions={jumpOptions} />
    </div>
  );
}
