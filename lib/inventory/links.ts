import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { invalidInput, parseInput } from "@/lib/errors";
import { InventoryError } from "@/lib/inventory/errors";
import type { DeletedCounts } from "@/lib/inventory/hosts";
import { addressesOf } from "@/lib/inventory/nics";
import { activeRunOf } from "@/lib/inventory/active-runs";
import { isRecordMissing } from "@/lib/db-errors";
import { IdSchema, LinkCreateSchema, LinkUpdateSchema, type HostAccess } from "@/lib/inventory/schemas";
import { recordAudit } from "@/lib/auth/audit";
import { labelsOf } from "@/lib/notes/contract";
import { getApp } from "@/lib/running-app";

export type LinkEndView = {
  /** `access`: how Wirespeed reaches the host (lib/inventory/schemas.ts HOST_ACCESS). */
  host: { id: number; name: string; access: HostAccess };
  nic: { id: number; name: string; address: string | null; speedMbps: number | null; mtu: number | null };
};

export type LinkView = {
  id: number;
  name: string;
  speedMbps: number;
  notes: string;
  /** The same text as `notes`, under the name runs and experiments use (lib/notes). */
  note: string;
  labels: string[];
  /** Runs per test signature that make its baseline. */
  baselineRuns: number;
  /** Whether imported runs count toward the baselines. */
  importsInBaseline: boolean;
  /** Whether Home Assistant's "Run again" button may start the link's last test. */
  homeAssistantRunButton: boolean;
  a: LinkEndView;
  b: LinkEndView;
  /** Both MTUs are known and differ: large frames from one end get fragmented or dropped. */
  mtuMismatch: boolean;
  runCount: number;
  createdAt: Date;
  updatedAt: Date;
};

const endSelect = {
  select: {
    id: true,
    name: true,
    addresses: true,
    speedMbps: true,
    mtu: true,
    host: { select: { id: true, name: true, access: true } },
  },
} as const satisfies Prisma.NicDefaultArgs;

const linkSelect = {
  id: true,
  name: true,
  speedMbps: true,
  notes: true,
  labels: true,
  baselineRuns: true,
  importsInBaseline: true,
  homeAssistantRunButton: true,
  createdAt: true,
  updatedAt: true,
  aNic: endSelect,
  bNic: endSelect,
  _count: { select: { runs: true } },
} as const satisfies Prisma.LinkSelect;

type EndRow = Prisma.NicGetPayload<typeof endSelect>;
type LinkRow = Prisma.LinkGetPayload<{ select: typeof linkSelect }>;

function toEndView(nic: EndRow): LinkEndView {
  return {
    host: { ...nic.host, access: nic.host.access as HostAccess },
    nic: {
      id: nic.id,
      name: nic.name,
      address: addressesOf(nic.addresses)[0] ?? null,
      speedMbps: nic.speedMbps,
      mtu: nic.mtu,
    },
  };
}

function toLinkView(row: LinkRow): LinkView {
  return {
    id: row.id,
    name: row.name,
    speedMbps: row.speedMbps,
    notes: row.notes,
    note: row.notes,
    labels: labelsOf(row.labels),
    baselineRuns: row.baselineRuns,
    importsInBaseline: row.importsInBaseline,
    homeAssistantRunButton: row.homeAssistantRunButton,
    a: toEndView(row.aNic),
    b: toEndView(row.bNic),
    mtuMismatch: row.aNic.mtu !== null && row.bNic.mtu !== null && row.aNic.mtu !== row.bNic.mtu,
    runCount: row._count.runs,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Home Assistant's devices follow the links (lib/mqtt): a new one appears, a renamed one is renamed, a deleted one goes. */
function linksChanged(): void {
  getApp().homeAssistant.linksChanged();
}

function linkNotFound(id: number): InventoryError {
  return new InventoryError("not-found", `no link has id ${id}`);
}

const endNicSelect = {
  id: true,
  hostId: true,
  speedMbps: true,
  host: { select: { name: true, access: true } },
} as const satisfies Prisma.NicSelect;

type EndNic = Prisma.NicGetPayload<{ select: typeof endNicSelect }>;

/**
 * Loads and checks the two NICs of a link: both exist (`not-found`), they differ and sit on two
 * different hosts (`invalid`), and no other link already joins them (`conflict`).
 */
async function checkEnds(aNicId: number, bNicId: number, exceptLinkId?: number): Promise<[EndNic, EndNic]> {
  if (aNicId === bNicId) {
    throw invalidInput([{ field: "bNicId", message: "must name a different NIC than aNicId: a link joins two NICs" }]);
  }
  const [a, b] = await Promise.all([
    db.nic.findUnique({ where: { id: aNicId }, select: endNicSelect }),
    db.nic.findUnique({ where: { id: bNicId }, select: endNicSelect }),
  ]);
  const missing = [
    ...(a ? [] : [{ field: "aNicId", message: `names no NIC (${aNicId})` }]),
    ...(b ? [] : [{ field: "bNicId", message: `names no NIC (${bNicId})` }]),
  ];
  if (!a || !b)
    throw new InventoryError("not-found", missing.map((entry) => `${entry.field} ${entry.message}`).join("; "), {
      fields: missing,
    });
  if (a.hostId === b.hostId) {
    throw invalidInput([
      {
        field: "bNicId",
        message: `must be a NIC on another host than aNicId: both are on host ${a.host.name}, and a link joins two hosts`,
      },
    ]);
  }
  // One end at least runs iperf3 under Wirespeed's control: the client against an iperf3 server, the
  // listening server for a device.
  if (a.host.access !== "ssh" && b.host.access !== "ssh") {
    throw invalidInput([
      {
        field: "bNicId",
        message:
          `must be a NIC of a host Wirespeed logs in to (access ssh): ${a.host.name} is an ${a.host.access} host ` +
          `and ${b.host.name} an ${b.host.access} host, and Wirespeed runs iperf3 on one end of a link at least`,
      },
    ]);
  }
  const duplicate = await db.link.findFirst({
    where: {
      OR: [
        { aNicId, bNicId },
        { aNicId: bNicId, bNicId: aNicId },
      ],
      ...(exceptLinkId === undefined ? {} : { NOT: { id: exceptLinkId } }),
    },
    select: { id: true, name: true },
  });
  if (duplicate) {
    throw new InventoryError("conflict", `link ${duplicate.id} ("${duplicate.name}") already joins these two NICs`, {
      fields: [{ field: "bNicId", message: `is already joined to aNicId by link ${duplicate.id}` }],
    });
  }
  return [a, b];
}

/** The slower of the two NICs' known speeds; `invalid` naming speedMbps when neither is known. */
function defaultSpeedOf(a: EndNic, b: EndNic): number {
  const known = [a.speedMbps, b.speedMbps].filter((speed): speed is number => speed !== null);
  if (known.length === 0) {
    throw invalidInput([
      {
        field: "speedMbps",
        message: "is required when neither NIC has a speed: a whole number of Mbit/s from 1 to 1000000",
      },
    ]);
  }
  return Math.min(...known);
}

/** Every link with both ends, by name. */
export async function listLinks(): Promise<LinkView[]> {
  const rows = await db.link.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: linkSelect });
  return rows.map(toLinkView);
}

