// Test support: an app process that stops as the server does (lib/shutdown.ts), for the
// shutdown lab test. It starts one run on a link through the app's own engine, reports its id
// and each sample, and installs the server's SIGTERM/SIGINT handling. Once a SIGTERM has begun
// the stop, it asks for another run, as a user could meanwhile, and reports the API's answer.
//   node --require ./testing/server-only.cjs --import tsx testing/run-until-stopped.ts <linkId> <otherLinkId> '<run request JSON>'
import { errorResponse } from "@/lib/api/errors";
import { getApp } from "@/lib/app";
import { parseRunRequest } from "@/lib/runs/request";
import { installServerShutdown } from "@/lib/shutdown";

async function main(): Promise<void> {
  const [linkId, otherLinkId, body] = process.argv.slice(2);
  const request = parseRunRequest(JSON.parse(body ?? "{}"));
  const app = getApp();
  const run = await app.runs.startRun({
    linkId: Number(linkId),
    options: request.options,
    clientSide: request.clientSide,
  });
  console.log(`run ${run.id}`);
  let samples = 0;
  app.runBus.subscribe(run.id, 0, (event) => {
    if (event.type === "sample") console.log(`samples ${(samples += 1)}`);
  });
  await installServerShutdown(app);
  // Installed after the server's handlers, so it runs once the stop has begun.
  process.once("SIGTERM", () => {
    app.runs.startRun({ linkId: Number(otherLinkId), options: request.options, clientSide: request.clientSide }).then(
      (accepted) => console.log(`accepted run ${accepted.id}`),
      async (error: unknown) => {
        const response = errorResponse(error, "test");
        console.log(`refused ${response.status} ${await response.text()}`);
      },
    );
  });
  // Stay up until stopped, as a server would.
  setInterval(() => {}, 1000);
}

void main();
