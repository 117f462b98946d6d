import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/AuthCard";
import { CredentialsForm } from "@/components/auth/CredentialsForm";
import { setUpAdminAction } from "@/lib/auth/actions/set-up-admin";
import { countUsers } from "@/lib/auth/users";

export const dynamic = "force-dynamic";
export const metadata = { title: "Set up" };

/** Only while no account exists: the first visitor makes the admin account. */
export default async function SetupPage() {
  if ((await countUsers()) > 0) redirect("/login");
  return (
    <AuthCard
      title="Create the admin account"
      description="Wirespeed has no accounts yet. The admin manages users, hosts and their SSH credentials; add operators and viewers for your team afterwards."
    >
      <CredentialsForm mode="set-up" action={setUpAdminAction} />
    </AuthCard>
  );
}
