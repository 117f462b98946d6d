import type { NextConfig } from "next";

// Pages get their Content-Security-Policy from proxy.ts, with a fresh nonce for each one.
// The API answers JSON, CSV and event streams, never a document that runs anything: it
// may load nothing at all, and no site may frame it.
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

// Strict-Transport-Security on every response to a request that came over HTTPS, which the
// TLS-terminating proxy in front says with X-Forwarded-Proto (the app itself speaks plain
// HTTP). Never over plain HTTP: a browser ignores it there, and a site without HTTPS must
// not promise it.
const HSTS = { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" };
const OVER_HTTPS = [{ type: "header" as const, key: "x-forwarded-proto", value: "https" }];

const nextConfig: NextConfig = {
  // WIRESPEED_DIST_DIR lets two copies of the app (say, browser tests on two ports) build side by side.
  distDir: process.env.WIRESPEED_DIST_DIR || ".next",
  // The image (Dockerfile) runs Next.js's standalone output: the server with only the packages it loads.
  // `npm start` serves the usual build, as before.
  ...(process.env.WIRESPEED_STANDALONE === "1" ? { output: "standalone" as const } : {}),
  // Native modules and SSH stay out of the bundle: they are loaded by Node at run time.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "node-ssh",
    "ssh2",
    "cpu-features",
    "mqtt",
  ],
  poweredByHeader: false,
  typedRoutes: false,
  // No `experimental.serverActions.allowedOrigins` on purpose: by default Next.js refuses a
  // server action whose Origin is not the Host it was sent to, which is the CSRF check we want.
  async headers() {
    return [
      { source: "/:path*", headers: SECURITY_HEADERS },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }] },
      { source: "/:path*", has: OVER_HTTPS, headers: [HSTS] },
    ];
  },
};

export default nextConfig;
