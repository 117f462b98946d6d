import "server-only";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordAudit } from "@/lib/auth/audit";
import { AppError, parseInput } from "@/lib/errors";
import { addressesOf } from "@/lib/inventory/nics";
import { isUniqueViolation } from "@/lib/db-errors";
import { IdSchema } from "@/lib/inventory/schemas";
import { cpuColumns, summaryColumns } from "@/lib/runs/columns";
import { sampleEventOf } from "@/lib/runs/contract";
import { toSampleRow } from "@/lib/runs/samples";
import { storeRunDigest } from "@/lib/runs/digest";
import { StreamTotals } from "@/lib/runs/stream-totals";
import { signatureOf } from "@/lib/runs/signature";
import {
  ImportRequestSchema,
  type ImportedRun,
  type ImportResponse,
  type ReadImportInput,
  type ReadImportResult,
} from "./contract";
import { readImport } from "./read";

// Imported runs stored as runs of a link: each output read on its own (lib/imports/read.ts), so
// that one broken file costs only itself; an output already imported into the link (same hash)
// is reported as a duplicate with the run it became.

/** Sample rows per INSERT: a one-hour `-i 0.1` output has 36,000 of them. */
const SAMPLE_BATCH = 1000;

async function linkAddressesOf(linkId: number) {
  const link = await db.link.findUnique({
    where: { id: linkId },
    select: { id: true, name: true, aNic: { select: { addresses: true } }, bNic: { select: { addresses: true } } },
  });
  if (!link) throw new AppError("not-found", `no link has id ${linkId}`);
  return { link, addresses: { a: addressesOf(link.aNic.addresses), b: addressesOf(link.bNic.addresses) } };
}

/** The run's error columns: iperf3's error, or what an interrupted output means. */
function errorColumns(run: ImportedRun) {
  if (run.error) return { errorKind: run.error.kind, errorMessage: run.error.message, errorHint: run.error.hint };
  if (run.status === "interrupted") {
    return {
      errorKind: "interrupted",
      errorMessage: "The test was stopped before its end (Ctrl-C): the figures are partial.",
      errorHint: "",
    };
  }
  return {};
}

function runData(linkId: number, name: string, run: ImportedRun): Prisma.RunUncheckedCreateInput {
  const isInterrupted = run.interrupted || run.status === "interrupted";
  return {
    linkId,
    source: "imported",
    importHash: run.hash,
    importName: name,
    status: run.status,
    clientSide: run.clientSide,
    options: run.options as Prisma.InputJsonValue,
    signature: signatureOf(run.options, run.clientSide),
    createdAt: run.startedAt,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    ...(run.role === "client"
      ? { clientIperfVersion: run.version, clientOutput: run.text }
      : { serverIperfVersion: run.version, serverOutput: run.text }),
    ...summaryColumns(run.summary, "", isInterrupted),
    ...summaryColumns(run.reverseSummary, "reverse", isInterrupted),
    ...cpuColumns(run.cpu),
    ...errorColumns(run),
  };
}

/** Stores one read output as a run with its samples, all or nothing, then its digest (what its page shows). */
async function storeRun(linkId: number, name: string, run: ImportedRun): Promise<number> {
  const totals = new StreamTotals();
  const runId = await db.$transaction(async (tx) => {
    const created = await tx.run.create({ data: runData(linkId, name, run), select: { id: true } });
    for (let from = 0; from < run.intervals.length; from += SAMPLE_BATCH) {
      const rows = run.intervals.slice(from, from + SAMPLE_BATCH).map((interval, index) => {
        totals.add(sampleEventOf(from + index, interval));
        return toSampleRow(created.id, from + index, interval);
      });
      await tx.sample.createMany({ data: rows });
    }
    return created.id;
  });
  // Outside the transaction: a digest that cannot be stored now is stored on the run page's first view.
  await storeRunDigest(runId, totals.stats()).catch(() => undefined);
  return runId;
}

/** One output read; whatever the reader throws on an output nobody foresaw costs that output alone. */
function readOne(input: ReadImportInput): ReadImportResult {
  try {
    return readImport(input);
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]!.slice(0, 200) : "unknown error";
    return { ok: false, error: { kind: "unreadable", message: `the output could not be read: ${message}` } };
  }
}

/**
 * POST /api/links/:id/imports: every output read and stored as a run of the link, in the order
 * sent. A bad request (no outputs, more than 50, a field of the wrong type) is a 400 naming the
 * field; an output that cannot be read is a `failed` entry and the rest are still imported.
 */
export async function importOutputs(linkIdInput: number, input: unknown, now = new Date()): Promise<ImportResponse> {
  const linkId = parseInput(IdSchema, linkIdInput, "id");
  const request = parseInput(ImportRequestSchema, input);
  const { link, addresses } = await linkAddressesOf(linkId);
  const response: ImportResponse = { imported: [], duplicates: [], failed: [] };
  /** hash → run id, for outputs repeated within the batch */
  const seen = new Map<string, number>();
  for (const [index, output] of request.outputs.entries()) {
    const name = output.name || `output ${index + 1}`;
    const read = readOne({
      text: output.text,
      linkAddresses: addresses,
      clientSide: output.clientSide,
      startedAt: output.startedAt ? new Date(output.startedAt) : undefined,
      now,
    });
    if (!read.ok) {
      response.failed.push({ name, error: read.error });
      continue;
    }
    const earlier =
      seen.get(read.run.hash) ??
      (
        await db.run.findUnique({
          where: { linkId_importHash: { linkId, importHash: read.run.hash } },
          select: { id: true },
        })
      )?.id;
    if (earlier !== undefined) {
      response.duplicates.push({ name, runId: earlier });
      continue;
    }
    try {
      const runId = await storeRun(linkId, name, read.run);
      seen.set(read.run.hash, runId);
      response.imported.push({ runId, name });
    } catch (error) {
      // Another import of the same output won the race: it is a duplicate of that one.
      if (!isUniqueViolation(error)) throw error;
      const winner = await db.run.findUnique({
        where: { linkId_importHash: { linkId, importHash: read.run.hash } },
        select: { id: true },
      });
      if (!winner) throw error;
      response.duplicates.push({ name, runId: winner.id });
    }
  }
  if (response.imported.length > 0) {
    await recordAudit(
      "run.import",
      "link",
      linkId,
      `${response.imported.length} run${response.imported.length === 1 ? "" : "s"} into ${link.name}`,
    );
  }
  return response;
}
