import { cookies } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/auth/AuthCard";
import { CredentialsForm } from "@/components/auth/CredentialsForm";
import { TEXT_LINK } from "@/components/ui/styles";
import { Notice } from "@/components/ui/ui";
import { signInAction } from "@/lib/auth/actions/sign-in";
import { currentProxyOutcome, currentSessionPrincipal } from "@/lib/auth/guard";
import { OIDC_NOTICE_COOKIE, oidcSettings, readNotice } from "@/lib/auth/oidc";
import { countUsers } from "@/lib/auth/users";
import { OidcButton } from "./OidcButton";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  if (await currentSessionPrincipal()) redirect("/");
  const oidc = oidcSettings();
  const hasUsers = (await countUsers()) > 0;
  // Without an identity provider the first visitor can only set up the first admin.
  if (!hasUsers && !oidc) redirect("/setup");
  const next = (await searchParams).next;
  const notice = readNotice((await cookies()).get(OIDC_NOTICE_COOKIE)?.value);
  // A trusted proxy named a user Wirespeed refuses (no group giving a role, disabled, a local account's name).
  const { refused: proxyRefused } = await currentProxyOutcome();
  return (
    <AuthCard title="Sign in to Wirespeed" description="Ask an admin of this Wirespeed for an account.">
      <div className="space-y-5">
        {notice ? (
          <Notice tone="error" title="Not signed in" testId="oidc-notice">
            {notice.message}
          </Notice>
        ) : null}
        {proxyRefused ? (
          <Notice tone="error" title="Not signed in" testId="proxy-refused">
            {proxyRefused}
          </Notice>
        ) : null}
        {oidc ? <OidcButton name={oidc.name} next={typeof next === "string" ? next : undefined} /> : null}
        {oidc?.only ? (
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="password-sign-in-off">
            Password sign-in is turned off here: sign in with {oidc.name}.
          </p>
        ) : (
          <>
            {oidc ? (
              <p className="flex items-center gap-3 text-xs text-slate-600 uppercase dark:text-slate-400" aria-hidden>
                <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
                or with a password
                <span className="h-px flex-1 bg-slate-200 dark:bg-slate-700" />
              </p>
            ) : null}
            <CredentialsForm mode="sign-in" action={signInAction} next={typeof next === "string" ? next : undefined} />
          </>
        )}
        {hasUsers ? null : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No account exists yet:{" "}
            <Link href="/setup" className={TEXT_LINK}>
              set up the first admin
            </Link>
            .
          </p>
        )}
      </div>
    </AuthCard>
  );
}
