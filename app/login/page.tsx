import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/AuthCard";
import { CredentialsForm } from "@/components/auth/CredentialsForm";
import { signInAction } from "@/lib/auth/actions/sign-in";
import { currentSessionPrincipal } from "@/lib/auth/guard";
import { countUsers } from "@/lib/auth/users";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  if (await currentSessionPrincipal()) redirect("/");
  if ((await countUsers()) === 0) redirect("/setup");
  const next = (await searchParams).next;
  return (
    <AuthCard title="Sign in to Wirespeed" description="Ask an admin of this Wirespeed for an account.">
      <CredentialsForm mode="sign-in" action={signInAction} next={typeof next === "string" ? next : undefined} />
    </AuthCard>
  );
}
