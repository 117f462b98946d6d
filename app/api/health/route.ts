import { databaseHealth } from "@/lib/api/rows";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Liveness and database check for load balancers, docker's healthcheck and humans. */
export async function GET() {
  const health = await databaseHealth();
  return Response.json(health, health.ok ? undefined : { status: 503 });
}
