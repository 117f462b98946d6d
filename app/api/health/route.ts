import { principalOfRequest } from "@/lib/auth/guard";
import { databaseHealth } from "@/lib/api/rows";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** What a caller without an account learns of a database that fails: not its error, which names tables, paths or hosts. */
const GENERIC_REASON = "database unavailable";

/** Whether the request is signed in. Health needs no account: a wrong token (or a database that cannot check it) is anonymous, not a 401. */
async function isSignedIn(request: Request): Promise<boolean> {
  try {
    return (await principalOfRequest(request)) !== null;
  } catch {
    return false;
  }
}

/** Liveness and database check for load balancers, docker's healthcheck and humans. */
export async function GET(request: Request) {
  const health = await databaseHealth();
  if (health.ok) return Response.json(health);
  console.error(`[wirespeed] health: the database fails: ${health.reason}`);
  const reason = (await isSignedIn(request)) ? health.reason : GENERIC_REASON;
  return Response.json({ ...health, reason }, { status: 503 });
}
