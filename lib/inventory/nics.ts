import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { parseInput } from "@/lib/errors";
import { InventoryError } from "@/lib/inventory/errors";
import type { DeletedCounts } from "@/lib/inventory/hosts";
import { activeRunOf } from "@/lib/inventory/active-runs";
import { isRecordMissing, isUniqueViolation } from "@/lib/db-errors";
import { IdSchema, NicCreateSchema, NicUpdateSchema } from "@/lib/inventory/schemas";
import { recordAudit } from "@/lib/auth/audit";

const nicSelect = {
  id: true,
  hostId: true,
  host: { select: { id: true, name: true } },
  name: true,
  addresses: true,
  speedMbps: true,
  mtu: true,
  model: true,
  driver: true,
  mac: true,
  pcieLinkSpeed: true,
  pcieLinkWidth: true,
  medium: true,
  createdAt: true,
  updatedAt: true,
  _count: { select: { linksAsA: true, linksAsB: true } },
} as const satisfies Prisma.NicSelect;

type NicRow = Prisma.NicGetPayload<{ select: typeof nicSelect }>;

/** A NIC as the API and the pages see it: its row, with its addresses read and its links counted. */
export type NicView = Omit<NicRow, "addresses" | "_count"> & {
  /** The first of `addresses` (the one a run binds to), or null. */
  address: string | null;
  addresses: string[];
  linkCount: number;
};

/** The stored JSON list as strings; anything else another writer left there is dropped. */
export function addressesOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
}

function toNicView({ addresses: stored, _count, ...row }: NicRow): NicView {
  const addresses = addressesOf(stored);
  return { ...row, address: addresses[0] ?? null, addresses, linkCount: _count.linksAsA + _count.linksAsB };
}

function nicNotFound(id: number): InventoryError {
  return new InventoryError("not-found", `no NIC has id ${id}`);
}

function nameTaken(name: string, hostName: string): InventoryError {
  return new InventoryError("conflict", `name: host ${hostName} already has a NIC named "${name}"`, {
    fields: [{ field: "name", message: `is already used by another NIC of host ${hostName}` }],
  });
}

/** The list to store from the `address` / `addresses` inputs; undefined leaves it unchanged. */
function addressListOf(data: { address?: string | null; addresses?: string[] }): string[] | undefined {
  if (data.addresses !== undefined) return data.addresses;
  if (data.address === undefined) return undefined;
  return data.address === null ? [] : [data.address];
}

/** Every NIC, or those of one host (`not-found` when that host does not exist), by host then name. */
export async function listNics(options: { hostId?: number } = {}): Promise<NicView[]> {
  let where = {};
  if (options.hostId !== undefined) {
    const hostId = parseInput(IdSchema, options.hostId, "hostId");
    const host = await db.host.findUnique({ where: { id: hostId }, select: { id: true } });
    if (!host) {
      throw new InventoryError("not-found", `no host has id ${hostId}`, {
        fields: [{ field: "hostId", message: `names no host (${hostId})` }],
      });
    }
    where = { hostId };
  }
  const rows = await db.nic.findMany({ where, orderBy: [{ hostId: "asc" }, { name: "asc" }], select: nicSelect });
  return rows.map(toNicView);
}

export async function getNic(id: number): Promise<NicView> {
  const nicId = parseInput(IdSchema, id, "id");
  const row = await db.nic.findUnique({ where: { id: nicId }, select: nicSelect });
  if (!row) throw nicNotFound(nicId);
  return toNicView(row);
}

