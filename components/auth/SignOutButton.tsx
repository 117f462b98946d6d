"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { signOutAction } from "@/lib/actions/sign-out";

export function SignOutButton() {
  const router = useRouter();
  const [isPending, startTransition] = useTransition();
  return (
    <button
      type="button"
      disabled={isPending}
      onClick={() =>
        startTransition(async () => {
          await signOutAction();
          router.replace("/login");
          router.refresh();
        })
      }
      className="rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-200 hover:text-slate-900 outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
    >
      {isPending ? "Signing out…" : "Sign out"}
    </button>
  );
}
