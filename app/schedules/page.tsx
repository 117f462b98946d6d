import Link from "next/link";
import { EmptyState } from "@/components/EmptyState";
import { HeaderLink, PageHeader } from "@/components/PageHeader";
import { ScheduleList } from "@/components/schedules/ScheduleList";
import { requirePage } from "@/lib/auth/guard";
import { can } from "@/lib/auth/roles";
import { listSchedules } from "@/lib/schedules/store";

export const dynamic = "force-dynamic";
export const metadata = { title: "Schedules" };

export default async function SchedulesPage() {
  const principal = await requirePage("read");
  const schedules = await listSchedules();
  const mayChange = can(principal.role, "monitor");
  return (
    <>
      <PageHeader
        title="Schedules"
        description="Tests and experiments that Wirespeed repeats on a timing, with what each last gave."
        actions={
          <HeaderLink href="/schedules/new" isShown={mayChange}>
            New schedule
          </HeaderLink>
        }
      />
      {schedules.length > 0 ? (
        <ScheduleList schedules={schedules} />
      ) : (
        <EmptyState title="No schedules yet">
          A schedule repeats a link&apos;s test or an experiment every N minutes or on a cron expression, so that a
          slower link shows up the day it slows down, not weeks later.{" "}
          {mayChange ? (
            <>
              <Link href="/schedules/new" className="font-medium text-sky-800 underline dark:text-sky-300">
                Create one
              </Link>
              .
            </>
          ) : (
            "Operators and admins create them."
          )}
        </EmptyState>
      )}
    </>
  );
}
