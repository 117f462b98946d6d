import { withApiAuth } from "@/lib/api/auth";
import { getSummary } from "@/lib/overview/link-status";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /api/summary: `{ links, failingLinks, firingAlerts, lastRunAt, slowest: { linkName, lineRatePercent } }`,
 * for a dashboard's widget (Homepage's customapi, Homarr, Dashy) with a viewer's API token. A stable shape.
 */
export const GET = withApiAuth("read", async () => Response.json(await getSummary()));
