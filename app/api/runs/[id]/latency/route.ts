import { withApiAuth } from "@/lib/api/auth";
import { requireRow } from "@/lib/api/rows";
import { idFromParams } from "@/lib/api/request";
import { getRunLatencySamples } from "@/lib/diagnosis/reads";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/runs/:id/latency: `{ samples: [{ t, rttMs, phase }] }`, the run's pings in time order;
 * `t` in seconds from the start of the traffic (negative while idle), `rttMs` null for a lost ping.
 * Empty for a run that did not measure latency; growing while a run that does is live.
 */
export const GET = withApiAuth("read", async (_request: Request, { params }: { params: Promise<{ id: string }> }) => {
  const id = await idFromParams(params);
  await requireRow("run", id, `Run ${id} does not exist.`);
  return Response.json({ samples: await getRunLatencySamples(id) });
});
