import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // WIRESPEED_DIST_DIR lets two copies of the app (say, browser tests on two ports) build side by side.
  distDir: process.env.WIRESPEED_DIST_DIR || ".next",
  // Native modules and SSH stay out of the bundle: they are loaded by Node at run time.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "node-ssh", "ssh2", "cpu-features"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
