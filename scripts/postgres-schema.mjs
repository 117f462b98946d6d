#!/usr/bin/env node
// prisma/schema.prisma is the one source of the data model. Prisma fixes the provider in a schema
// file, so the Postgres client is generated from a copy with the provider and the output folder
// changed: prisma/postgres/schema.prisma, written here (by `npm start` and `npm test` through
// scripts/setup.mjs) and committed so that its migrations can be read beside it. Never edit the copy;
// scripts/postgres-schema.test.ts fails when it is not what this script writes.
// Node built-ins only: this file runs before node_modules exists.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const POSTGRES_SCHEMA = path.join(root, "prisma", "postgres", "schema.prisma");

const HEADER =
  "// GENERATED from prisma/schema.prisma by scripts/postgres-schema.mjs: edit that file, not this one.\n" +
  "// The same models on Postgres (DATABASE_URL=postgres://…); migrations in prisma/postgres/migrations.\n\n";

/** The Postgres schema for the SQLite schema's text. */
export function postgresSchemaOf(sqlite) {
  const swaps = [
    ['provider = "sqlite"', 'provider = "postgresql"'],
    ['output       = "../lib/generated/prisma"', 'output       = "../../lib/generated/prisma-postgres"'],
  ];
  let text = sqlite;
  for (const [from, to] of swaps) {
    if (!text.includes(from))
      throw new Error(`prisma/schema.prisma no longer has ${from}: update scripts/postgres-schema.mjs`);
    text = text.replace(from, to);
  }
  return HEADER + text;
}

/** Writes prisma/postgres/schema.prisma when it differs; true when it was written. */
export function writePostgresSchema() {
  const wanted = postgresSchemaOf(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
  let current = null;
  try {
    current = fs.readFileSync(POSTGRES_SCHEMA, "utf8");
  } catch {
    // not written yet
  }
  if (current === wanted) return false;
  fs.mkdirSync(path.dirname(POSTGRES_SCHEMA), { recursive: true });
  fs.writeFileSync(POSTGRES_SCHEMA, wanted);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(
    writePostgresSchema() ? "wrote prisma/postgres/schema.prisma" : "prisma/postgres/schema.prisma is up to date",
  );
}
