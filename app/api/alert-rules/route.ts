import { withApiAuth } from "@/lib/api/auth";
import { queryId } from "@/lib/api/pagination";
import { readJsonBody } from "@/lib/api/request";
import { createAlertRule, listAlertRules } from "@/lib/alerts/rules";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/alert-rules: `{ rules }`, the defaults first; `?linkId=` one link's own rules. */
export const GET = withApiAuth("read", async (request: Request) => {
  const url = new URL(request.url);
  const linkId = queryId(url, "linkId");
  return Response.json({ rules: await listAlertRules({ linkId }) });
});

/** POST /api/alert-rules: `{ name, linkId | null, belowBaselinePercent?, belowLineRatePercent?, failed?, m, n, channelIds, enabled }`; 201. */
export const POST = withApiAuth("monitor", async (request: Request) => {
  const rule = await createAlertRule(await readJsonBody(request));
  return Response.json(rule, { status: 201, headers: { Location: `/api/alert-rules/${rule.id}` } });
});
