import { withApiAuth } from "@/lib/api/auth";
import { queryInteger } from "@/lib/api/pagination";
import { readJsonBody } from "@/lib/api/request";
import { createAlertRule, listAlertRules } from "@/lib/alerts/rules";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/alert-rules: `{ rules }`, the defaults first; `?linkId=` one link's own rules. */
export const GET = withApiAuth("read", async (request: Request) => {
  const url = new URL(request.url);
  const linkId = url.searchParams.has("linkId")
    ? queryInteger(url, "linkId", { min: 1, max: 2_147_483_647, fallback: 0 })
    : undefined;
  return Response.json({ rules: await listAlertRules({ linkId }) });
});

/** POST /api/alert-rules: `{ name, linkId | null, belowBaselinePercent?, belowLineRatePercent?, failed?, m, n, channelIds, enabled }`; 201. */
export const POST = withApiAuth("monitor", async (request: Request) => {
  const rule = await createAlertRule(await readJsonBody(request));
  return Response.json(rule, { status: 201, headers: { Location: `/api/alert-rules/${rule.id}` } });
});
