"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { useCan } from "@/components/auth/ViewerContext";
import { ConfirmDeleteButton } from "@/components/schedules/ConfirmDeleteButton";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { Button, Spinner } from "@/components/ui/ui";
import { deleteChannelAction } from "@/lib/notify/actions/delete-channel";
import { testChannelAction } from "@/lib/notify/actions/test-channel";
import { CHANNEL_TYPE_LABELS, type ChannelJson } from "@/lib/notify/contract";
import { describeDelivery, describeDestination } from "./channel-fields";
import { ChannelForm } from "./ChannelForm";

type TestOutcome = { status: "sent" | "failed"; text: string };

/** Send test, with how it went beside it: "sent", or "failed after 1 attempt: HTTP 500 …". */
function SendTestButton({ channel }: { channel: ChannelJson }) {
  const [delivery, setDelivery] = useState<TestOutcome | null>(null);
  const { isPending, message: failure, submit } = useActionForm();
  const outcome: TestOutcome | null = failure !== null ? { status: "failed", text: failure } : delivery;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Button
        type="button"
        className="px-2.5 py-1 text-xs"
        aria-label={`Send test to ${channel.name}`}
        isPending={isPending}
        pendingLabel="Sending…"
        onClick={() =>
          submit(() => testChannelAction({ channelId: channel.id }), {
            onSuccess: (value) => setDelivery({ status: value.status, text: describeDelivery(value) }),
            onFailure: () => setDelivery(null),
          })
        }
      >
        Send test
      </Button>
      <span
        role="status"
        aria-live="polite"
        className="text-xs break-words"
        data-testid="channel-test-result"
        data-status={outcome?.status}
      >
        {isPending ? (
          <Spinner />
        ) : outcome ? (
          <span
            className={
              outcome.status === "sent"
                ? "font-medium text-emerald-700 dark:text-emerald-300"
                : "text-red-700 dark:text-red-300"
            }
          >
            {outcome.text}
          </span>
        ) : null}
      </span>
    </span>
  );
}

function ChannelActions({ channel, onEdit }: { channel: ChannelJson; onEdit: () => void }) {
  const router = useRouter();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <SendTestButton channel={channel} />
      <Button type="button" className="px-2.5 py-1 text-xs" onClick={onEdit} aria-label={`Edit ${channel.name}`}>
        Edit
      </Button>
      <ConfirmDeleteButton
        name={channel.name}
        size="small"
        what="The rules that name this channel no longer send to it; past notifications keep its name."
        onDelete={() => deleteChannelAction({ channelId: channel.id })}
        onDeleted={() => router.refresh()}
      />
    </div>
  );
}

/**
 * The notification channels: name, type, where it sends (never a secret: the secret fields
 * that are set are named), and for operators Send test, edit and delete, then the form of a
 * new channel (or of the one being edited).
 */
export function ChannelList({ channels }: { channels: ChannelJson[] }) {
  const mayChange = useCan("monitor");
  const [editingId, setEditingId] = useState<number | null>(null);
  const editing = channels.find((channel) => channel.id === editingId) ?? null;
  const secrets = (channel: ChannelJson) =>
    channel.secretsSet.length > 0 ? `${channel.secretsSet.join(", ")} set` : "–";
  return (
    <div className="space-y-6">
      {channels.length > 0 ? (
        <TableOrCards
          items={channels}
          label="Notification channels"
          testId="channel-table"
          columns={[
            { header: "Name" },
            { header: "Type" },
            { header: "Sends to" },
            { header: "Secrets" },
            ...(mayChange ? [{ header: "Actions" }] : []),
          ]}
          keyOf={(channel) => channel.id}
          rowTestId={(channel) => `channel-row-${channel.id}`}
          cardTestId={(channel) => `channel-card-${channel.id}`}
          breakpoint="md"
          row={(channel) => (
            <>
              <th scope="row" className="px-4 py-2 font-medium break-words">
                {channel.name}
              </th>
              <td className="px-4 py-2 whitespace-nowrap">{CHANNEL_TYPE_LABELS[channel.type] ?? channel.type}</td>
              <td className="max-w-72 px-4 py-2 font-mono text-xs break-all">{describeDestination(channel)}</td>
              <td className="px-4 py-2 text-xs">{secrets(channel)}</td>
              {mayChange ? (
                <td className="px-4 py-2">
                  <ChannelActions channel={channel} onEdit={() => setEditingId(channel.id)} />
                </td>
              ) : null}
            </>
          )}
          card={(channel) => (
            <>
              <p className="font-medium break-words">
                {channel.name}{" "}
                <span className="font-normal text-slate-600 dark:text-slate-400">
                  · {CHANNEL_TYPE_LABELS[channel.type] ?? channel.type}
                </span>
              </p>
              <p className="mt-0.5 font-mono text-xs break-all">{describeDestination(channel)}</p>
              {channel.secretsSet.length > 0 ? (
                <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{secrets(channel)}</p>
              ) : null}
              {mayChange ? (
                <div className="mt-2">
                  <ChannelActions channel={channel} onEdit={() => setEditingId(channel.id)} />
                </div>
              ) : null}
            </>
          )}
        />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No channels yet. A channel is where alerts go: a webhook, ntfy, Discord, Slack, Gotify or email.
        </p>
      )}
      {mayChange ? (
        editing ? (
          <ChannelForm key={editing.id} channel={editing} onDone={() => setEditingId(null)} />
        ) : (
          <ChannelForm key="new" />
        )
      ) : null}
    </div>
  );
}
