import { db } from "@/lib/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Liveness and database check for load balancers, docker's healthcheck and humans. */
export async function GET() {
  try {
    await db.$queryRaw`SELECT 1`;
    // A database without the migrated tables is not usable either.
    await db.host.count();
    return Response.json({ ok: true, db: "ok" });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n").filter(Boolean).at(-1) : String(error);
    return Response.json({ ok: false, db: "error", reason }, { status: 503 });
  }
}
