import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import {
  SHARE_NOT_FOUND_HTML,
  SHARE_RENDER_HEADER,
  SHARE_REWRITE_HEADER,
  shareRenderSecret,
} from "@/lib/shares/page-route";
import { createShare, revokeShare } from "@/lib/shares/store";
import { GET } from "./route";

// A share link's page from memory: proxy.ts hands /s/TOKEN here, and only the copy's own request
// for the page (carrying this process's secret) goes through to the page. The page is stood in by
// a loopback HTTP server on PORT that counts the requests it gets: an unknown or revoked token
// never reaches it, a share reaches it once.

let database: TestDatabase;
let server: http.Server;
const asked: { url: string; render: string | undefined }[] = [];
const savedPort = process.env.PORT;
let runId = 0;

beforeAll(async () => {
  database = await openTestDatabase();
  const { db } = database;
  const [a, b] = await Promise.all(
    ["page-a", "page-b"].map((name) => db.host.create({ data: { name, address: "127.0.0.1", authMethod: "local" } })),
  );
  const [aNic, bNic] = await Promise.all(
    [a!, b!].map((host) => db.nic.create({ data: { hostId: host.id, name: "lo", addresses: [] } })),
  );
  const link = await db.link.create({
    data: { name: "page-link", aNicId: aNic!.id, bNicId: bNic!.id, speedMbps: 1000 },
  });
  runId = (await db.run.create({ data: { linkId: link.id, status: "succeeded", options: { protocol: "tcp" } } })).id;
  server = http.createServer((request, response) => {
    asked.push({ url: request.url ?? "", render: request.headers[SHARE_RENDER_HEADER] as string | undefined });
    response.writeHead(200, {
      "content-type": "text/html",
      "content-security-policy": "script-src 'nonce-abc123'",
    });
    response.end(`<html><script nonce="abc123"></script><h1>the page ${asked.length}</h1></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.PORT = String((server.address() as AddressInfo).port);
}, 60_000);

afterAll(async () => {
  process.env.PORT = savedPort;
  await new Promise((resolve) => server?.close(resolve));
  await database?.close();
});

/** GET /s/TOKEN as proxy.ts hands it to the copy in memory. */
const open = (token: string) =>
  GET(new Request(`http://127.0.0.1/api/share-pages/${token}`, { headers: { [SHARE_REWRITE_HEADER]: "1" } }), {
    params: Promise.resolve({ token }),
  });

/** Where proxy.ts sends GET /s/TOKEN with these headers: the copy in memory, or on to the page. */
function routeOf(headers: Record<string, string>): string {
  const response = proxy(new NextRequest("http://127.0.0.1/s/abc", { headers }));
  const rewrite = response.headers.get("x-middleware-rewrite");
  return rewrite ? new URL(rewrite).pathname : "page";
}

describe("a share link's page", () => {
  it("goes to the copy in memory unless the request carries this process's secret", () => {
    expect(routeOf({})).toBe("/api/share-pages/abc");
    // A visitor's header with any value but the secret is no way past the copy.
    expect(routeOf({ [SHARE_RENDER_HEADER]: "1" })).toBe("/api/share-pages/abc");
    expect(routeOf({ [SHARE_RENDER_HEADER]: "x".repeat(shareRenderSecret().length) })).toBe("/api/share-pages/abc");
    expect(routeOf({ [SHARE_RENDER_HEADER]: shareRenderSecret() })).toBe("page");
    expect(shareRenderSecret()).toMatch(/^[0-9a-f]{64}$/);
  });

  it("answers an unknown, made-up or revoked token with the same 404 from memory, never asking the page", async () => {
    const share = await createShare({ kind: "run", id: runId }, { origin: "http://127.0.0.1" });
    const token = share.url.split("/s/")[1]!;
    await revokeShare(share.id);
    asked.length = 0;
    for (const unknown of [token, "A".repeat(43), "not-a-token"]) {
      const response = await open(unknown);
      expect(response.status, unknown).toBe(404);
      expect(await response.text(), unknown).toBe(SHARE_NOT_FOUND_HTML);
      expect(response.headers.get("x-robots-tag")).toBe("noindex");
    }
    expect(asked).toEqual([]);
  });

  it("renders a share's page once, through a request carrying the secret, then answers from memory with fresh nonces", async () => {
    const share = await createShare({ kind: "run", id: runId }, { origin: "http://127.0.0.1" });
    const token = share.url.split("/s/")[1]!;
    asked.length = 0;
    const first = await open(token);
    const second = await open(token);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(asked).toEqual([{ url: `/s/${token}`, render: shareRenderSecret() }]);
    const [one, two] = [await first.text(), await second.text()];
    expect(one).toContain("the page 1");
    expect(two).toContain("the page 1");
    expect(one).not.toContain("abc123");
    const nonceOf = (response: Response) =>
      /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy")!)?.[1];
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(two).toContain(`nonce="${nonceOf(second)}"`);
  });
});
