// The whole-lab kinds on the lab: a mesh of links both ways with its grid, interference between
// links that share a bottleneck and links that do not, and A against B, by links and by options.
// Short runs (2 s) keep the file fast: the shaped links settle within a second.
import { describe, expect, it } from "vitest";
import { openLabDatabase } from "@/testing/lab-database";
import { flowCappedLink, independentLinks, sharedBottleneckLinks } from "@/testing/lab-targets";
import { AppError } from "@/lib/errors";
import { RunEngine } from "@/lib/runs/engine";
import { agentRunRemote } from "@/lib/runs/remote-agents";
import { RunEventBus } from "@/lib/runs/bus";
import { directionOf } from "@/lib/runs/contract";
import { ExperimentEventBus } from "./bus";
import type { InterferenceResult, MeshResult, VersusResult } from "./contract";
import { getExperiment } from "./reads";
import { ExperimentRunner } from "./runner";

const database = await openLabDatabase();
const { db, state, linkIds, hostIds } = database;
const runBus = new RunEventBus();
const engine = new RunEngine(agentRunRemote, runBus);
const runner = new ExperimentRunner(engine, new ExperimentEventBus(), runBus);

async function experimentOf(body: Record<string, unknown>) {
  const started = await runner.start(body);
  await runner.waitFor(started.id);
  return db.experiment.findUniqueOrThrow({
    where: { id: started.id },
    include: { runs: { orderBy: { id: "asc" } }, links: { orderBy: { position: "asc" } } },
  });
}

/** The fields a start is refused with (a 400). */
async function refusalOf(body: Record<string, unknown>): Promise<{ field: string; message: string }[]> {
  const error = await runner.start(body).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError) || error.kind !== "invalid") throw new Error(`expected a 400, got ${String(error)}`);
  return error.fields;
}

describe("a mesh on the lab", () => {
  it("runs each link both ways, one run at a time, and draws the grid of its hosts", async () => {
    const experiment = await experimentOf({
      kind: "mesh",
      linkIds: [linkIds["ab-1g"], linkIds["a-esx"]],
      options: { duration: 2 },
    });
    expect(experiment.status).toBe("succeeded");
    expect(experiment.runs).toHaveLength(4);
    // Never two at once: each run starts after the one before has ended.
    for (const [index, run] of experiment.runs.entries()) {
      if (index > 0)
        expect(run.startedAt!.getTime()).toBeGreaterThanOrEqual(experiment.runs[index - 1]!.endedAt!.getTime());
    }
    expect(
      experiment.runs.map((run) => directionOf(run.options as { reverse?: boolean }, run.clientSide as "a" | "b")),
    ).toEqual(["a-to-b", "b-to-a", "a-to-b", "b-to-a"]);
    const result = experiment.result as unknown as MeshResult;
    expect(result.rows.map((row) => [row.linkId, row.direction])).toEqual([
      [linkIds["ab-1g"], "a-to-b"],
      [linkIds["ab-1g"], "b-to-a"],
      [linkIds["a-esx"], "a-to-b"],
      [linkIds["a-esx"], "b-to-a"],
    ]);
    // 1 Gbit/s links: 0.99-1.00 Gbit/s measured.
    expect(result.rows.every((row) => row.lineRatePercent! > 80 && row.lineRatePercent! <= 101)).toBe(true);
    expect(result.grid.hosts.map((host) => host.name)).toEqual(["alpha", "beta", "esx"]);
    expect(result.grid.cells.map((cell) => [cell.fromHostId, cell.toHostId, cell.status])).toEqual([
      [hostIds.alpha, hostIds.beta, "succeeded"],
      [hostIds.alpha, hostIds.esx, "succeeded"],
      [hostIds.beta, hostIds.alpha, "succeeded"],
      [hostIds.esx, hostIds.alpha, "succeeded"],
    ]);
    expect(result.grid.cells.every((cell) => cell.at !== null && cell.runId !== null)).toBe(true);
    expect(experiment.answer).toMatch(/^All four runs reach 90% of their line rate or more|^Slowest of four runs/);
    const json = (await getExperiment(experiment.id))!;
    expect(json.table?.rows.map((row) => row.key)).toEqual([
      `link ${linkIds["ab-1g"]} a-to-b`,
      `link ${linkIds["ab-1g"]} b-to-a`,
      `link ${linkIds["a-esx"]} a-to-b`,
      `link ${linkIds["a-esx"]} b-to-a`,
    ]);
  }, 120_000);

  it("by hosts, finds the links among them and leaves out a device's; one link is not a mesh", async () => {
    expect(await refusalOf({ kind: "mesh", hostIds: [hostIds.alpha, hostIds.esx, hostIds.phone] })).toEqual([
      { field: "hostIds", message: "the hosts alpha and esx are joined by one link; a mesh needs at least 2" },
    ]);
    // beta and phone are joined by b-phone, a device's link: no link is left.
    expect(await refusalOf({ kind: "mesh", hostIds: [hostIds.beta, hostIds.phone, hostIds.esx] })).toEqual([
      {
        field: "hostIds",
        message:
          "no two of these hosts are joined by a link Wirespeed can test (links to a device are left out); a mesh needs at least 2",
      },
    ]);
    expect(await refusalOf({ kind: "mesh", linkIds: [linkIds["ab-1g"], linkIds["b-phone"]] })).toEqual([
      {
        field: "linkIds[1]",
        message: "link b-phone ends at a device (end b), which runs no ordinary run: leave it out of the mesh",
      },
    ]);
  });
});

