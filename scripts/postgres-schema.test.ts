import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { POSTGRES_SCHEMA, SQLITE_SCHEMA, postgresSchemaOf } from "./postgres-schema.mjs";

describe("prisma/postgres/schema.prisma", () => {
  it("is what scripts/postgres-schema.mjs writes from prisma/schema.prisma (run it after a schema change)", () => {
    const wanted = postgresSchemaOf(fs.readFileSync(SQLITE_SCHEMA, "utf8"));
    expect(fs.readFileSync(POSTGRES_SCHEMA, "utf8")).toBe(wanted);
  });

  it("differs from the SQLite schema in the provider and the client's folder only", () => {
    const sqlite = fs.readFileSync(SQLITE_SCHEMA, "utf8").split("\n");
    const postgres = fs.readFileSync(POSTGRES_SCHEMA, "utf8").split("\n").slice(3);
    const changed = postgres.filter((line, index) => line !== sqlite[index]);
    expect(changed).toEqual(['  output       = "../../lib/generated/prisma-postgres"', '  provider = "postgresql"']);
  });
});
