import Link from "next/link";
import { AuthCard } from "@/components/auth/AuthCard";
import { requirePage } from "@/lib/auth/guard";
import { PERMISSION_NEEDS, PERMISSIONS, type Permission } from "@/lib/auth/roles";

export const dynamic = "force-dynamic";
export const metadata = { title: "Not allowed" };

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string | string[] }> }) {
  const principal = await requirePage("read");
  const need = (await searchParams).need;
  const permission = (PERMISSIONS as readonly string[]).includes(String(need)) ? (need as Permission) : null;
  return (
    <AuthCard title="Not allowed" description={`You are signed in as ${principal.name} (${principal.role}).`}>
      <p className="text-sm">
        {permission ? `That page is for ${PERMISSION_NEEDS[permission]}.` : "Your role does not allow that page."} Ask
        an admin if you need it.
      </p>
      <Link href="/" className="mt-4 inline-block text-sm font-medium text-sky-800 underline dark:text-sky-300">
        Back to the overview
      </Link>
    </AuthCard>
  );
}
