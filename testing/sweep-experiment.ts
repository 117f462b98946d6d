type Db = typeof import("@/lib/db").db;

/**
 * A stream sweep on one link (1 and 2 streams of 5 s, once each) written straight to the database
 * in `status`, with its plan as the runner stores it and no runs: for tests that read, list or
 * follow an experiment without starting one. Its id.
 */
export async function insertSweepExperiment(
  db: Db,
  linkId: number,
  { status, name = "streams", answer }: { status: string; name?: string; answer?: string },
): Promise<number> {
  const plan = {
    kind: "sweep",
    name,
    linkIds: [linkId],
    options: { duration: 5 },
    factor: "parallel",
    values: [1, 2],
    repeats: 1,
    kneePercent: 95,
  };
  const created = await db.experiment.create({
    data: { kind: "sweep", name, status, plan, answer, links: { create: [{ linkId, position: 0 }] } },
  });
  return created.id;
}
