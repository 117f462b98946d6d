import { cookies } from "next/headers";
import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { TEXT_LINK } from "@/components/ui/styles";
import { Notice } from "@/components/ui/ui";
import { OIDC_NOTICE_COOKIE, readNotice } from "@/lib/auth/oidc";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign-in refused" };

/** Why the identity provider's user was not let in: no group giving a role, a local account of that name, disabled. */
export default async function SignInRefusedPage() {
  const notice = readNotice((await cookies()).get(OIDC_NOTICE_COOKIE)?.value);
  return (
    <AuthCard title="Sign-in refused" description="Wirespeed did not let this account in.">
      <div className="space-y-4">
        <Notice tone="error" testId="oidc-refusal">
          {notice?.message ?? "The reason is no longer known (it is kept for a minute): sign in again to see it."}
        </Notice>
        <p className="text-sm">
          <Link href="/login" className={TEXT_LINK}>
            Back to sign in
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}
