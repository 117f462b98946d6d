import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { EXPERIMENT_KINDS, type ExperimentKind, type StepOutcome } from "@/lib/experiments/contract";
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";
import { stepOutcome } from "@/lib/experiments/kinds/outcome-builders";
import { baseRequestOf, parseExperimentRequest } from "@/lib/experiments/plan";
import { loadPlanLinks } from "@/lib/experiments/reads";
import { getApp } from "@/lib/running-app";
import { getSharedPage } from "./page-data";
import { hashToken } from "@/lib/auth/secrets";
import { createShare, findOpenShare, hashStoredShareTokens, listShares, revokeShare } from "./store";

// Share links on a real database: made with an expiry, listed, revoked; an expired or revoked
// token opens nothing; a share that hides addresses carries no host name or address of the lab.

const ORIGIN = "http://wirespeed.test";
const DAY = 24 * 3600_000;
// Names and addresses that must never reach a share that hides them, in any form: the hosts', their
// addresses, and the links' names (one made of its hosts' names, one of its own).
const SECRETS = [
  "nas-alpha",
  "beta-box",
  "198.18.4.2",
  "198.18.4.3",
  "beta.lan",
  "gamma-lab",
  "10.9.8.7",
  "10.9.8.8",
  "storage-uplink",
];

let database: TestDatabase;
let runId = 0;
let failedRunId = 0;
let linkId = 0;
let experimentId = 0;
let uplinkId = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  const { db } = database;
  const [alpha, beta] = await Promise.all([
    db.host.create({ data: { name: "nas-alpha", address: "198.18.4.2", authMethod: "local" } }),
    db.host.create({ data: { name: "beta-box", address: "beta.lan", authMethod: "local" } }),
  ]);
  await db.host.create({ data: { name: "gamma-lab", address: "10.9.8.7", authMethod: "local" } });
  const aNic = await db.nic.create({ data: { hostId: alpha.id, name: "eth1", addresses: ["198.18.4.2/24"] } });
  const bNic = await db.nic.create({ data: { hostId: beta.id, name: "eth1", addresses: ["198.18.4.3/24"] } });
  const link = await db.link.create({
    data: { name: "nas-alpha-to-beta-box", aNicId: aNic.id, bNicId: bNic.id, speedMbps: 1000 },
  });
  linkId = link.id;
  // A second link, from beta-box to gamma-lab, with a name of its own: a concurrent, mesh or
  // interference experiment needs two.
  const bNic2 = await db.nic.create({ data: { hostId: beta.id, name: "eth2", addresses: ["10.9.8.8/24"] } });
  const gammaNic = await db.nic.create({
    data: { hostId: (await db.host.findUniqueOrThrow({ where: { name: "gamma-lab" } })).id, name: "eth0" },
  });
  uplinkId = (
    await db.link.create({ data: { name: "storage-uplink", aNicId: bNic2.id, bNicId: gammaNic.id, speedMbps: 1000 } })
  ).id;
  const options = { protocol: "tcp", parallel: 1, duration: 10 };
  const run = await db.run.create({
    data: {
      linkId,
      status: "succeeded",
      options,
      serverCommand: "iperf3 -s -B 198.18.4.2",
      clientCommand: "iperf3 -c 198.18.4.2 -B 198.18.4.3",
      clientOutput: "Connecting to host 198.18.4.2, port 5201",
      sentBitsPerSecond: 9.41e8,
      receivedBitsPerSecond: 9.39e8,
      startedAt: new Date(),
      endedAt: new Date(),
    },
  });
  runId = run.id;
  await db.run.update({ where: { id: runId }, data: { note: "team note: card moved to slot 2" } });
  await db.runLabel.create({ data: { runId, label: "team-label" } });
  const failed = await db.run.create({
    data: {
      linkId,
      status: "failed",
      options,
      errorKind: "unreachable",
      errorMessage: "beta-box (beta.lan) did not answer from 198.18.4.3; nas-alpha is fine, gamma-lab too",
      endedAt: new Date(),
    },
  });
  failedRunId = failed.id;
  const experiment = await db.experiment.create({
    data: {
      kind: "sweep",
      name: "nas-alpha streams, beta.lan side",
      status: "failed",
      plan: { kind: "sweep", linkIds: [linkId], options: { duration: 3 }, factor: "parallel", values: [1, 2] },
      answer: "nas-alpha reaches 939 Mbit/s to beta-box",
      errorMessage: "198.18.4.3 refused",
      links: { create: [{ linkId, position: 0 }] },
    },
  });
  experimentId = experiment.id;
}, 60_000);

