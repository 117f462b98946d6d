import "server-only";
import { headers } from "next/headers";
import { isSecureRequest } from "@/lib/auth/sessions";

/** The origin a page or action was asked at (for share URLs when WIRESPEED_PUBLIC_URL is not set). */
export async function requestOrigin(): Promise<string> {
  const request = await headers();
  return `${isSecureRequest(request) ? "https" : "http"}://${request.get("host") ?? "localhost"}`;
}
