import type { TestApi } from "@/testing/test-api";

// Test support only: hosts, NICs and links recorded through the REST API (openTestApi), for route
// tests that need a link to hang runs, schedules, rules or experiments on.

async function created(answer: Promise<{ status: number; body: { id: number }; text: string }>): Promise<number> {
  const { status, body, text } = await answer;
  if (status !== 201) throw new Error(`set-up refused (${status}): ${text}`);
  return body.id;
}

/** One host of the local method per name, all at `address`, through POST /api/hosts; their ids in order. */
export async function postLocalHosts(
  api: TestApi,
  names: readonly string[],
  address = "198.18.0.1",
): Promise<number[]> {
  const ids: number[] = [];
  for (const name of names)
    ids.push(await created(api.json("POST", "/api/hosts", { name, address, auth: { method: "local" } })));
  return ids;
}

/**
 * A NIC with the fields of `nic` on each of two hosts, and a link with the fields of `link`
 * between them (a on the first host, b on the second), through POST /api/nics and /api/links;
 * the link's id.
 */
export async function postLink(
  api: TestApi,
  hostIds: readonly number[],
  nic: { name: string } & Record<string, unknown>,
  link: { name: string } & Record<string, unknown>,
): Promise<number> {
  const nicIds: number[] = [];
  for (const hostId of hostIds) nicIds.push(await created(api.json("POST", "/api/nics", { hostId, ...nic })));
  return created(api.json("POST", "/api/links", { ...link, aNicId: nicIds[0], bNicId: nicIds[1] }));
}
