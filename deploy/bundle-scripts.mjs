#!/usr/bin/env node
// The image's command-line steps compiled to plain JavaScript, each one file with its imports in it
// (esbuild, which the build stage has from npm ci): the runtime image then starts and migrates with
// `node` alone, with no TypeScript compiler, no tsx and no Prisma CLI in it (the Dockerfile).
//   node deploy/bundle-scripts.mjs OUTDIR    → OUTDIR/migrate.js, backup.js, compact.js, wirespeed.js
// Each bundle goes into the image's scripts/ folder, where its sources resolve the project's folder
// (`__dirname/..`): prisma/migrations beside it, the native modules in its node_modules.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const BUNDLED_SCRIPTS = ["migrate", "backup", "compact", "wirespeed"];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Writes OUTDIR/<name>.js for each of BUNDLED_SCRIPTS. */
export async function bundleScripts(outdir) {
  await build({
    entryPoints: BUNDLED_SCRIPTS.map((name) => path.join(root, "scripts", `${name}.ts`)),
    outdir,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "warning",
    tsconfig: path.join(root, "tsconfig.json"),
    // native modules, SSH and Prisma's runtime (its query compilers are megabytes each), as the app's
    // bundle leaves them out too: loaded from the node_modules the image has (Next.js's standalone output
    // traces them there); pg-native is optional
    external: ["better-sqlite3", "node-ssh", "ssh2", "cpu-features", "mqtt", "@prisma/client", "pg-native"],
    // outside Next.js, "server-only" is its empty module (as testing/server-only.cjs does for tsx)
    alias: { "server-only": path.join(root, "node_modules", "server-only", "empty.js") },
    // `import.meta.url === pathToFileURL(process.argv[1]).href` (run as a command): the bundle's own file
    define: { "import.meta.url": "__wirespeedModuleUrl" },
    banner: { js: 'const __wirespeedModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2];
  if (!outdir) {
    console.error("usage: node deploy/bundle-scripts.mjs OUTDIR");
    process.exit(2);
  }
  await bundleScripts(path.resolve(outdir));
}
