// Matrix: one link, every combination of directions, protocols and client sides (the
// roles swapped, as in a table of "server 2 as client" and "server 2 as server"). The answer
// flags an asymmetry when a→b and b→a differ by more than ASYMMETRY_PERCENT.
import { z } from "zod";
import type { FieldError } from "@/lib/errors";
import { IperfOptionsSchema, type IperfOptions } from "@/lib/iperf/options";
import { CLIENT_SIDES, directionFlags, RUN_DIRECTIONS, type ClientSide, type RunDirection } from "@/lib/runs/contract";
import type { RunRequest } from "@/lib/runs/request";
import { ASYMMETRY_PERCENT, type MatrixResult, type MatrixRow, type PlanOf, type StepSpec } from "../contract";
import { directionWord, exactlyOneLink, mean } from "./figures";
import { refuseClientOnExternalServer } from "./external";
import { nextOfSteps, type KindDefinition } from "./kind";
import { formatBitRate, formatPercentWord } from "@/lib/format";

const PROTOCOLS = ["tcp", "udp"] as const;
type Protocol = (typeof PROTOCOLS)[number];

/** A list of distinct choices, at least one. */
function choices<T extends string>(field: string, allowed: readonly [T, ...T[]]) {
  const message = `${field} must be a list of ${allowed.map((value) => `"${value}"`).join(", ")}, each at most once`;
  return z
    .array(z.enum(allowed, { error: `must be one of ${allowed.map((value) => `"${value}"`).join(", ")}` }), {
      error: message,
    })
    .min(1, { error: message })
    .superRefine((values, context) => {
      values.forEach((value, index) => {
        if (values.indexOf(value) !== index)
          context.addIssue({ code: "custom", path: [index], message: `${value} is given twice` });
      });
    });
}

const MatrixFieldsSchema = z.strictObject({
  directions: choices("directions", RUN_DIRECTIONS).default([...RUN_DIRECTIONS]),
  protocols: choices("protocols", PROTOCOLS).default(["tcp"]),
  clientSides: choices("clientSides", CLIENT_SIDES).default(["a"]),
});

export type MatrixCell = { protocol: Protocol; clientSide: ClientSide; direction: RunDirection };

/** The cells in one order whatever the order given: protocol, then client side, then direction. */
export function matrixCells(plan: Pick<PlanOf<"matrix">, "protocols" | "clientSides" | "directions">): MatrixCell[] {
  return PROTOCOLS.filter((protocol) => plan.protocols.includes(protocol)).flatMap((protocol) =>
    CLIENT_SIDES.filter((side) => plan.clientSides.includes(side)).flatMap((clientSide) =>
      RUN_DIRECTIONS.filter((direction) => plan.directions.includes(direction)).map((direction) => ({
        protocol,
        clientSide,
        direction,
      })),
    ),
  );
}

/** "tcp a-to-b client-a": the row's key, the same in every matrix. */
export function matrixCellKey(cell: MatrixCell): string {
  return `${cell.protocol} ${cell.direction} client-${cell.clientSide}`;
}

/** "TCP a→b, client on a". */
export function describeMatrixCell(cell: MatrixCell): string {
  return `${cell.protocol.toUpperCase()} ${directionWord(cell.direction)}, client on ${cell.clientSide}`;
}

/**
 * A cell's options: the base with its protocol and direction. TCP cells leave out the
 * bitrate meant for UDP (it would cap TCP) unless the matrix is TCP only, where the user
 * asked for it; UDP cells leave out the TCP-only mss and congestion.
 */
export function matrixCellOptions(plan: PlanOf<"matrix">, base: RunRequest, cell: MatrixCell): IperfOptions {
  const options: Record<string, unknown> = {
    ...base.options,
    protocol: cell.protocol,
    ...directionFlags(cell.direction, cell.clientSide),
  };
  if (cell.protocol === "tcp" && plan.protocols.includes("udp")) delete options.bitrate;
  if (cell.protocol === "udp") {
    delete options.mss;
    delete options.congestion;
  }
  return IperfOptionsSchema.parse(options);
}

function matrixSteps(plan: PlanOf<"matrix">, base: RunRequest): StepSpec[] {
  const linkId = plan.linkIds[0]!;
  return matrixCells(plan).map((cell) => ({
    label: describeMatrixCell(cell),
    tags: { ...cell },
    runs: [{ linkId, options: matrixCellOptions(plan, base, cell), clientSide: cell.clientSide }],
  }));
}

type DirectionComparison = { protocol: Protocol; aToB: number; bToA: number; slower: RunDirection; percent: number };

/** a→b against b→a for the first protocol (TCP first) that has both, each the mean over client sides. */
export function compareDirections(rows: readonly MatrixRow[]): DirectionComparison | null {
  for (const protocol of PROTOCOLS) {
    const rateOf = (direction: RunDirection) =>
      mean(
        rows
          .filter((row) => row.protocol === protocol && row.direction === direction)
          .map((row) => row.receivedBitsPerSecond),
      );
    const aToB = rateOf("a-to-b");
    const bToA = rateOf("b-to-a");
    if (aToB === null || bToA === null) continue;
    const faster = Math.max(aToB, bToA);
    const percent = faster > 0 ? Math.round((Math.abs(aToB - bToA) / faster) * 1000) / 10 : 0;
    return { protocol, aToB, bToA, slower: bToA < aToB ? "b-to-a" : "a-to-b", percent };
  }
  return null;
}

