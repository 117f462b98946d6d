// What the alert rule form asks for, without React: its fields as typed, the request body they
// make (POST /api/alert-rules, or the PATCH of an edit: every field, so the rule is as the
// form shows it), and a stored rule read back into fields.
import { DEFAULT_M, DEFAULT_N, type AlertRuleJson } from "@/lib/alerts/contract";

export type RuleFormFields = {
  name: string;
  /** a link's id, or "" for the default rule of every link without a rule of its own */
  linkId: string;
  /** "" for no such condition */
  belowBaselinePercent: string;
  belowLineRatePercent: string;
  failed: boolean;
  m: string;
  n: string;
  channelIds: number[];
  enabled: boolean;
};

export const RULE_FORM_DEFAULTS: RuleFormFields = {
  name: "",
  linkId: "",
  belowBaselinePercent: "80",
  belowLineRatePercent: "",
  failed: true,
  m: String(DEFAULT_M),
  n: String(DEFAULT_N),
  channelIds: [],
  enabled: true,
};

function numberOrText(text: string): number | string | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const value = Number(trimmed);
  // A non-number goes to the server as text, which answers with the field's limits.
  return Number.isFinite(value) ? value : trimmed;
}

export function ruleRequestBody(fields: RuleFormFields): Record<string, unknown> {
  return {
    name: fields.name,
    linkId: numberOrText(fields.linkId),
    belowBaselinePercent: numberOrText(fields.belowBaselinePercent),
    belowLineRatePercent: numberOrText(fields.belowLineRatePercent),
    failed: fields.failed,
    // Left empty, m and n go as typed: the server names the field and its range rather than taking a default.
    m: numberOrText(fields.m) ?? fields.m,
    n: numberOrText(fields.n) ?? fields.n,
    channelIds: fields.channelIds,
    enabled: fields.enabled,
  };
}

export function ruleFieldsOf(rule: AlertRuleJson): RuleFormFields {
  const text = (value: number | null) => (value === null ? "" : String(value));
  return {
    name: rule.name,
    linkId: rule.linkId === null ? "" : String(rule.linkId),
    belowBaselinePercent: text(rule.belowBaselinePercent),
    belowLineRatePercent: text(rule.belowLineRatePercent),
    failed: rule.failed,
    m: String(rule.m),
    n: String(rule.n),
    channelIds: rule.channels.map((channel) => channel.id),
    enabled: rule.enabled,
  };
}

/** "below 80% of the baseline, below 50% of the line rate or failed": a rule's conditions in words. */
export function describeConditions(
  rule: Pick<AlertRuleJson, "belowBaselinePercent" | "belowLineRatePercent" | "failed">,
): string {
  const parts = [
    rule.belowBaselinePercent !== null ? `below ${rule.belowBaselinePercent}% of the baseline` : null,
    rule.belowLineRatePercent !== null ? `below ${rule.belowLineRatePercent}% of the line rate` : null,
    rule.failed ? "failed" : null,
  ].filter((part): part is string => part !== null);
  if (parts.length <= 1) return parts[0] ?? "no condition";
  return `${parts.slice(0, -1).join(", ")} or ${parts.at(-1)}`;
}
