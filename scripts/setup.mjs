#!/usr/bin/env node
// Set-up shared by `npm start` and `npm test`: npm dependencies and the Prisma client.
// Node built-ins only: this file runs before node_modules exists.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writePostgresSchema } from "./postgres-schema.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const log = (message) => console.log(`[wirespeed] ${message}`);

export function fail(message) {
  console.error(`[wirespeed] ${message}`);
  process.exit(1);
}

// The local binaries, not npx: signals then reach the program itself.
export const bin = (name) => path.join(root, "node_modules", ".bin", name);

export function run(command, args, extraEnv = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...extraEnv } });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${path.basename(command)} ${args.join(" ")} failed with exit code ${result.status}`);
}

export function mtime(file) {
  try {
    return fs.statSync(path.join(root, file)).mtimeMs;
  } catch {
    return 0;
  }
}

export function checkNodeVersion() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 9))
    fail(`Node.js 20.9 or newer is needed (this is ${process.versions.node})`);
}

/** npm ci when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  if (mtime("node_modules/.package-lock.json") >= mtime("package-lock.json")) return;
  log("installing npm dependencies (npm ci)");
  // Native modules (better-sqlite3) compile with node-gyp instead of fetching prebuilt binaries from outside the npm
  // registry. prebuild-install reads npm's build_from_source setting; its own `prebuild-install_buildFromSource`
  // variable would not survive the sh (dash) that npm runs install scripts with, which drops names with a hyphen.
  run("npm", ["ci", "--no-audit", "--no-fund"], { npm_config_build_from_source: "true" });
}

/**
 * The two Prisma clients, SQLite's and Postgres's, regenerated when the schema is newer. The Postgres
 * schema is written from the SQLite one first (scripts/postgres-schema.mjs); generating reads no
 * database, so the Postgres client is made whichever database is configured.
 */
export function ensurePrismaClient() {
  const wrote = writePostgresSchema();
  if (wrote) log("wrote prisma/postgres/schema.prisma from prisma/schema.prisma");
  if (mtime("lib/generated/prisma/client.ts") < mtime("prisma/schema.prisma")) {
    log("generating the Prisma client (SQLite)");
    run(bin("prisma"), ["generate"], { DATABASE_URL: "" });
  }
  if (wrote || mtime("lib/generated/prisma-postgres/client.ts") < mtime("prisma/postgres/schema.prisma")) {
    log("generating the Prisma client (Postgres)");
    // prisma.config.ts picks the Postgres schema for a postgres:// URL; nothing connects to it here.
    run(bin("prisma"), ["generate"], { DATABASE_URL: "postgresql://localhost/generate-only" });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  checkNodeVersion();
  ensureDependencies();
  ensurePrismaClient();
}
