#!/usr/bin/env node
// The production server: Next.js's request handler behind node:http, as `next start` does, plus one
// thing `next start` cannot do: tell the app which address each connection comes from. Next.js
// fills X-Forwarded-For only when the client has not sent one, so a client could name any address;
// here the connection's own address goes into a header whose name is drawn at random at each start
// (WIRESPEED_PEER_HEADER), which no client can know or forge. lib/auth/client.ts reads it: sign-in
// throttling counts per client, and a trusted proxy's user header is believed only from that proxy.
//   node scripts/server.mjs            (PORT, default 3000; scripts/start.mjs and the image run it)
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.NODE_ENV = "production";
// The app stops its runs on SIGTERM and Ctrl-C itself (lib/shutdown.ts).
process.env.NEXT_MANUAL_SIG_HANDLE = "true";
const peerHeader = `x-wirespeed-peer-${randomBytes(12).toString("hex")}`;
process.env.WIRESPEED_PEER_HEADER = peerHeader;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const port = Number(process.env.PORT || 3000);
// The app asks itself for a share link's page over loopback (app/api/share-pages): on this port.
process.env.PORT = String(port);

// In the image, Next.js's standalone output has no next.config.ts: the configuration the build
// resolved is read from the build, as the standalone output's own server.js does.
const buildConfig = path.join(root, ".next", "required-server-files.json");
if (!fs.existsSync(path.join(root, "next.config.ts")) && fs.existsSync(buildConfig)) {
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(
    JSON.parse(fs.readFileSync(buildConfig, "utf8")).config,
  );
}

const { default: next } = await import("next");
const server = http.createServer();
const app = next({ dev: false, dir: root, port, httpServer: server });
const handle = app.getRequestHandler();
await app.prepare();

server.on("request", (request, response) => {
  request.headers[peerHeader] = request.socket.remoteAddress ?? "";
  handle(request, response).catch((error) => {
    console.error("[wirespeed] request failed:", error);
    if (!response.headersSent) response.writeHead(500);
    response.end();
  });
});
server.listen(port, () => {
  console.log(`[wirespeed] listening on port ${port}`);
});