export async function getLink(id: number): Promise<LinkView> {
  const linkId = parseInput(IdSchema, id, "id");
  const row = await db.link.findUnique({ where: { id: linkId }, select: linkSelect });
  if (!row) throw linkNotFound(linkId);
  return toLinkView(row);
}

/** Validates `input` with LinkCreateSchema; `speedMbps` defaults to the slower NIC's speed. */
export async function createLink(input: unknown): Promise<LinkView> {
  const data = parseInput(LinkCreateSchema, input);
  const [a, b] = await checkEnds(data.aNicId, data.bNicId);
  const row = await db.link.create({
    data: {
      name: data.name,
      aNicId: a.id,
      bNicId: b.id,
      speedMbps: data.speedMbps ?? defaultSpeedOf(a, b),
      notes: data.notes,
      baselineRuns: data.baselineRuns,
      importsInBaseline: data.importsInBaseline,
      homeAssistantRunButton: data.homeAssistantRunButton,
    },
    select: linkSelect,
  });
  await recordAudit("link.create", "link", row.id, row.name);
  linksChanged();
  return toLinkView(row);
}

/** Validates `input` with LinkUpdateSchema; changing an end is refused while a run of the link is active. */
export async function updateLink(id: number, input: unknown): Promise<LinkView> {
  const linkId = parseInput(IdSchema, id, "id");
  const data = parseInput(LinkUpdateSchema, input);
  const existing = await db.link.findUnique({
    where: { id: linkId },
    select: { id: true, aNicId: true, bNicId: true },
  });
  if (!existing) throw linkNotFound(linkId);
  const aNicId = data.aNicId ?? existing.aNicId;
  const bNicId = data.bNicId ?? existing.bNicId;
  const isRewired = aNicId !== existing.aNicId || bNicId !== existing.bNicId;
  let speedMbps = data.speedMbps ?? undefined;
  if (isRewired || data.speedMbps === null) {
    const [a, b] = await checkEnds(aNicId, bNicId, linkId);
    if (data.speedMbps === null) speedMbps = defaultSpeedOf(a, b);
  }
  if (isRewired) {
    const active = await activeRunOf(db, { linkId });
    if (active) {
      throw new InventoryError(
        "conflict",
        `link ${linkId} has run ${active.id} ${active.status}: its NICs cannot change until it ends`,
      );
    }
  }
  try {
    const row = await db.link.update({
      where: { id: linkId },
      data: {
        name: data.name,
        aNicId: isRewired ? aNicId : undefined,
        bNicId: isRewired ? bNicId : undefined,
        speedMbps,
        notes: data.note ?? data.notes,
        labels: data.labels,
        baselineRuns: data.baselineRuns,
        importsInBaseline: data.importsInBaseline,
        homeAssistantRunButton: data.homeAssistantRunButton,
      },
      select: linkSelect,
    });
    await recordAudit("link.update", "link", linkId, `${row.name}: ${Object.keys(data).join(", ")}`);
    linksChanged();
    return toLinkView(row);
  } catch (error) {
    if (isRecordMissing(error)) throw linkNotFound(linkId);
    throw error;
  }
}

/** Deletes a link with its runs; refused with `conflict` while one of them is active. */
export async function deleteLink(id: number): Promise<DeletedCounts> {
  const linkId = parseInput(IdSchema, id, "id");
  return db
    .$transaction(async (tx) => {
      const link = await tx.link.findUnique({ where: { id: linkId }, select: { id: true, name: true } });
      if (!link) throw linkNotFound(linkId);
      const active = await activeRunOf(tx, { linkId });
      if (active) {
        throw new InventoryError(
          "conflict",
          `link ${linkId} has run ${active.id} ${active.status}: cancel it or wait for it to end first`,
        );
      }
      const runs = await tx.run.count({ where: { linkId } });
      try {
        await tx.link.delete({ where: { id: linkId } });
      } catch (error) {
        if (isRecordMissing(error)) throw linkNotFound(linkId);
        throw error;
      }
      return { counts: { hosts: 0, nics: 0, links: 1, runs }, name: link.name };
    })
    .then(async ({ counts, name }) => {
      await recordAudit("link.delete", "link", linkId, `${name} with ${counts.runs} run(s)`);
      linksChanged();
      return counts;
    });
}