/** Validates `input` with NicCreateSchema and records the NIC on its host. */
export async function createNic(input: unknown): Promise<NicView> {
  const data = parseInput(NicCreateSchema, input);
  const host = await db.host.findUnique({ where: { id: data.hostId }, select: { id: true, name: true } });
  if (!host) {
    throw new InventoryError("not-found", `hostId: no host has id ${data.hostId}`, {
      fields: [{ field: "hostId", message: `names no host (${data.hostId})` }],
    });
  }
  const taken = await db.nic.findUnique({
    where: { hostId_name: { hostId: host.id, name: data.name } },
    select: { id: true },
  });
  if (taken) throw nameTaken(data.name, host.name);
  try {
    const row = await db.nic.create({
      data: {
        hostId: host.id,
        name: data.name,
        addresses: addressListOf(data) ?? [],
        speedMbps: data.speedMbps ?? null,
        mtu: data.mtu ?? null,
        model: data.model ?? null,
        driver: data.driver ?? null,
        mac: data.mac ?? null,
        pcieLinkSpeed: data.pcieLinkSpeed ?? null,
        pcieLinkWidth: data.pcieLinkWidth ?? null,
        medium: data.medium ?? null,
      },
      select: nicSelect,
    });
    await recordAudit("nic.create", "nic", row.id, `${host.name} ${row.name}`);
    return toNicView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(data.name, host.name);
    throw error;
  }
}

/** Validates `input` with NicUpdateSchema and changes the fields given. */
export async function updateNic(id: number, input: unknown): Promise<NicView> {
  const nicId = parseInput(IdSchema, id, "id");
  const data = parseInput(NicUpdateSchema, input);
  const existing = await db.nic.findUnique({
    where: { id: nicId },
    select: { id: true, hostId: true, host: { select: { name: true } } },
  });
  if (!existing) throw nicNotFound(nicId);
  if (data.name !== undefined) {
    const taken = await db.nic.findUnique({
      where: { hostId_name: { hostId: existing.hostId, name: data.name } },
      select: { id: true },
    });
    if (taken && taken.id !== nicId) throw nameTaken(data.name, existing.host.name);
  }
  try {
    const row = await db.nic.update({
      where: { id: nicId },
      data: {
        name: data.name,
        addresses: addressListOf(data),
        speedMbps: data.speedMbps,
        mtu: data.mtu,
        model: data.model,
        driver: data.driver,
        mac: data.mac,
        pcieLinkSpeed: data.pcieLinkSpeed,
        pcieLinkWidth: data.pcieLinkWidth,
        medium: data.medium,
      },
      select: nicSelect,
    });
    await recordAudit("nic.update", "nic", nicId, `${existing.host.name} ${row.name}: ${Object.keys(data).join(", ")}`);
    return toNicView(row);
  } catch (error) {
    if (isUniqueViolation(error) && data.name !== undefined) throw nameTaken(data.name, existing.host.name);
    if (isRecordMissing(error)) throw nicNotFound(nicId);
    throw error;
  }
}

/** Deletes a NIC with its links and their runs; refused with `conflict` while one of those runs is active. */
export async function deleteNic(id: number): Promise<DeletedCounts> {
  const nicId = parseInput(IdSchema, id, "id");
  return db
    .$transaction(async (tx) => {
      const nic = await tx.nic.findUnique({
        where: { id: nicId },
        select: { id: true, name: true, host: { select: { name: true } } },
      });
      if (!nic) throw nicNotFound(nicId);
      const linkWhere = { OR: [{ aNicId: nicId }, { bNicId: nicId }] };
      const active = await activeRunOf(tx, { link: linkWhere });
      if (active) {
        throw new InventoryError(
          "conflict",
          `NIC ${nicId} has run ${active.id} ${active.status}: cancel it or wait for it to end first`,
        );
      }
      const [links, runs] = await Promise.all([
        tx.link.count({ where: linkWhere }),
        tx.run.count({ where: { link: linkWhere } }),
      ]);
      try {
        await tx.nic.delete({ where: { id: nicId } });
      } catch (error) {
        if (isRecordMissing(error)) throw nicNotFound(nicId);
        throw error;
      }
      return { counts: { hosts: 0, nics: 1, links, runs }, name: `${nic.host.name} ${nic.name}` };
    })
    .then(async ({ counts, name }) => {
      await recordAudit("nic.delete", "nic", nicId, `${name} with ${counts.links} link(s), ${counts.runs} run(s)`);
      return counts;
    });
}
