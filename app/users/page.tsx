import Link from "next/link";
import { PageHeader } from "@/components/PageHeader";
import { TokenManager } from "@/components/auth/TokenManager";
import { UserManager } from "@/components/auth/UserManager";
import { requirePage } from "@/lib/auth/guard";
import { listApiTokens } from "@/lib/auth/tokens";
import { listUsers } from "@/lib/auth/users";

export const dynamic = "force-dynamic";
export const metadata = { title: "Users" };

export default async function UsersPage() {
  const principal = await requirePage("users");
  const [users, tokens] = await Promise.all([listUsers(), listApiTokens()]);
  return (
    <>
      <PageHeader
        title="Users"
        description="Admins manage users, hosts and credentials; operators run tests and edit the inventory; viewers only look."
        actions={
          <Link href="/audit" className="text-sm font-medium text-sky-800 underline dark:text-sky-300">
            Audit log
          </Link>
        }
      />
      <UserManager users={users} selfId={principal.userId} />
      <section aria-labelledby="all-tokens-heading" className="mt-8 space-y-3">
        <h2 id="all-tokens-heading" className="text-lg font-semibold">
          Everyone&apos;s API tokens
        </h2>
        <TokenManager tokens={tokens} canCreate={false} showOwner />
      </section>
    </>
  );
}
