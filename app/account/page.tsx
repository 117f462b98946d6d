import { PageHeader } from "@/components/PageHeader";
import { TokenManager } from "@/components/auth/TokenManager";
import { requirePage } from "@/lib/auth/guard";
import { ROLE_DESCRIPTIONS } from "@/lib/auth/roles";
import { listApiTokens } from "@/lib/auth/tokens";

export const dynamic = "force-dynamic";
export const metadata = { title: "Your account" };

export default async function AccountPage() {
  const principal = await requirePage("read");
  const tokens = principal.userId ? await listApiTokens(principal.userId) : [];
  return (
    <>
      <PageHeader
        title="Your account"
        description={`${principal.name}, ${principal.role}: ${ROLE_DESCRIPTIONS[principal.role]}`}
      />
      <section aria-labelledby="tokens-heading" className="space-y-3">
        <h2 id="tokens-heading" className="text-lg font-semibold">
          API tokens
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          For scripts and the REST API (docs/api.md). A token acts with your role; revoking it stops it at once.
        </p>
        <TokenManager tokens={tokens} canCreate={principal.userId !== null} />
      </section>
    </>
  );
}