describe("interference on the lab", () => {
  it("groups the two links behind one bottleneck, and calls the third independent", async () => {
    const [shared1, shared2] = sharedBottleneckLinks(state).links;
    const [independent] = independentLinks(state, 1);
    const ids = [shared1!, shared2!, independent!].map((link) => linkIds[link.name]!);
    const experiment = await experimentOf({ kind: "interference", linkIds: ids, options: { duration: 2 } });
    expect(experiment.status).toBe("succeeded");
    // 3 alone, then 3 pairs of 2.
    expect(experiment.runs).toHaveLength(9);
    const result = experiment.result as unknown as InterferenceResult;
    expect(result.groups).toEqual([[ids[0], ids[1]]]);
    const percentOf = (x: number, y: number) =>
      result.pairs.find((pair) => pair.linkIds[0] === x && pair.linkIds[1] === y)!.percentOfAlone!;
    // 1.2 Gbit/s shared by two 1 Gbit/s links: about 60% of alone.
    expect(percentOf(ids[0]!, ids[1]!)).toBeLessThan(80);
    expect(percentOf(ids[0]!, ids[2]!)).toBeGreaterThan(90);
    expect(percentOf(ids[1]!, ids[2]!)).toBeGreaterThan(90);
    expect(experiment.answer).toMatch(
      new RegExp(
        `^${shared1!.name} and ${shared2!.name} share a bottleneck: together they get \\d+% of what each gets alone; ${independent!.name} is independent of the others$`,
      ),
    );
  }, 120_000);

  it("refuses 9 links, naming linkIds", async () => {
    expect(
      await refusalOf({ kind: "interference", linkIds: Object.values(linkIds).slice(0, 9), options: { duration: 2 } }),
    ).toEqual([{ field: "linkIds", message: "must list 1 to 8 link ids" }]);
  });
});

describe("versus on the lab", () => {
  it("finds the 2.5G link clearly faster than the 1G one, run alternately", async () => {
    const experiment = await experimentOf({
      kind: "versus",
      linkIds: [linkIds["ab-1g"], linkIds["ab-2g5"]],
      repeats: 3,
      options: { duration: 2 },
    });
    expect(experiment.status).toBe("succeeded");
    expect(experiment.runs.map((run) => run.linkId)).toEqual(
      [1, 2, 3].flatMap(() => [linkIds["ab-1g"], linkIds["ab-2g5"]]),
    );
    const result = experiment.result as unknown as VersusResult;
    expect(result).toMatchObject({ clear: true, pairs: 3, pairsAgreeing: 3 });
    expect(result.differencePercent).toBeGreaterThan(100);
    expect(result.sides.every((side) => side.cpuPercentPerGbps !== null)).toBe(true);
    expect(experiment.answer).toMatch(
      /^B \(ab-2g5\) is \d+(\.\d+)?% faster than A \(ab-1g\), clearly: 3 of 3 pairs; it costs ([\d.]+× the CPU per Gbit\/s|the same CPU per Gbit\/s as A)$/,
    );
  }, 120_000);

  it("runs two option sets on one link: 4 streams past a per-flow cap against 1", async () => {
    const link = flowCappedLink(state);
    const experiment = await experimentOf({
      kind: "versus",
      linkIds: [linkIds[link.name]],
      variants: [
        { name: "1 stream", options: { parallel: 1 } },
        { name: "4 streams", options: { parallel: 4 } },
      ],
      repeats: 3,
      options: { duration: 2 },
    });
    expect(experiment.status).toBe("succeeded");
    expect(experiment.runs.map((run) => (run.options as { parallel: number }).parallel)).toEqual([1, 4, 1, 4, 1, 4]);
    const result = experiment.result as unknown as VersusResult;
    expect(result.sides.map((side) => side.name)).toEqual(["1 stream", "4 streams"]);
    expect(result.clear).toBe(true);
    expect(result.differencePercent).toBeGreaterThan(50);
    expect(experiment.answer).toMatch(/^B \(4 streams\) is \d+(\.\d+)?% faster than A \(1 stream\), clearly/);
  }, 120_000);

  it("refuses a third side, naming the field", async () => {
    expect(
      await refusalOf({ kind: "versus", linkIds: [linkIds["ab-1g"], linkIds["ab-2g5"], linkIds["ab-fast"]] }),
    ).toEqual([expect.objectContaining({ field: "linkIds" })]);
  });
});
