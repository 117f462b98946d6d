"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useActionForm } from "@/components/forms/use-action-form";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { Button, WithRefusal } from "@/components/ui/ui";
import { TEXT_LINK } from "@/components/ui/styles";
import { LocalTime } from "@/components/units/LocalTime";
import { revokeShareAction } from "@/lib/shares/actions/revoke-share";
import type { ShareListItem } from "@/lib/shares/contract";

const PAGE_OF = { run: "runs", experiment: "experiments", link: "links" } as const;

function What({ share }: { share: ShareListItem }) {
  if (!share.title) return <span className="text-slate-600 dark:text-slate-400">Deleted {share.kind}</span>;
  return (
    <Link href={`/${PAGE_OF[share.kind]}/${share.targetId}`} className={TEXT_LINK}>
      {share.title}
    </Link>
  );
}

function Expires({ share }: { share: ShareListItem }) {
  if (!share.expiresAt) return <>Never</>;
  return (
    <span className={share.isExpired ? "text-red-700 dark:text-red-300" : ""}>
      {share.isExpired ? "Expired " : ""}
      <LocalTime iso={share.expiresAt} />
    </span>
  );
}

function RevokeButton({ share }: { share: ShareListItem }) {
  const router = useRouter();
  const { isPending, message, submit } = useActionForm();
  return (
    <WithRefusal message={message}>
      <Button
        type="button"
        variant="danger"
        isPending={isPending}
        pendingLabel="Revoking…"
        aria-label={`Revoke share ${share.id} (${share.title ?? share.kind})`}
        onClick={() => submit(() => revokeShareAction({ shareId: share.id }), { onSuccess: () => router.refresh() })}
      >
        Revoke
      </Button>
    </WithRefusal>
  );
}

/** Every share link: what it shows, until when, whether it hides addresses, who made it, Revoke (its URL was shown once, when it was made). */
export function ShareList({ shares }: { shares: ShareListItem[] }) {
  return (
    <TableOrCards<ShareListItem>
      items={shares}
      label="Share links"
      testId="share-list"
      breakpoint="md"
      columns={[
        { header: "Shows" },
        { header: "Expires" },
        { header: "Addresses" },
        { header: "Made by" },
        { header: <span className="sr-only">Revoke</span> },
      ]}
      keyOf={(share) => share.id}
      rowTestId={(share) => `share-row-${share.id}`}
      row={(share) => (
        <>
          <th scope="row" className="px-4 py-2 text-left font-medium">
            <What share={share} />
          </th>
          <td className="px-4 py-2 whitespace-nowrap">
            <Expires share={share} />
          </td>
          <td className="px-4 py-2">{share.hideAddresses ? "Hidden" : "Shown"}</td>
          <td className="px-4 py-2">
            {share.createdBy}
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              <LocalTime iso={share.createdAt} />
            </span>
          </td>
          <td className="px-4 py-2 text-right">
            <RevokeButton share={share} />
          </td>
        </>
      )}
      cardTestId={(share) => `share-card-${share.id}`}
      card={(share) => (
        <div className="space-y-1">
          <p className="font-medium">
            <What share={share} />
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            Expires: <Expires share={share} /> · addresses {share.hideAddresses ? "hidden" : "shown"} · by{" "}
            {share.createdBy}
          </p>
          <RevokeButton share={share} />
        </div>
      )}
    />
  );
}
