"use client";

import { useRouter } from "next/navigation";
import { useActionForm } from "@/components/forms/use-action-form";
import { signOutAction } from "@/lib/auth/actions/sign-out";

export function SignOutButton() {
  const router = useRouter();
  const { isPending, submit } = useActionForm();
  // Signed out or not (an ended session answers a refusal), the login page is next.
  const toLogin = () => {
    router.replace("/login");
    router.refresh();
  };
  return (
    <button
      type="button"
      disabled={isPending}
      onClick={() => submit(signOutAction, { onSuccess: toLogin, onFailure: toLogin })}
      className={
        "rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-200 " +
        "hover:text-slate-900 outline-none focus-visible:ring-2 focus-visible:ring-sky-500 " +
        "dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
      }
    >
      {isPending ? "Signing out…" : "Sign out"}
    </button>
  );
}
