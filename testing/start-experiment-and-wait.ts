// Test support: an app process that starts a stream sweep on a link, reports the experiment's id,
// each step that ends and each sample, and waits to be killed (the runner's crash-recovery test).
// Run with `node --require ./testing/server-only.cjs --import tsx` so that "server-only" resolves.
import { getApp } from "@/lib/app";

async function main(): Promise<void> {
  const linkId = Number(process.argv[2]);
  const duration = Number(process.argv[3] ?? 10);
  const app = getApp();
  const experiment = await app.experiments.start({
    kind: "sweep",
    linkIds: [linkId],
    options: { duration },
    factor: "parallel",
    values: [1, 2, 3],
  });
  console.log(`experiment ${experiment.id}`);
  app.experimentBus.subscribe(experiment.id, 0, (event) => {
    if (event.type === "sample") console.log(`sample of run ${(event.data as { runId: number }).runId}`);
    if (event.type === "step")
      console.log(
        `step ${(event.data as { index: number; status: string }).index} ${(event.data as { status: string }).status}`,
      );
  });
  // Stay up until killed, as a server would.
  setInterval(() => {}, 1000);
}

void main();
