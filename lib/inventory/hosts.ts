import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { invalidInput, parseInput } from "@/lib/errors";
import { InventoryError } from "@/lib/inventory/errors";
import { activeRunOf } from "@/lib/inventory/active-runs";
import { isUniqueViolation, isRecordMissing } from "@/lib/db-errors";
import {
  HostCreateSchema,
  HostUpdateSchema,
  IdSchema,
  checkHostUpdateAccess,
  checkPortRange,
  type HostAccess,
  type HostAuth,
} from "@/lib/inventory/schemas";
import {
  checkJumpHost,
  checkNotJumpedThrough,
  JUMP_CHAIN_SELECT,
  jumpChainOf,
  type JumpChain,
} from "@/lib/inventory/jumps";
import { sealSecret } from "@/lib/inventory/secrets";
import { authorizeCurrent } from "@/lib/auth/guard";
import { recordAudit } from "@/lib/auth/audit";

// Never `secret`: whether one exists is asked of the database separately (see hostIdsWithSecret).
const hostSelect = {
  id: true,
  name: true,
  address: true,
  sshPort: true,
  username: true,
  authMethod: true,
  platform: true,
  iperf3Path: true,
  iperf3Version: true,
  hostKeyFingerprint: true,
  iperfPortMin: true,
  iperfPortMax: true,
  openFirewall: true,
  lastSeenAt: true,
  notes: true,
  access: true,
  jumpHostId: true,
  kind: true,
  tags: true,
  site: true,
  createdAt: true,
  updatedAt: true,
  jumpHost: JUMP_CHAIN_SELECT,
  _count: { select: { nics: true } },
} as const satisfies Prisma.HostSelect;

type HostRow = Prisma.HostGetPayload<{ select: typeof hostSelect }>;

/**
 * A host as the API and the pages see it: its row, with the SSH port as `port`, the count of its
 * NICs as `nicCount`, and the secret reduced to `hasSecret`.
 */
export type HostView = Omit<HostRow, "sshPort" | "_count" | "jumpHost" | "access" | "tags"> & {
  access: HostAccess;
  /** free-form labels, as stored */
  tags: string[];
  port: number;
  hasSecret: boolean;
  nicCount: number;
  /** This machine (`authMethod` "local"): reached without SSH. */
  isLocal: boolean;
  /** The jump hosts SSH goes through to reach this host, the first hop first; empty when reached directly. */
  jumpChain: JumpChain;
};

function toHostView({ sshPort, _count, jumpHost, ...row }: HostRow, hasSecret: boolean): HostView {
  return {
    ...row,
    access: row.access as HostAccess,
    tags: Array.isArray(row.tags) ? row.tags.filter((tag): tag is string => typeof tag === "string") : [],
    port: sshPort,
    hasSecret,
    nicCount: _count.nics,
    isLocal: row.authMethod === "local",
    jumpChain: jumpChainOf(jumpHost),
  };
}

// The secret bytes never leave SQLite for a view: only the ids of hosts that have one do.
async function hostIdsWithSecret(ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.host.findMany({ where: { id: { in: ids }, secret: { not: null } }, select: { id: true } });
  return new Set(rows.map((row) => row.id));
}

async function viewsOf(rows: HostRow[]): Promise<HostView[]> {
  const withSecret = await hostIdsWithSecret(rows.map((row) => row.id));
  return rows.map((row) => toHostView(row, withSecret.has(row.id)));
}

function hostNotFound(id: number): InventoryError {
  return new InventoryError("not-found", `no host has id ${id}`);
}

function nameTaken(name: string): InventoryError {
  return new InventoryError("conflict", `name: a host named "${name}" already exists`, {
    fields: [{ field: "name", message: `is already used by another host` }],
  });
}

/** The method and the sealed secret to store for an `auth` input; `local` stores none. */
function credentialsOf(auth: HostAuth): { authMethod: string; secret: Uint8Array<ArrayBuffer> | null } {
  switch (auth.method) {
    case "key":
      return {
        authMethod: "key",
        secret: sealSecret(
          auth.passphrase === undefined
            ? { privateKey: auth.privateKey }
            : { privateKey: auth.privateKey, passphrase: auth.passphrase },
        ),
      };
    case "password":
      return { authMethod: "password", secret: sealSecret({ password: auth.password }) };
    case "local":
      return { authMethod: "local", secret: null };
  }
}

