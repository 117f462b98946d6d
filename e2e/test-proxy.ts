import http from "node:http";
import type { AddressInfo } from "node:net";

// A reverse proxy in front of the app under test, as Authelia or Authentik's outpost with nginx would
// be: it listens on 127.0.0.1, connects to the app from 127.0.0.2 (the address the e2e server lists in
// WIRESPEED_TRUSTED_PROXIES), drops whatever Remote-User and Remote-Groups the browser sent, and adds the
// headers `inject` gives for each request (the signed-in user, their groups, X-Forwarded-For).

export type TestProxy = { url: string; close: () => Promise<void> };

/** The address the proxy connects to the app from: the e2e server trusts it (playwright.config.ts). */
export const PROXY_SOURCE_ADDRESS = "127.0.0.2";

export async function startTestProxy(appUrl: string, inject: () => Record<string, string>): Promise<TestProxy> {
  const target = new URL(appUrl);
  const server = http.createServer((request, response) => {
    const headers: http.OutgoingHttpHeaders = { ...request.headers };
    delete headers["remote-user"];
    delete headers["remote-groups"];
    Object.assign(headers, inject());
    const upstream = http.request(
      {
        // The app listens on every address; IPv4, as the proxy's own address is.
        host: "127.0.0.1",
        port: target.port,
        localAddress: PROXY_SOURCE_ADDRESS,
        method: request.method,
        path: request.url,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