/** An experiment of `kind` that ran to its end, every run at 940 Mbit/s, stored as the runner stores it; its id. */
async function finishedExperiment(kind: ExperimentKind, request: Record<string, unknown>): Promise<number> {
  const plan = parseExperimentRequest(request);
  const links = await loadPlanLinks(plan.linkIds);
  const definition = KIND_DEFINITIONS[kind] as unknown as (typeof KIND_DEFINITIONS)["sweep"];
  const planOf = plan as Parameters<typeof definition.result>[0];
  const base = baseRequestOf(plan);
  const done: StepOutcome[] = [];
  for (let step = definition.nextStep(planOf, base, links, done); step;) {
    const rate = 9.4e8;
    const intervals = [1, 2].map((end) => ({ end, bitsPerSecond: rate }));
    done.push(
      stepOutcome(
        done.length,
        step,
        step.runs.map(() => ({ receivedBitsPerSecond: rate, sentBitsPerSecond: rate, lostPercent: 0, intervals })),
      ),
    );
    step = definition.nextStep(planOf, base, links, done);
  }
  const result = definition.result(planOf, links, done);
  const row = await database.db.experiment.create({
    data: {
      kind,
      name: `${kind} of nas-alpha-to-beta-box and storage-uplink`,
      status: "succeeded",
      plan: plan as object,
      result: result as object,
      answer: definition.answer(planOf, links, result),
      endedAt: new Date(),
      links: { create: plan.linkIds.map((id, position) => ({ linkId: id, position })) },
    },
  });
  return row.id;
}

/** What a share of the newest experiment of `kind` shows, with addresses hidden. */
async function sharedExperimentOf(kind: ExperimentKind) {
  const experiment = await database.db.experiment.findFirstOrThrow({ where: { kind }, orderBy: { id: "desc" } });
  const share = await createShare({ kind: "experiment", id: experiment.id }, { origin: ORIGIN });
  const page = await getSharedPage(share.url.split("/s/")[1]!);
  if (page?.content.kind !== "experiment") throw new Error(`no experiment page for ${kind}`);
  return page.content;
}

afterAll(async () => {
  await database?.close();
});

