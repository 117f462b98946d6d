import type { APIRequestContext } from "@playwright/test";

/** The app under test runs with this API token (playwright.config.ts), for set-up through the REST API. */
export const E2E_API_TOKEN = "wirespeed-e2e-token";

/** A REST call as a script would make it; throws with the answer when the status is not 2xx. */
export async function apiCall<T = unknown>(request: APIRequestContext, method: "GET" | "POST" | "PATCH" | "DELETE", path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(path, { method, data, headers: { authorization: `Bearer ${E2E_API_TOKEN}` } });
  if (!response.ok()) throw new Error(`${method} ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}
