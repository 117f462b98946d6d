import "server-only";
import { recordAudit } from "@/lib/auth/audit";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { AppError, invalidInput, parseInput, type FieldError } from "@/lib/errors";
import { isRecordMissing } from "@/lib/db-errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { AlertRuleInputSchema, AlertRulePatchSchema, ruleProblems, type AlertRuleJson } from "./contract";

// Alert rules in the database: validation, the link and channels they name, the audit log.
// A rule with a link applies to it; a rule without one is the default of every link that has
// no enabled rule of its own (applicableRules).

const ruleInclude = {
  link: { select: { id: true, name: true } },
  channels: { select: { channel: { select: { id: true, name: true, type: true } } }, orderBy: { channelId: "asc" } },
} as const satisfies Prisma.AlertRuleInclude;

type RuleRow = Prisma.AlertRuleGetPayload<{ include: typeof ruleInclude }>;

function toRuleJson(row: RuleRow): AlertRuleJson {
  return {
    id: row.id,
    name: row.name,
    linkId: row.linkId,
    link: row.link,
    belowBaselinePercent: row.belowBaselinePercent,
    belowLineRatePercent: row.belowLineRatePercent,
    failed: row.failed,
    m: row.m,
    n: row.n,
    channels: row.channels.map(({ channel }) => channel),
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function ruleNotFound(id: number): AppError {
  return new AppError("not-found", `no alert rule has id ${id}`);
}

/** The link's name, or a 400 naming `linkId` when there is no such link. */
async function checkLink(linkId: number | null): Promise<string | null> {
  if (linkId === null) return null;
  const link = await db.link.findUnique({ where: { id: linkId }, select: { name: true } });
  if (!link) throw invalidInput([{ field: "linkId", message: `link ${linkId} does not exist` }]);
  return link.name;
}

/** The channel ids without repeats, or a 400 naming `channelIds` and the ids that name no channel. */
async function checkChannels(channelIds: number[]): Promise<number[]> {
  const ids = [...new Set(channelIds)];
  if (ids.length === 0) return ids;
  const found = new Set(
    (await db.notificationChannel.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((row) => row.id),
  );
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const message =
      missing.length === 1
        ? `notification channel ${missing[0]} does not exist`
        : `notification channels ${missing.join(", ")} do not exist`;
    throw invalidInput([{ field: "channelIds", message }]);
  }
  return ids;
}

function describeRule(name: string, linkName: string | null): string {
  return `${name} on ${linkName ?? "every link without a rule of its own"}`;
}

/** Every rule, the defaults first, then by link and name; `linkId` keeps one link's own rules (null: the defaults). */
export async function listAlertRules({ linkId }: { linkId?: number | null } = {}): Promise<AlertRuleJson[]> {
  const rows = await db.alertRule.findMany({
    where: linkId === undefined ? {} : { linkId },
    orderBy: [{ linkId: "asc" }, { name: "asc" }, { id: "asc" }],
    include: ruleInclude,
  });
  return rows.map(toRuleJson);
}

export async function getAlertRule(id: number): Promise<AlertRuleJson> {
  const ruleId = parseInput(IdSchema, id, "id");
  const row = await db.alertRule.findUnique({ where: { id: ruleId }, include: ruleInclude });
  if (!row) throw ruleNotFound(ruleId);
  return toRuleJson(row);
}

/**
 * The enabled rules that judge a link's runs: its own, or the defaults when it has none.
 * Without an enabled rule of its own, a link is watched by every enabled default.
 */
export async function applicableRules(linkId: number): Promise<AlertRuleJson[]> {
  const own = await db.alertRule.findMany({
    where: { linkId, enabled: true },
    orderBy: { id: "asc" },
    include: ruleInclude,
  });
  if (own.length > 0) return own.map(toRuleJson);
  const defaults = await db.alertRule.findMany({
    where: { linkId: null, enabled: true },
    orderBy: { id: "asc" },
    include: ruleInclude,
  });
  return defaults.map(toRuleJson);
}

/** Validates `input` with AlertRuleInputSchema; the link and the channels must exist. */
export async function createAlertRule(input: unknown): Promise<AlertRuleJson> {
  const data = parseInput(AlertRuleInputSchema, input);
  const linkName = await checkLink(data.linkId);
  const channelIds = await checkChannels(data.channelIds);
  const row = await db.alertRule.create({
    data: {
      name: data.name,
      linkId: data.linkId,
      belowBaselinePercent: data.belowBaselinePercent,
      belowLineRatePercent: data.belowLineRatePercent,
      failed: data.failed,
      m: data.m,
      n: data.n,
      enabled: data.enabled,
      channels: { create: channelIds.map((channelId) => ({ channelId })) },
    },
    include: ruleInclude,
  });
  await recordAudit("alert-rule.create", "alert-rule", row.id, describeRule(row.name, linkName));
  return toRuleJson(row);
}

/**
 * PATCH: any subset of the fields; `channelIds` replaces the rule's channels. m ≤ n and "at
 * least one condition" are checked on the rule as it would be after the change. An alert the
 * rule opened stays open; the next run ended on its link judges it with the new settings.
 */
export async function updateAlertRule(id: number, input: unknown): Promise<AlertRuleJson> {
  const ruleId = parseInput(IdSchema, id, "id");
  const patch = parseInput(AlertRulePatchSchema, input);
  const current = await db.alertRule.findUnique({ where: { id: ruleId } });
  if (!current) throw ruleNotFound(ruleId);
  const merged = {
    belowBaselinePercent:
      patch.belowBaselinePercent !== undefined ? patch.belowBaselinePercent : current.belowBaselinePercent,
    belowLineRatePercent:
      patch.belowLineRatePercent !== undefined ? patch.belowLineRatePercent : current.belowLineRatePercent,
    failed: patch.failed ?? current.failed,
    m: patch.m ?? current.m,
    n: patch.n ?? current.n,
  };
  const problems: FieldError[] = ruleProblems(merged);
  if (problems.length > 0) throw invalidInput(problems);
  const linkId = patch.linkId !== undefined ? patch.linkId : current.linkId;
  const linkName = await checkLink(linkId);
  const channelIds = patch.channelIds === undefined ? undefined : await checkChannels(patch.channelIds);
  const row = await db.alertRule
    .update({
      where: { id: ruleId },
      data: {
        ...(patch.name === undefined ? {} : { name: patch.name }),
        linkId,
        ...merged,
        ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
        ...(channelIds === undefined
          ? {}
          : { channels: { deleteMany: {}, create: channelIds.map((channelId) => ({ channelId })) } }),
      },
      include: ruleInclude,
    })
    .catch((error: unknown) => {
      // Deleted by another request since it was read.
      throw isRecordMissing(error) ? ruleNotFound(ruleId) : error;
    });
  const changed = Object.keys(patch).join(", ");
  await recordAudit(
    "alert-rule.update",
    "alert-rule",
    row.id,
    `${describeRule(row.name, linkName)}: ${changed || "nothing"}`,
  );
  return toRuleJson(row);
}

/** Deletes a rule, and with it the alerts it opened and their notifications. */
export async function deleteAlertRule(id: number): Promise<void> {
  const ruleId = parseInput(IdSchema, id, "id");
  const row = await db.alertRule.findUnique({ where: { id: ruleId }, include: { link: { select: { name: true } } } });
  if (!row) throw ruleNotFound(ruleId);
  await db.alertRule.delete({ where: { id: ruleId } }).catch((error: unknown) => {
    throw isRecordMissing(error) ? ruleNotFound(ruleId) : error;
  });
  await recordAudit("alert-rule.delete", "alert-rule", ruleId, describeRule(row.name, row.link?.name ?? null));
}
