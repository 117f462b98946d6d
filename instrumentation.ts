// Runs once when the server starts, before it serves a request.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { ensureLocalHost } = await import("@/lib/bootstrap");
  await ensureLocalHost();
}
