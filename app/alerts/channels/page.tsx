import Link from "next/link";
import { ChannelList } from "@/components/alerts/ChannelList";
import { Breadcrumb, PageHeader } from "@/components/PageHeader";
import { requirePage } from "@/lib/auth/guard";
import { listChannels } from "@/lib/notify/channels";

export const dynamic = "force-dynamic";
export const metadata = { title: "Notification channels" };

export default async function ChannelsPage() {
  const principal = await requirePage("read");
  const channels = await listChannels(principal);
  return (
    <div className="max-w-5xl">
      <Breadcrumb href="/alerts" label="Alerts" />
      <PageHeader
        title="Notification channels"
        description={
          <>
            Where an alert is sent when it fires and when it is over, as the{" "}
            <Link href="/alerts/rules" className="font-medium text-sky-800 underline dark:text-sky-300">
              rules
            </Link>{" "}
            name them. Tokens, passwords and webhook secrets are kept sealed and never shown again; a change of where a
            channel sends drops them until they are entered again.
          </>
        }
      />
      <ChannelList channels={channels} />
    </div>
  );
}
