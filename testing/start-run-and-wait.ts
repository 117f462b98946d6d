// Test support: an app process that starts a 60 s run on a link, reports its id
// and sample count, and waits to be killed (the engine's crash-recovery test).
// Run with `node --import tsx --conditions=react-server` so that "server-only" imports resolve.
import { getApp } from "@/lib/app";
import { parseRunRequest } from "@/lib/runs/request";

async function main(): Promise<void> {
  const linkId = Number(process.argv[2]);
  const request = parseRunRequest({ duration: 60 });
  const app = getApp();
  const run = await app.runs.startRun({ linkId, options: request.options, clientSide: "a" });
  console.log(`run ${run.id}`);
  let samples = 0;
  app.runBus.subscribe(run.id, 0, (event) => {
    if (event.type === "sample") console.log(`samples ${(samples += 1)}`);
  });
  // Stay up until killed, as a server would.
  setInterval(() => {}, 1000);
}

void main();
