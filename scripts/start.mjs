#!/usr/bin/env node
// `npm start`: everything a fresh clone needs, then the server.
//   1. npm dependencies and the Prisma client (scripts/setup.mjs)
//   2. the database migrated (scripts/migrate.ts): the SQLite file in the data folder, or the Postgres
//      server a postgres:// DATABASE_URL names, checked first
//   3. a production build when the sources are newer than the last one
//   4. the server (scripts/server.mjs: Next.js as `next start` serves it, plus each connection's
//      address for lib/auth/client.ts) on $PORT (3000)
// `--dev` runs `next dev` instead of 3 and 4.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { bin, checkNodeVersion, ensureDependencies, ensurePrismaClient, log, mtime, root, run } from "./setup.mjs";

const isDev = process.argv.includes("--dev");
// Next.js would otherwise report usage to its servers; a lab tool stays quiet.
process.env.NEXT_TELEMETRY_DISABLED = "1";
// The app handles SIGTERM and Ctrl-C itself (lib/shutdown.ts: the runs under way are stopped
// and stored, then it exits within 10 s). Without this, `next start` exits on either without waiting for them;
// `next dev` gives its server 100 ms before a SIGKILL unless NEXT_EXIT_TIMEOUT_MS says longer.
process.env.NEXT_MANUAL_SIG_HANDLE = "true";
process.env.NEXT_EXIT_TIMEOUT_MS ??= "11000";

/** Newest modification time under the given files and folders. */
function newestMtime(entries) {
  let newest = 0;
  const visit = (abs) => {
    let stat;
    try {
      stat = fs.statSync(abs);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(abs)) {
        if (name === "node_modules" || name === "generated" || name.startsWith(".")) continue;
        visit(path.join(abs, name));
      }
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  };
  for (const entry of entries) visit(path.join(root, entry));
  return newest;
}

function serve(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: "inherit" });
  // Ctrl-C and `docker stop` reach the server, which then ends cleanly.
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

checkNodeVersion();
ensureDependencies();
ensurePrismaClient();

// lib/config.ts resolves DATABASE_URL / WIRESPEED_DATA_DIR as the app does; a bad URL, an unreachable
// server or a refused password stops here with one line naming DATABASE_URL.
log("applying database migrations");
run(bin("tsx"), ["scripts/migrate.ts"]);

const port = process.env.PORT || "3000";
if (isDev) {
  log(`starting the development server on http://localhost:${port}`);
  serve(bin("next"), ["dev", "-p", port]);
} else {
  const sources = [
    "app",
    "components",
    "lib",
    "agents",
    "prisma",
    "public",
    "instrumentation.ts",
    "next.config.ts",
    "package-lock.json",
    "postcss.config.mjs",
    "tsconfig.json",
  ];
  const distDir = process.env.WIRESPEED_DIST_DIR || ".next";
  if (mtime(`${distDir}/BUILD_ID`) < newestMtime(sources)) {
    log("building the app (next build)");
    run(bin("next"), ["build"]);
  }
  log(`serving on http://localhost:${port}`);
  serve(process.execPath, ["scripts/server.mjs"]);
}
