"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useCan } from "@/components/auth/ViewerContext";
import { ConfirmDeleteButton } from "@/components/schedules/ConfirmDeleteButton";
import { ScheduleState } from "@/components/schedules/ScheduleList";
import { TEXT_LINK } from "@/components/ui/styles";
import { TableOrCards } from "@/components/ui/TableOrCards";
import { Button } from "@/components/ui/ui";
import { deleteAlertRuleAction } from "@/lib/alerts/actions/delete-alert-rule";
import type { AlertRuleJson } from "@/lib/alerts/contract";
import { describeConditions } from "./rule-fields";
import { RuleForm, type RuleFormChannel, type RuleFormLink } from "./RuleForm";

function RuleLink({ rule }: { rule: AlertRuleJson }) {
  if (!rule.link) return <span className="text-slate-700 dark:text-slate-300">Every link (default)</span>;
  return (
    <Link href={`/links/${rule.link.id}`} className={TEXT_LINK}>
      {rule.link.name}
    </Link>
  );
}

function Channels({ rule }: { rule: AlertRuleJson }) {
  return rule.channels.length > 0 ? (
    <>{rule.channels.map((channel) => channel.name).join(", ")}</>
  ) : (
    <span className="text-slate-600 dark:text-slate-400">none</span>
  );
}

function RuleActions({ rule, onEdit }: { rule: AlertRuleJson; onEdit: () => void }) {
  const router = useRouter();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button type="button" className="px-2.5 py-1 text-xs" onClick={onEdit} aria-label={`Edit ${rule.name}`}>
        Edit
      </Button>
      <ConfirmDeleteButton
        name={rule.name}
        size="small"
        what="This deletes the rule with its alerts, open and past."
        onDelete={() => deleteAlertRuleAction({ ruleId: rule.id })}
        onDeleted={() => router.refresh()}
      />
    </div>
  );
}

/**
 * The alert rules: name, the link (or every link), the conditions, m of n, the channels and
 * whether it is on; for operators edit and delete, then the form of a new rule (or of the one
 * being edited).
 */
export function RuleList({
  rules,
  links,
  channels,
}: {
  rules: AlertRuleJson[];
  links: RuleFormLink[];
  channels: RuleFormChannel[];
}) {
  const mayChange = useCan("monitor");
  const [editingId, setEditingId] = useState<number | null>(null);
  const editing = rules.find((rule) => rule.id === editingId) ?? null;
  return (
    <div className="space-y-6">
      {rules.length > 0 ? (
        <TableOrCards
          items={rules}
          label="Alert rules"
          testId="rule-table"
          columns={[
            { header: "Name" },
            { header: "Link" },
            { header: "Conditions" },
            { header: "Runs" },
            { header: "Channels" },
            { header: "State" },
            ...(mayChange ? [{ header: "Actions" }] : []),
          ]}
          keyOf={(rule) => rule.id}
          rowTestId={(rule) => `rule-row-${rule.id}`}
          cardTestId={(rule) => `rule-card-${rule.id}`}
          breakpoint="md"
          row={(rule) => (
            <>
              <th scope="row" className="px-4 py-2 font-medium break-words">
                {rule.name}
              </th>
              <td className="px-4 py-2">
                <RuleLink rule={rule} />
              </td>
              <td className="min-w-48 px-4 py-2">{describeConditions(rule)}</td>
              <td className="px-4 py-2 whitespace-nowrap">
                {rule.m} of {rule.n}
              </td>
              <td className="px-4 py-2">
                <Channels rule={rule} />
              </td>
              <td className="px-4 py-2">
                <ScheduleState enabled={rule.enabled} offLabel="Disabled" />
              </td>
              {mayChange ? (
                <td className="px-4 py-2">
                  <RuleActions rule={rule} onEdit={() => setEditingId(rule.id)} />
                </td>
              ) : null}
            </>
          )}
          card={(rule) => (
            <>
              <div className="flex items-start justify-between gap-3">
                <p className="min-w-0 font-medium break-words">{rule.name}</p>
                <ScheduleState enabled={rule.enabled} offLabel="Disabled" />
              </div>
              <p className="mt-0.5">
                <RuleLink rule={rule} /> · {rule.m} of {rule.n} runs
              </p>
              <p className="mt-0.5 text-slate-700 dark:text-slate-300">{describeConditions(rule)}</p>
              <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                Sends to <Channels rule={rule} />
              </p>
              {mayChange ? (
                <div className="mt-2">
                  <RuleActions rule={rule} onEdit={() => setEditingId(rule.id)} />
                </div>
              ) : null}
            </>
          )}
        />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No rules yet. A rule opens one alert when m of a link&apos;s last n runs fall below a share of its baseline or
          of its line rate, or fail, and ends it when n runs in a row are fine.
        </p>
      )}
      {mayChange ? (
        editing ? (
          <RuleForm
            key={editing.id}
            rule={editing}
            links={links}
            channels={channels}
            onDone={() => setEditingId(null)}
          />
        ) : (
          <RuleForm key="new" links={links} channels={channels} />
        )
      ) : null}
    </div>
  );
}