/** Every host, by name; with `localFirst`, this machine first (the order of the pages). */
export async function listHosts({ localFirst = false }: { localFirst?: boolean } = {}): Promise<HostView[]> {
  const rows = await db.host.findMany({ orderBy: [{ name: "asc" }, { id: "asc" }], select: hostSelect });
  const hosts = await viewsOf(rows);
  if (!localFirst) return hosts;
  return hosts.sort((a, b) => Number(b.isLocal) - Number(a.isLocal) || a.name.localeCompare(b.name));
}

/** One host; `not-found` when there is none with that id. */
export async function getHost(id: number): Promise<HostView> {
  const hostId = parseInput(IdSchema, id, "id");
  const row = await db.host.findUnique({ where: { id: hostId }, select: hostSelect });
  if (!row) throw hostNotFound(hostId);
  const [view] = await viewsOf([row]);
  return view!;
}

/** Validates `input` with HostCreateSchema and records the host; the secret is sealed before it is stored. */
export async function createHost(input: unknown): Promise<HostView> {
  const data = parseInput(HostCreateSchema, input);
  const taken = await db.host.findUnique({ where: { name: data.name }, select: { id: true } });
  if (taken) throw nameTaken(data.name);
  if (data.jumpHostId != null) await checkJumpHost(null, data.jumpHostId);
  // A host Wirespeed does not log in to has no credentials (the schema refuses them): "none".
  const { authMethod, secret } = data.auth ? credentialsOf(data.auth) : { authMethod: "none", secret: null };
  const port = data.port ?? 22;
  const username = data.username ?? "root";
  const address = data.address ?? "";
  try {
    const row = await db.host.create({
      data: {
        name: data.name,
        access: data.access,
        address,
        sshPort: port,
        username,
        authMethod,
        secret,
        jumpHostId: data.jumpHostId ?? null,
        kind: data.access === "device" ? (data.kind ?? "other") : null,
        tags: [...new Set(data.tags)],
        site: data.site ?? null,
        platform: data.platform,
        iperf3Path: data.iperf3Path ?? null,
        hostKeyFingerprint: data.hostKeyFingerprint ?? null,
        iperfPortMin: data.iperfPortMin,
        iperfPortMax: data.iperfPortMax,
        openFirewall: data.openFirewall,
        notes: data.notes,
      },
      select: hostSelect,
    });
    await recordAudit(
      "host.create",
      "host",
      row.id,
      data.access === "ssh"
        ? `${row.name} (${username}@${address}:${port}, ${authMethod}${data.jumpHostId ? `, through host ${data.jumpHostId}` : ""})`
        : `${row.name} (${data.access}${address ? ` ${address}` : ""})`,
    );
    return toHostView(row, secret !== null);
  } catch (error) {
    // Another request created the same name between the check and the insert.
    if (isUniqueViolation(error)) throw nameTaken(data.name);
    throw error;
  }
}

