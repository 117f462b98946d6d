"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { ChoiceGroup } from "@/components/experiments/form/ChoiceGroup";
import { formFailureMessage, useActionForm } from "@/components/forms/use-action-form";
import { Button, Notice, SelectField, TextField } from "@/components/ui/ui";
import { saveAlertRuleAction } from "@/lib/alerts/actions/save-alert-rule";
import { M_N_LIMITS, type AlertRuleJson } from "@/lib/alerts/contract";
import { CHANNEL_TYPE_LABELS, type ChannelJson } from "@/lib/notify/contract";
import { RULE_FORM_DEFAULTS, ruleFieldsOf, ruleRequestBody, type RuleFormFields } from "./rule-fields";

const PLACED_KEYS = new Set([
  "name",
  "linkId",
  "belowBaselinePercent",
  "belowLineRatePercent",
  "failed",
  "m",
  "n",
  "channelIds",
  "enabled",
]);

export type RuleFormLink = { id: number; name: string };
export type RuleFormChannel = Pick<ChannelJson, "id" | "name" | "type">;

/**
 * An alert rule's form, new or edit: its name, the link it watches (or every link, as the
 * default), its conditions, m of n, the channels it sends to and whether it is on.
 */
export function RuleForm({
  rule,
  links,
  channels,
  onDone,
}: {
  rule?: AlertRuleJson;
  links: RuleFormLink[];
  channels: RuleFormChannel[];
  onDone?: () => void;
}) {
  const router = useRouter();
  const isEdit = rule !== undefined;
  const [fields, setFields] = useState<RuleFormFields>(() => (rule ? ruleFieldsOf(rule) : RULE_FORM_DEFAULTS));
  const { isPending, message, fieldErrors: errors, setMessage, submit: run } = useActionForm();
  const change = (next: Partial<RuleFormFields>) => setFields((previous) => ({ ...previous, ...next }));

  const submit = () =>
    run(() => saveAlertRuleAction({ ruleId: rule?.id, rule: ruleRequestBody(fields) }), {
      onSuccess: () => {
        if (!isEdit) setFields(RULE_FORM_DEFAULTS);
        onDone?.();
        router.refresh();
      },
      onFailure: (result, byField) => setMessage(formFailureMessage(result, byField, PLACED_KEYS)),
    });

  return (
    <form
      aria-label={isEdit ? `Edit rule ${rule.name}` : "New rule"}
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h2 className="text-base font-semibold">{isEdit ? `Edit ${rule.name}` : "New rule"}</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          value={fields.name}
          onChange={(event) => change({ name: event.target.value })}
          error={errors.name}
          placeholder="slower than usual"
        />
        <SelectField
          label="Link"
          name="linkId"
          value={fields.linkId}
          onChange={(event) => change({ linkId: event.target.value })}
          hint="The default applies to every link that has no enabled rule of its own"
          error={errors.linkId}
        >
          <option value="">Every link (default)</option>
          {links.map((link) => (
            <option key={link.id} value={String(link.id)}>
              {link.name}
            </option>
          ))}
        </SelectField>
      </div>
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">A run breaches the rule when</legend>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Below % of the baseline"
            name="belowBaselinePercent"
            inputMode="decimal"
            value={fields.belowBaselinePercent}
            onChange={(event) => change({ belowBaselinePercent: event.target.value })}
            hint="1 to 100; empty: not this condition. The baseline is the median of the link's last runs of the same test"
            error={errors.belowBaselinePercent}
          />
          <TextField
            label="Below % of the line rate"
            name="belowLineRatePercent"
            inputMode="decimal"
            value={fields.belowLineRatePercent}
            onChange={(event) => change({ belowLineRatePercent: event.target.value })}
            hint="1 to 100; empty: not this condition"
            error={errors.belowLineRatePercent}
          />
          <label className="flex items-start gap-2 pt-1 text-sm sm:pt-7">
            <input
              type="checkbox"
              name="failed"
              checked={fields.failed}
              onChange={(event) => change({ failed: event.target.checked })}
              className="mt-0.5 h-4 w-4 accent-sky-600"
            />
            <span>
              The run failed
              <span className="block text-xs text-slate-600 dark:text-slate-400">
                Host unreachable, iperf3 missing, and so on
              </span>
            </span>
          </label>
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <TextField
          label="m (runs that breach)"
          name="m"
          inputMode="numeric"
          value={fields.m}
          onChange={(event) => change({ m: event.target.value })}
          hint={`It fires when m of the last n runs breach (${M_N_LIMITS.min} to ${M_N_LIMITS.max})`}
          error={errors.m}
        />
        <TextField
          label="n (runs judged)"
          name="n"
          inputMode="numeric"
          value={fields.n}
          onChange={(event) => change({ n: event.target.value })}
          hint="It ends when n runs in a row do not"
          error={errors.n}
        />
      </div>
      {channels.length > 0 ? (
        <ChoiceGroup
          legend="Send to"
          multiple
          choices={channels.map((channel) => ({
            value: String(channel.id),
            label: `${channel.name} (${CHANNEL_TYPE_LABELS[channel.type] ?? channel.type})`,
          }))}
          selected={fields.channelIds.map(String)}
          onChange={(ids) => change({ channelIds: ids.map(Number) })}
          hint="None: the alert shows in Wirespeed only"
          error={errors.channelIds}
          testId="rule-channels"
        />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          No notification channels yet: the alerts of this rule show in Wirespeed only until a channel is added.
        </p>
      )}
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name="enabled"
          checked={fields.enabled}
          onChange={(event) => change({ enabled: event.target.checked })}
          className="h-4 w-4 accent-sky-600"
        />
        Enabled
      </label>
      {message ? <Notice tone="error" title={message} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Saving…">
          {isEdit ? "Save changes" : "Create rule"}
        </Button>
        {isEdit ? (
          <Button type="button" onClick={onDone} disabled={isPending}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
