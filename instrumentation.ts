// Runs once when the server starts, before it serves a request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { ensureLocalHost } = await import("@/lib/bootstrap");
  await ensureLocalHost();
  // Runs a previous instance left in progress are marked interrupted and their iperf3 stopped.
  const { runEngine } = await import("@/lib/runs");
  const interrupted = await runEngine.recoverInterruptedRuns();
  if (interrupted > 0) console.log(`[wirespeed] marked ${interrupted} unfinished run(s) as interrupted`);
}