/** Validates `input` with HostUpdateSchema and changes the fields given; `auth` replaces method and secret together. */
export async function updateHost(id: number, input: unknown): Promise<HostView> {
  const hostId = parseInput(IdSchema, id, "id");
  const data = parseInput(HostUpdateSchema, input);
  const existing = await db.host.findUnique({
    where: { id: hostId },
    select: {
      id: true,
      name: true,
      iperfPortMin: true,
      iperfPortMax: true,
      access: true,
      authMethod: true,
      iperf3Path: true,
    },
  });
  if (!existing) throw hostNotFound(hostId);
  const accessProblems = checkHostUpdateAccess(data, existing.access as HostAccess);
  if (accessProblems.length > 0) throw invalidInput(accessProblems);
  if (data.jumpHostId != null) await checkJumpHost(hostId, data.jumpHostId);
  // This machine is not reached over SSH, so no host can jump through it.
  if (data.auth?.method === "local") await checkNotJumpedThrough(hostId, "auth");
  // Credentials, the trusted host key and the program the SSH user runs are an admin's, even inside an
  // operator's edit (whose form sends the stored iperf3 path back unchanged, which is no change).
  const changesIperf3Path = data.iperf3Path !== undefined && data.iperf3Path !== existing.iperf3Path;
  if (data.auth !== undefined || data.hostKeyFingerprint !== undefined || changesIperf3Path)
    authorizeCurrent("credentials");
  const rangeProblem = checkPortRange(
    data.iperfPortMin ?? existing.iperfPortMin,
    data.iperfPortMax ?? existing.iperfPortMax,
  );
  if (rangeProblem) throw invalidInput([{ field: "iperfPortMax", message: rangeProblem }]);
  if (data.name !== undefined) {
    const taken = await db.host.findUnique({ where: { name: data.name }, select: { id: true } });
    if (taken && taken.id !== hostId) throw nameTaken(data.name);
  }
  const credentials = data.auth ? credentialsOf(data.auth) : undefined;
  try {
    await db.host.update({
      where: { id: hostId },
      data: {
        name: data.name,
        address: data.address,
        sshPort: data.port,
        username: data.username,
        jumpHostId: data.jumpHostId,
        kind: data.kind,
        tags: data.tags === undefined ? undefined : [...new Set(data.tags)],
        site: data.site,
        authMethod: credentials?.authMethod,
        secret: credentials ? credentials.secret : undefined,
        platform: data.platform,
        iperf3Path: data.iperf3Path,
        hostKeyFingerprint: data.hostKeyFingerprint,
        iperfPortMin: data.iperfPortMin,
        iperfPortMax: data.iperfPortMax,
        openFirewall: data.openFirewall,
        notes: data.notes,
      },
      select: { id: true },
    });
  } catch (error) {
    if (isUniqueViolation(error) && data.name !== undefined) throw nameTaken(data.name);
    if (isRecordMissing(error)) throw hostNotFound(hostId);
    throw error;
  }
  const changed = Object.keys(data).map((key) => (key === "auth" ? "credentials" : key));
  if (data.hostKeyFingerprint !== undefined) {
    await recordAudit(
      "host.trust",
      "host",
      hostId,
      `${existing.name}: host key ${data.hostKeyFingerprint ?? "unpinned"}`,
    );
  }
  const others = changed.filter((key) => key !== "hostKeyFingerprint");
  if (others.length > 0) await recordAudit("host.update", "host", hostId, `${existing.name}: ${others.join(", ")}`);
  return getHost(hostId);
}

export type DeletedCounts = { hosts: number; nics: number; links: number; runs: number };

/**
 * Deletes a host with its NICs, their links and those links' runs (the foreign keys cascade).
 * Refused with `conflict` while one of those runs is queued or in progress.
 */
export async function deleteHost(id: number): Promise<DeletedCounts> {
  const hostId = parseInput(IdSchema, id, "id");
  return db
    .$transaction(async (tx) => {
      const host = await tx.host.findUnique({ where: { id: hostId }, select: { id: true, name: true } });
      if (!host) throw hostNotFound(hostId);
      await checkNotJumpedThrough(hostId, null, tx);
      const linkWhere = { OR: [{ aNic: { hostId } }, { bNic: { hostId } }] };
      const active = await activeRunOf(tx, { link: linkWhere });
      if (active) {
        throw new InventoryError(
          "conflict",
          `host ${hostId} has run ${active.id} ${active.status}: cancel it or wait for it to end first`,
        );
      }
      const [nics, links, runs] = await Promise.all([
        tx.nic.count({ where: { hostId } }),
        tx.link.count({ where: linkWhere }),
        tx.run.count({ where: { link: linkWhere } }),
      ]);
      try {
        await tx.host.delete({ where: { id: hostId } });
      } catch (error) {
        if (isRecordMissing(error)) throw hostNotFound(hostId);
        throw error;
      }
      return { counts: { hosts: 1, nics, links, runs }, name: host.name };
    })
    .then(async ({ counts, name }) => {
      await recordAudit(
        "host.delete",
        "host",
        hostId,
        `${name} with ${counts.nics} NIC(s), ${counts.links} link(s), ${counts.runs} run(s)`,
      );
      return counts;
    });
}
