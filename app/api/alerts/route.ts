import { withApiAuth } from "@/lib/api/auth";
import { pageParams, queryId } from "@/lib/api/pagination";
import { listAlerts } from "@/lib/alerts/alerts";
import { ALERT_STATUSES, type AlertStatus } from "@/lib/alerts/contract";
import { invalidInput } from "@/lib/errors";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** GET /api/alerts: the most recently opened first; `?status=firing|resolved`, `?linkId=`, `?page=&pageSize=`. */
export const GET = withApiAuth("read", async (request: Request) => {
  const url = new URL(request.url);
  const status = url.searchParams.get("status");
  if (status !== null && !(ALERT_STATUSES as readonly string[]).includes(status)) {
    throw invalidInput([{ field: "status", message: `must be one of ${ALERT_STATUSES.join(", ")}` }]);
  }
  const linkId = queryId(url, "linkId");
  return Response.json(
    await listAlerts({ status: (status ?? undefined) as AlertStatus | undefined, linkId, ...pageParams(request) }),
  );
});
