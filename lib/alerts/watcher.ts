import "server-only";
import { resolvePublicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { notifyChannels, type DeliverOptions } from "@/lib/notify/deliver";
import type { NotificationMessage } from "@/lib/notify/contract";
import type { RunEngine } from "@/lib/runs/engine";
import { BASELINE_LINK_SELECT, baselineFor, type BaselineLink } from "./baseline";
import type { AlertChange } from "./changes";
import type { AlertRuleJson } from "./contract";
import { decide, firingText, resolvedText, type AlertText, type RunFact } from "./evaluate";
import { applicableRules, getAlertRule } from "./rules";

// After each run ends, the rules of its link judge the link's latest runs (evaluate.ts): an
// alert opens when m of the last n breach and ends when n in a row do not, each with one
// notification. Runs of one link are judged one after the other, so that two runs ending
// together cannot open two alerts.

const JUDGED_STATUSES = ["succeeded", "failed"] as const;

/**
 * How notifications are retried (lib/notify's defaults when left out; tests shorten them), and who
 * hears that an alert fired or resolved (app.alertChanges: Home Assistant's binary sensor).
 */
export type WatchOptions = Pick<DeliverOptions, "backoffMs" | "timeoutMs"> & {
  onAlertChanged?: (change: AlertChange) => void;
};

// The tail of each link's chain of evaluations. Entries go once their evaluation is the last.
const chains = new Map<number, Promise<void>>();

function serialized(linkId: number, work: () => Promise<void>): Promise<void> {
  const next = (chains.get(linkId) ?? Promise.resolve()).then(work);
  const tail = next.catch((error: unknown) => {
    console.error(`[wirespeed] alerts of link ${linkId}:`, error instanceof Error ? error.message : error);
  });
  chains.set(linkId, tail);
  void tail.then(() => {
    if (chains.get(linkId) === tail) chains.delete(linkId);
  });
  return tail;
}

/**
 * Judges the rules of a run's link once the run has ended. Cancelled and interrupted runs
 * (a person stopped them) and runs of experiments (they vary one thing on purpose) change
 * nothing. Never rejects: a failure is logged.
 */
export async function evaluateRun(runId: number, options: WatchOptions = {}): Promise<void> {
  let run;
  try {
    run = await db.run.findUnique({ where: { id: runId }, select: { linkId: true, status: true, experimentId: true } });
  } catch (error) {
    console.error(`[wirespeed] alerts after run ${runId}:`, error instanceof Error ? error.message : error);
    return;
  }
  if (!run || run.experimentId !== null || !(JUDGED_STATUSES as readonly string[]).includes(run.status)) return;
  await serialized(run.linkId, () => evaluateLink(run.linkId, options));
}

/** Registers evaluateRun with the engine; returns the function that stops watching. */
export function watchRuns(engine: RunEngine, options: WatchOptions = {}): () => void {
  return engine.onRunEnded((runId) => evaluateRun(runId, options));
}

type LinkFacts = { id: number; name: string };

/**
 * The link's latest judged runs, newest first: enough for every rule's n, whether it skips
 * failed runs (then it needs its n latest successes) or counts them.
 */
async function latestFacts(link: BaselineLink & { speedMbps: number }, n: number): Promise<RunFact[]> {
  const select = {
    id: true,
    status: true,
    signature: true,
    receivedBitsPerSecond: true,
    errorMessage: true,
    createdAt: true,
    endedAt: true,
  } as const;
  // Runs Wirespeed made: an imported run tells of the past, not of how the link is now.
  const where = { linkId: link.id, experimentId: null, source: "wirespeed" };
  const orderBy = [{ endedAt: "desc" as const }, { id: "desc" as const }];
  const [any, succeeded] = await Promise.all([
    db.run.findMany({ where: { ...where, status: { in: [...JUDGED_STATUSES] } }, orderBy, take: n, select }),
    db.run.findMany({ where: { ...where, status: "succeeded" }, orderBy, take: n, select }),
  ]);
  const rows = [...new Map([...any, ...succeeded].map((row) => [row.id, row])).values()].sort(
    (a, b) => (b.endedAt?.getTime() ?? 0) - (a.endedAt?.getTime() ?? 0) || b.id - a.id,
  );
  const lineRate = link.speedMbps > 0 ? link.speedMbps * 1e6 : null;
  return Promise.all(
    rows.map(async (row) => {
      const succeededRun = row.status === "succeeded";
      // The baseline the run's signature had when it was created: the runs before it, not itself.
      const baseline =
        succeededRun && row.signature
          ? (await baselineFor(link, row.signature, row.createdAt)).medianBitsPerSecond
          : null;
      return {
        runId: row.id,
        status: succeededRun ? "succeeded" : "failed",
        signature: row.signature,
        receivedBitsPerSecond: succeededRun ? row.receivedBitsPerSecond : null,
        baselineBitsPerSecond: baseline,
        lineRateBitsPerSecond: lineRate,
        errorMessage: row.errorMessage,
      } satisfies RunFact;
    }),
  );
}

async function evaluateLink(linkId: number, options: WatchOptions): Promise<void> {
  const link = await db.link.findUnique({
    where: { id: linkId },
    select: { ...BASELINE_LINK_SELECT, name: true, speedMbps: true },
  });
  if (!link) return;
  const [rules, openAlerts] = await Promise.all([
    applicableRules(linkId),
    db.alert.findMany({
      where: { linkId, status: "firing" },
      orderBy: { id: "asc" },
      select: { id: true, ruleId: true },
    }),
  ]);
  // A rule that no longer applies (disabled, or a default now shadowed by the link's own rule)
  // still ends the alert it opened once the runs recover: nothing else would.
  const applying = new Set(rules.map((rule) => rule.id));
  const stale = await Promise.all(
    openAlerts.filter((alert) => !applying.has(alert.ruleId)).map((alert) => getAlertRule(alert.ruleId)),
  );
  const judging = [...rules, ...stale];
  if (judging.length === 0) return;
  const facts = await latestFacts(link, Math.max(...judging.map((rule) => rule.n)));
  for (const rule of judging) {
    const open = openAlerts.find((alert) => alert.ruleId === rule.id);
    const decision = decide(rule, facts, open !== undefined);
    if (decision.action === "fire" && applying.has(rule.id))
      await fire(link, rule, firingText(link.name, rule, decision), options);
    if (decision.action === "resolve" && open)
      await resolve(link, rule, open.id, resolvedText(link.name, decision), options);
  }
}

async function fire(link: LinkFacts, rule: AlertRuleJson, text: AlertText, options: WatchOptions): Promise<void> {
  const alert = await db.alert.create({
    data: {
      ruleId: rule.id,
      linkId: link.id,
      title: text.title,
      body: text.body,
      runIds: text.runIds,
      receivedBitsPerSecond: text.receivedBitsPerSecond,
      baselineBitsPerSecond: text.baselineBitsPerSecond,
      lineRatePercent: text.lineRatePercent,
    },
  });
  options.onAlertChanged?.({ linkId: link.id, alertId: alert.id, status: "firing" });
  await notify(rule, messageOf("alert.firing", alert.id, link, rule, text), options);
}

async function resolve(
  link: LinkFacts,
  rule: AlertRuleJson,
  alertId: number,
  text: AlertText,
  options: WatchOptions,
): Promise<void> {
  // Conditioned on still firing: an alert is resolved once, whatever else reads it meanwhile.
  const { count } = await db.alert.updateMany({
    where: { id: alertId, status: "firing" },
    data: { status: "resolved", resolvedAt: new Date(), resolvedRunIds: text.runIds },
  });
  if (count === 0) return;
  options.onAlertChanged?.({ linkId: link.id, alertId, status: "resolved" });
  await notify(rule, messageOf("alert.resolved", alertId, link, rule, text), options);
}

function messageOf(
  event: "alert.firing" | "alert.resolved",
  alertId: number,
  link: LinkFacts,
  rule: AlertRuleJson,
  text: AlertText,
): NotificationMessage {
  return {
    event,
    title: text.title,
    body: text.body,
    // The path alone without WIRESPEED_PUBLIC_URL: still tells the reader which run to open.
    url: `${resolvePublicUrl() ?? ""}/runs/${text.runId}`,
    alertId,
    link: { id: link.id, name: link.name },
    rule: { id: rule.id, name: rule.name },
    runIds: text.runIds,
    receivedBitsPerSecond: text.receivedBitsPerSecond,
    baselineBitsPerSecond: text.baselineBitsPerSecond,
    lineRatePercent: text.lineRatePercent,
    at: new Date().toISOString(),
  };
}

async function notify(rule: AlertRuleJson, message: NotificationMessage, options: WatchOptions): Promise<void> {
  const channelIds = rule.channels.map((channel) => channel.id);
  if (channelIds.length === 0) return;
  try {
    const { backoffMs, timeoutMs } = options;
    await notifyChannels(channelIds, message, { backoffMs, timeoutMs, alertId: message.alertId });
  } catch (error) {
    // notifyChannels records its own failures; this is for one that escapes it.
    console.error(`[wirespeed] notifying alert ${message.alertId}:`, error instanceof Error ? error.message : error);
  }
}
