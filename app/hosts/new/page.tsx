import { PageHeader } from "@/components/PageHeader";
import { AddHostForm } from "@/components/hosts/AddHostForm";
import { requirePage } from "@/lib/auth/guard";

export const metadata = { title: "Add host" };

export default async function NewHostPage() {
  await requirePage("credentials");
  return (
    <div className="max-w-3xl">
      <PageHeader title="Add host" description="Wirespeed logs in over SSH to start iperf3 there and read its NICs." />
      <AddHostForm />
    </div>
  );
}
