import { withApiAuth } from "@/lib/api/auth";
import { errorResponse } from "@/lib/api/errors";
import { metricsPublic, renderMetrics } from "@/lib/metrics/registry";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

async function metricsResponse(): Promise<Response> {
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}

const withToken = withApiAuth("read", metricsResponse);

/**
 * GET /metrics: every link's latest figures and the app's counts in Prometheus' text format
 * (docs/metrics.md). Needs a bearer token of any role (or a session), unless
 * WIRESPEED_METRICS_PUBLIC=1 opens it to all.
 */
export async function GET(request: Request): Promise<Response> {
  if (!metricsPublic()) return withToken(request, undefined);
  try {
    return await metricsResponse();
  } catch (error) {
    return errorResponse(error, "GET /metrics");
  }
}
