import type { NextConfig } from "next";

// `next dev` needs eval for its reload and error overlay; a production build never does.
const isDevelopment = process.env.NODE_ENV === "development";

// Next.js's inline bootstrap scripts need 'unsafe-inline' (a nonce would make every page
// dynamic); styles need it for the inline style attributes of the charts. Everything
// else comes from the app's own origin, and no other site may frame it.
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDevelopment ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

// Strict-Transport-Security is not sent here: the app speaks plain HTTP and HTTPS belongs to
// the proxy in front of it, which should add `Strict-Transport-Security: max-age=31536000`.
const SECURITY_HEADERS = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
];

const nextConfig: NextConfig = {
  // WIRESPEED_DIST_DIR lets two copies of the app (say, browser tests on two ports) build side by side.
  distDir: process.env.WIRESPEED_DIST_DIR || ".next",
  // Native modules and SSH stay out of the bundle: they are loaded by Node at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "node-ssh", "ssh2", "cpu-features"],
  poweredByHeader: false,
  typedRoutes: false,
  // No `experimental.serverActions.allowedOrigins` on purpose: by default Next.js refuses a
  // server action whose Origin is not the Host it was sent to, which is the CSRF check we want.
  async headers() {
    return [{ source: "/:path*", headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
