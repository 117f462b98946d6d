import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { getApp } from "@/lib/running-app";
import { getSharedPage } from "./page-data";
import { createShare, findOpenShare, listShares, revokeShare } from "./store";

// Share links on a real database: made with an expiry, listed, revoked; an expired or revoked
// token opens nothing; a share that hides addresses carries no host name or address of the lab.

const ORIGIN = "http://wirespeed.test";
const DAY = 24 * 3600_000;
// Names and addresses that must never reach a share that hides them, in any form.
const SECRETS = ["nas-alpha", "beta-box", "198.18.4.2", "198.18.4.3", "beta.lan", "gamma-lab", "10.9.8.7"];

let database: TestDatabase;
let runId = 0;
let failedRunId = 0;
let linkId = 0;
let experimentId = 0;

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

    const listed = await listShares({ origin: ORIGIN, now });
    expect(listed.find((entry) => entry.id === share.id)).toMatchObject({
      ...share,
      targetId: runId,
      title: `Run #${runId} on nas-alpha-to-beta-box`,
      createdBy: "system",
      isExpired: false,
    });

    const page = await getSharedPage(token, new Date(now.getTime() + 6 * DAY));
    expect(page?.content).toMatchObject({ kind: "run", id: runId, aName: "host A", bName: "host B" });
    expect(await getSharedPage(token, new Date(now.getTime() + 7 * DAY))).toBeNull();
    expect(await findOpenShare(token, new Date(now.getTime() + 8 * DAY))).toBeNull();
    expect((await listShares({ origin: ORIGIN, now: new Date(now.getTime() + 8 * DAY) }))[0]!.isExpired).toBe(true);

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