describe("share links", () => {
  it("makes a link with its expiry and a 32-byte token, lists it and opens it until it expires", async () => {
    const now = new Date("2027-01-10T12:00:00.000Z");
    const share = await createShare({ kind: "run", id: runId, expiresInDays: 7 }, { origin: ORIGIN, now });
    expect(Object.keys(share).sort()).toEqual(["expiresAt", "hideAddresses", "id", "kind", "url"]);
    // Left out, addresses are hidden, as the Share dialog offers it.
    expect(share).toMatchObject({ kind: "run", hideAddresses: true, expiresAt: "2027-01-17T12:00:00.000Z" });
    const token = share.url.slice(`${ORIGIN}/s/`.length);
    expect(share.url.startsWith(`${ORIGIN}/s/`)).toBe(true);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The database keeps the token's SHA-256 only: the list cannot say the URL again.
    const row = await database.db.share.findUniqueOrThrow({ where: { id: share.id } });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = await listShares({ now });
    expect(listed.find((entry) => entry.id === share.id)).toEqual({
      id: share.id,
      kind: share.kind,
      expiresAt: share.expiresAt,
      hideAddresses: share.hideAddresses,
      targetId: runId,
      title: `Run #${runId} on nas-alpha-to-beta-box`,
      createdAt: expect.any(String),
      createdBy: "system",
      isExpired: false,
    });

    const page = await getSharedPage(token, new Date(now.getTime() + 6 * DAY));
    expect(page?.content).toMatchObject({ kind: "run", id: runId, aName: "host A", bName: "host B" });
    expect(await getSharedPage(token, new Date(now.getTime() + 7 * DAY))).toBeNull();
    expect(await findOpenShare(token, new Date(now.getTime() + 8 * DAY))).toBeNull();
    expect((await listShares({ now: new Date(now.getTime() + 8 * DAY) }))[0]!.isExpired).toBe(true);

    const never = await createShare({ kind: "link", id: linkId, expiresInDays: null }, { origin: ORIGIN, now });
    expect(never.expiresAt).toBeNull();
    const defaulted = await createShare({ kind: "experiment", id: experimentId }, { origin: ORIGIN, now });
    expect(defaulted.expiresAt).toBe("2027-02-09T12:00:00.000Z");
  });

  it("keeps a page in memory, and a revoked link opens nothing, cached or not", async () => {
    const share = await createShare({ kind: "run", id: runId, expiresInDays: 1 }, { origin: ORIGIN });
    const token = share.url.split("/s/")[1]!;
    const first = await getSharedPage(token);
    const second = await getSharedPage(token);
    expect(second!.content).toBe(first!.content);

    await revokeShare(share.id);
    expect(await getSharedPage(token)).toBeNull();
    expect(await database.db.share.findUnique({ where: { id: share.id } })).toBeNull();
    await expect(revokeShare(share.id)).rejects.toMatchObject({ kind: "not-found" });
    const audit = await database.db.auditEvent.findMany({ where: { target: "share", targetId: share.id } });
    expect(audit.map((event) => event.action).sort()).toEqual(["share.create", "share.revoke"]);
    // The token is the secret: the audit log never holds it.
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(await getSharedPage("not-a-token")).toBeNull();
  });

  it("keeps a share made before tokens were hashed working: its token is hashed at start, once", async () => {
    // What the migration 20270110000000_share_token_hash leaves of an older share: its token itself in tokenHash.
    const token = "Zm9yLWEtc2hhcmUtbWFkZS1iZWZvcmUtdGhlLWhhc2g";
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const old = await database.db.share.create({
      data: { tokenHash: token, kind: "run", targetId: runId, hideAddresses: true, createdBy: "admin" },
    });
    expect(await getSharedPage(token)).toBeNull();

    expect(await hashStoredShareTokens()).toBe(1);
    expect((await database.db.share.findUniqueOrThrow({ where: { id: old.id } })).tokenHash).toBe(hashToken(token));
    expect((await getSharedPage(token))?.content).toMatchObject({ kind: "run", id: runId, aName: "host A" });
    // A hash is never taken for a token: the next start hashes nothing, and every other share still opens.
    expect(await hashStoredShareTokens()).toBe(0);
    const made = await createShare({ kind: "run", id: runId }, { origin: ORIGIN });
    expect(await getSharedPage(made.url.split("/s/")[1]!)).not.toBeNull();
    await revokeShare(old.id);
    expect(await getSharedPage(token)).toBeNull();
  });

  it("refuses what it cannot share: a missing run, experiment or link is a 404 naming the id", async () => {
    for (const kind of ["run", "experiment", "link"] as const) {
      await expect(createShare({ kind, id: 999_999 }, { origin: ORIGIN })).rejects.toMatchObject({
        kind: "not-found",
        fields: [{ field: "id", message: `names no ${kind}` }],
      });
    }
  });

  it("hides every host name and address of the lab when asked, in a run, a failed run, a link and an experiment", async () => {
    for (const [kind, id] of [
      ["run", runId],
      ["run", failedRunId],
      ["link", linkId],
      ["experiment", experimentId],
    ] as const) {
      const share = await createShare({ kind, id, hideAddresses: true }, { origin: ORIGIN });
      const page = await getSharedPage(share.url.split("/s/")[1]!);
      expect(page, `${kind} ${id}`).not.toBeNull();
      const json = JSON.stringify(page).toLowerCase();
      for (const secret of SECRETS) expect(json, `${kind} ${id}: ${secret}`).not.toContain(secret);
      // What it hid is still said: the ends as letters.
      expect(json, `${kind} ${id}`).toContain("host a");
    }
    const shown = await createShare({ kind: "run", id: failedRunId, hideAddresses: false }, { origin: ORIGIN });
    const page = await getSharedPage(shown.url.split("/s/")[1]!);
    expect(page!.content).toMatchObject({ kind: "run", errorMessage: expect.stringContaining("beta.lan") });
  });

  it("hides the links' names and the hosts' in every kind of experiment, its answer and its table: link 1, link 2", async () => {
    // Each kind's own fields, on one link or two.
    const requests: Record<ExperimentKind, Record<string, unknown>> = {
      sweep: { linkIds: [linkId], factor: "parallel", values: [1, 2] },
      matrix: { linkIds: [linkId] },
      concurrent: { linkIds: [linkId, uplinkId], baseline: true },
      channels: { linkIds: [uplinkId], channels: 2 },
      "udp-ceiling": { linkIds: [linkId] },
      mesh: { linkIds: [linkId, uplinkId] },
      interference: { linkIds: [linkId, uplinkId] },
      versus: { linkIds: [linkId, uplinkId] },
    };
    expect(Object.keys(requests).sort()).toEqual([...EXPERIMENT_KINDS].sort());
    for (const kind of EXPERIMENT_KINDS) {
      const id = await finishedExperiment(kind, { kind, options: { duration: 2 }, ...requests[kind] });
      const experiment = await database.db.experiment.findUniqueOrThrow({ where: { id } });
      expect(experiment.answer, kind).not.toBeNull();
      const share = await createShare({ kind: "experiment", id, hideAddresses: true }, { origin: ORIGIN });
      const page = await getSharedPage(share.url.split("/s/")[1]!);
      if (page?.content.kind !== "experiment") throw new Error(`no experiment page for ${kind}`);
      const { content } = page;
      expect(content.table?.rows.length, kind).toBeGreaterThan(0);
      const json = JSON.stringify(page).toLowerCase();
      for (const secret of SECRETS) expect(json, `${kind}: ${secret}`).not.toContain(secret);
      // The links are numbered in the experiment's order, the same in its list, answer and table.
      const count = (requests[kind].linkIds as number[]).length;
      expect(content.linkNames, kind).toEqual(count === 2 ? ["link 1", "link 2"] : ["link 1"]);
    }
    // A link's name is said as its number where it is named: the interference answer and the concurrent table.
    const interference = await sharedExperimentOf("interference");
    expect(interference.answer).toMatch(/link 1 and link 2/);
    const concurrent = await sharedExperimentOf("concurrent");
    const linkColumn = concurrent.table!.columns.find((column) => column.label === "Link")!.key;
    expect(concurrent.table!.rows.map((row) => row.cells[linkColumn])).toEqual(
      expect.arrayContaining(["link 1", "link 2"]),
    );
  });

  it("shows the figures without the team's notes and labels, on a run's and a link's page", async () => {
    for (const [kind, id] of [
      ["run", runId],
      ["link", linkId],
    ] as const) {
      const share = await createShare({ kind, id }, { origin: ORIGIN });
      const json = JSON.stringify(await getSharedPage(share.url.split("/s/")[1]!));
      expect(json, kind).toContain("939");
      expect(json, kind).not.toContain("team note");
      expect(json, kind).not.toContain("team-label");
    }
  });

  it("drops a page from the cache when its share is revoked", async () => {
    const share = await createShare({ kind: "link", id: linkId }, { origin: ORIGIN });
    const token = share.url.split("/s/")[1]!;
    await getSharedPage(token);
    const before = getApp().sharedPages.size;
    await revokeShare(share.id);
    expect(getApp().sharedPages.size).toBe(before - 1);
  });
});
