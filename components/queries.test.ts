import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPaths, fetchApi, queryKeys } from "./queries";

// The dashboard's fetch helper against a real HTTP server on loopback, answering as the API does.

let origin = "";
let server: http.Server;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const answer = (status: number, body: string, type = "application/json") => {
      response.writeHead(status, { "content-type": type });
      response.end(body);
    };
    if (request.url === "/api/ok") answer(200, JSON.stringify({ runs: [], total: 0, accept: request.headers.accept }));
    else if (request.url === "/api/invalid")
      answer(
        400,
        JSON.stringify({
          error: { code: "invalid", message: "parallel must be a whole number from 1 to 128", fields: [] },
        }),
      );
    else if (request.url === "/api/denied")
      answer(
        401,
        JSON.stringify({ error: { code: "unauthorized", message: "Sign in first: this needs an account." } }),
      );
    else if (request.url === "/api/proxy") answer(502, "<html>Bad gateway</html>", "text/html");
    else if (request.url === "/api/slow") setTimeout(() => answer(200, "{}"), 5_000);
    else answer(404, "");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("fetchApi", () => {
  it("answers the JSON body, asking for JSON", async () => {
    expect(await fetchApi(`${origin}/api/ok`)).toEqual({ runs: [], total: 0, accept: "application/json" });
  });

  it("turns the API's JSON error into an Error with its message", async () => {
    await expect(fetchApi(`${origin}/api/invalid`)).rejects.toThrow(
      new Error("parallel must be a whole number from 1 to 128"),
    );
    await expect(fetchApi(`${origin}/api/denied`)).rejects.toThrow(new Error("Sign in first: this needs an account."));
  });

  it("names the status when the answer is not the API's JSON", async () => {
    await expect(fetchApi(`${origin}/api/proxy`)).rejects.toThrow(new Error("The server answered 502 Bad Gateway"));
    await expect(fetchApi(`${origin}/api/nothing`)).rejects.toThrow(new Error("The server answered 404 Not Found"));
  });

  it("says the server did not answer when nothing listens", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchApi(`http://127.0.0.1:${port}/api/ok`)).rejects.toThrow(
      "The server did not answer: check that Wirespeed is running.",
    );
  });

  it("passes an abort on as an abort, not as a server that did not answer", async () => {
    const controller = new AbortController();
    const pending = fetchApi(`${origin}/api/slow`, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("query keys and API paths", () => {
  it("give a run table one key and one path per filter set, pages included", () => {
    const query = { linkId: 3, protocol: "tcp" as const, parallel: 4, page: 2 };
    expect(apiPaths.runList(query)).toBe("/api/runs?linkId=3&protocol=tcp&parallel=4&page=2");
    expect(apiPaths.runList({ page: 1 })).toBe("/api/runs");
    expect(queryKeys.runList(query)).toEqual(["runs", "list", "linkId=3&protocol=tcp&parallel=4&page=2"]);
    expect(queryKeys.runList({ ...query, page: 1 })).not.toEqual(queryKeys.runList(query));
  });

  it("nest every list under the prefix that invalidating after a run refreshes", () => {
    expect(queryKeys.runList({ page: 1 }).slice(0, 1)).toEqual(queryKeys.runs());
    expect(queryKeys.linkHistory(3).slice(0, 1)).toEqual(queryKeys.links());
    expect(queryKeys.overviewOf("7d").slice(0, 1)).toEqual(queryKeys.overview());
    expect(apiPaths.linkHistory(3)).toBe("/api/links/3/history");
    expect(apiPaths.overview("6h")).toBe("/api/overview?range=6h");
    // A zoomed timeline is its own query, under the same prefix, asking for its span.
    const zoom = { from: 1_765_080_000_000, to: 1_765_080_060_000 };
    expect(queryKeys.overviewOf("1h", zoom).slice(0, 1)).toEqual(queryKeys.overview());
    expect(queryKeys.overviewOf("1h", zoom)).not.toEqual(queryKeys.overviewOf("1h"));
    expect(apiPaths.overview("1h", zoom)).toBe("/api/overview?range=1h&from=1765080000000&to=1765080060000");
  });
});
