import Link from "next/link";
import { RuleList } from "@/components/alerts/RuleList";
import { Breadcrumb, PageHeader } from "@/components/PageHeader";
import { requirePage } from "@/lib/auth/guard";
import { listAlertRules } from "@/lib/alerts/rules";
import { listLinks } from "@/lib/inventory/links";
import { listChannels } from "@/lib/notify/channels";

export const dynamic = "force-dynamic";
export const metadata = { title: "Alert rules" };

export default async function AlertRulesPage() {
  await requirePage("read");
  const [rules, links, channels] = await Promise.all([listAlertRules(), listLinks(), listChannels()]);
  return (
    <div className="max-w-5xl">
      <Breadcrumb href="/alerts" label="Alerts" />
      <PageHeader
        title="Alert rules"
        description={
          <>
            When a link&apos;s results open an alert: m of its last n runs below a share of the baseline or of the line
            rate, or failed. One alert per episode, sent to the rule&apos;s{" "}
            <Link href="/alerts/channels" className="font-medium text-sky-800 underline dark:text-sky-300">
              channels
            </Link>{" "}
            when it fires and when it is over.
          </>
        }
      />
      <RuleList
        rules={rules}
        links={links.map((link) => ({ id: link.id, name: link.name }))}
        channels={channels.map((channel) => ({ id: channel.id, name: channel.name, type: channel.type }))}
      />
    </div>
  );
}