export const matrixKind: KindDefinition<"matrix"> = {
  kind: "matrix",
  title: "Matrix",
  defaultName: (plan) => (plan.clientSides.length > 1 ? "Both roles" : "Every direction"),
  fieldsSchema: MatrixFieldsSchema,
  // Each cell sets its protocol; the base is TCP so that TCP options pass and a bitrate is allowed.
  baseOptions: (plan) => ({ ...plan.options, protocol: "tcp" }),
  check(plan, base, links) {
    const errors: FieldError[] = [
      ...exactlyOneLink(plan.linkIds, "matrix"),
      ...refuseClientOnExternalServer(links, plan.clientSides, "clientSides"),
    ];
    if (plan.protocols.includes("udp") && base.options.bitrate === undefined) {
      errors.push({
        field: "options.bitrate",
        message: "is required for the UDP cells (bits/s; 0 = unlimited): without it iperf3 sends 1 Mbit/s",
      });
    }
    return errors;
  },
  maxRuns: (plan) => matrixCells(plan).length,
  maxSteps: (plan) => matrixCells(plan).length,
  steps: (plan, base) => matrixSteps(plan, base),
  nextStep: (plan, base, _links, done) => nextOfSteps(matrixSteps(plan, base), done),
  result(_plan, _links, done) {
    const rows = done.flatMap((step): MatrixRow[] => {
      const run = step.runs[0];
      const { direction, protocol, clientSide } = step.tags;
      if (!run || !direction || !protocol || !clientSide) return [];
      return [
        {
          direction,
          protocol,
          clientSide,
          runId: run.runId,
          receivedBitsPerSecond: run.receivedBitsPerSecond,
          sentBitsPerSecond: run.sentBitsPerSecond,
          reverseReceivedBitsPerSecond: run.reverseReceivedBitsPerSecond,
          retransmits: run.retransmits,
          jitterMs: run.jitterMs,
          lostPercent: run.lostPercent,
        },
      ];
    });
    const comparison = compareDirections(rows);
    const asymmetry =
      comparison && comparison.percent > ASYMMETRY_PERCENT
        ? { slower: comparison.slower, percent: comparison.percent }
        : null;
    return { rows, asymmetry };
  },
  answer(plan, _links, result: MatrixResult) {
    const comparison = compareDirections(result.rows);
    if (comparison) {
      const protocol = comparison.protocol.toUpperCase();
      if (result.asymmetry) {
        const faster = result.asymmetry.slower === "a-to-b" ? "b-to-a" : "a-to-b";
        return `${directionWord(result.asymmetry.slower)} is ${formatPercentWord(result.asymmetry.percent)} slower than ${directionWord(faster)} (${protocol})`;
      }
      const which = plan.protocols.length > 1 ? ` (${protocol})` : "";
      return `Both directions within ${ASYMMETRY_PERCENT}%: a→b ${formatBitRate(comparison.aToB)}, b→a ${formatBitRate(comparison.bToA)}${which}`;
    }
    const measured = result.rows.filter((row) => row.receivedBitsPerSecond !== null);
    if (measured.length === 0) return null;
    const fastest = measured.reduce((best, row) =>
      row.receivedBitsPerSecond! > best.receivedBitsPerSecond! ? row : best,
    );
    return `Fastest: ${describeMatrixCell(fastest)}, ${formatBitRate(fastest.receivedBitsPerSecond!)}`;
  },
  table(_plan, _links, result) {
    return {
      columns: [
        { key: "protocol", label: "Protocol", format: "text" },
        { key: "direction", label: "Direction", format: "text" },
        { key: "clientSide", label: "Client on", format: "text" },
        { key: "sentBitsPerSecond", label: "Sent", format: "bitsPerSecond" },
        { key: "receivedBitsPerSecond", label: "Received", format: "bitsPerSecond" },
        { key: "reverseReceivedBitsPerSecond", label: "Received back", format: "bitsPerSecond" },
        { key: "retransmits", label: "Retransmits", format: "count" },
        { key: "jitterMs", label: "Jitter", format: "ms" },
        { key: "lostPercent", label: "Loss", format: "percent" },
        { key: "runIds", label: "Run", format: "runs" },
      ],
      rows: result.rows.map((row) => ({
        key: matrixCellKey(row),
        cells: {
          protocol: row.protocol.toUpperCase(),
          direction: directionWord(row.direction),
          clientSide: row.clientSide,
          sentBitsPerSecond: row.sentBitsPerSecond,
          receivedBitsPerSecond: row.receivedBitsPerSecond,
          reverseReceivedBitsPerSecond: row.reverseReceivedBitsPerSecond,
          retransmits: row.retransmits,
          jitterMs: row.jitterMs,
          lostPercent: row.lostPercent,
          runIds: [row.runId],
        },
      })),
    };
  },
};
