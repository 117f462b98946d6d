import { NoLinksYet } from "@/components/EmptyState";
import { Breadcrumb, PageHeader } from "@/components/PageHeader";
import { SCHEDULE_FORM_DEFAULTS } from "@/components/schedules/fields";
import { formLinksOf } from "@/components/schedules/form-links";
import { ScheduleForm } from "@/components/schedules/ScheduleForm";
import { requirePage } from "@/lib/auth/guard";
import { listHosts } from "@/lib/inventory/hosts";
import { listLinks } from "@/lib/inventory/links";

export const dynamic = "force-dynamic";
export const metadata = { title: "New schedule" };

type SearchValue = string | string[] | undefined;

/** `?link=3` from a link page: the form starts on that link's test. */
function linkIdOf(value: SearchValue): string {
  const text = Array.isArray(value) ? value[0] : value;
  return text && /^[1-9]\d{0,9}$/.test(text) ? text : "";
}

export default async function NewSchedulePage({ searchParams }: { searchParams: Promise<{ link?: SearchValue }> }) {
  await requirePage("monitor");
  const [links, hosts, params] = await Promise.all([listLinks(), listHosts({ localFirst: true }), searchParams]);
  const formLinks = formLinksOf(links, hosts);
  const linkId = linkIdOf(params.link);
  const initial = {
    ...SCHEDULE_FORM_DEFAULTS,
    linkId: formLinks.some((link) => String(link.id) === linkId) ? linkId : "",
  };
  return (
    <div className="max-w-5xl">
      <Breadcrumb href="/schedules" label="Schedules" />
      <PageHeader
        title="New schedule"
        description="A link's test or an experiment, repeated on a timing. The next starts show before you save."
      />
      {formLinks.length > 0 ? (
        <ScheduleForm links={formLinks} initial={initial} />
      ) : (
        <NoLinksYet lead="Schedules repeat tests on links." />
      )}
    </div>
  );
}
