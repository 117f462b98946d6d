import { EmptyState } from "@/components/EmptyState";
import { PageHeader } from "@/components/PageHeader";
import { ShareList } from "@/components/shares/ShareList";
import { requirePage } from "@/lib/auth/guard";
import { listShares } from "@/lib/shares/store";

export const dynamic = "force-dynamic";
export const metadata = { title: "Shares" };

export default async function SharesPage() {
  await requirePage("share");
  const shares = await listShares();
  return (
    <>
      <PageHeader
        title="Shares"
        description="Read-only links to a run, an experiment or a link's history that anyone can open without an account, until they expire or you revoke them. A link is shown once, when it is made (Wirespeed keeps only a hash of it): one that was lost is revoked here and made again."
      />
      {shares.length > 0 ? (
        <ShareList shares={shares} />
      ) : (
        <EmptyState title="No share links">
          Share a run, an experiment or a link&apos;s history with its page&apos;s Share button: the link opens that
          page only, read-only, with host names and addresses hidden if you ask.
        </EmptyState>
      )}
    </>
  );
}
