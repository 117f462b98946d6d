"use client";

import { RelativeTime } from "@/components/ui/RelativeTime";

// Cells the account lists (users, API tokens) share.

/** A moment of the account (created, last used, last sign-in), in a column shown from `sm` on. */
export function WideTimeCell({ date }: { date: string | null }) {
  return (
    <td className="hidden py-2 pr-4 sm:table-cell">
      <RelativeTime date={date} />
    </td>
  );
}

/** "active", or why not in red: `inactive` ("revoked", "disabled"). */
export function ActiveState({ inactive }: { inactive: string | null }) {
  return inactive ? <span className="text-red-700 dark:text-red-300">{inactive}</span> : "active";
}
