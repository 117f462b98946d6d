"use client";

import { useState } from "react";
import { ChoiceGroup } from "@/components/experiments/form/ChoiceGroup";
import { textBinder } from "@/components/forms/field-binding";
import { ItemForm, useItemSave } from "@/components/forms/ItemForm";
import { GridCheckbox, SelectField, TextField } from "@/components/ui/ui";
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
  const isEdit = rule !== undefined;
  const [fields, setFields] = useState<RuleFormFields>(() => (rule ? ruleFieldsOf(rule) : RULE_FORM_DEFAULTS));
  const { isPending, message, fieldErrors: errors, save } = useItemSave(PLACED_KEYS);
  const change = (next: Partial<RuleFormFields>) => setFields((previous) => ({ ...previous, ...next }));
  const field = textBinder(fields, change, errors);

  const submit = () =>
    save(
      () => saveAlertRuleAction({ ruleId: rule?.id, rule: ruleRequestBody(fields) }),
      () => {
        if (!isEdit) setFields(RULE_FORM_DEFAULTS);
        onDone?.();
      },
    );

  return (
    <ItemForm
      noun="rule"
      editedName={rule?.name}
      isPending={isPending}
      message={message}
      onSubmit={submit}
      onCancel={onDone}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" placeholder="slower than usual" {...field("name")} />
        <SelectField
          label="Link"
          hint="The default applies to every link that has no enabled rule of its own"
          {...field("linkId")}
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
            inputMode="decimal"
            hint="1 to 100; empty: not this condition. The baseline is the median of the link's last runs of the same test"
            {...field("belowBaselinePercent")}
          />
          <TextField
            label="Below % of the line rate"
            inputMode="decimal"
            hint="1 to 100; empty: not this condition"
            {...field("belowLineRatePercent")}
          />
          <GridCheckbox
            label="The run failed"
            hint="Host unreachable, iperf3 missing, and so on"
            name="failed"
            checked={fields.failed}
            onChange={(failed) => change({ failed })}
          />
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <TextField
          label="m (runs that breach)"
          inputMode="numeric"
          hint={`It fires when m of the last n runs breach (${M_N_LIMITS.min} to ${M_N_LIMITS.max})`}
          {...field("m")}
        />
        <TextField
          label="n (runs judged)"
          inputMode="numeric"
          hint="It ends when n runs in a row do not"
          {...field("n")}
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
    </ItemForm>
  );
}
