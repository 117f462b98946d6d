import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveDatabase, resolveDatabaseFile, resolveDatabaseUrl, resolveDataDir, resolveStateDir } from "./config";

describe("database location", () => {
  it("defaults to ./data/wirespeed.db", () => {
    expect(resolveDataDir({})).toBe(path.resolve("data"));
    expect(resolveDatabaseFile({})).toBe(path.resolve("data/wirespeed.db"));
    expect(resolveDatabaseUrl({})).toBe(`file:${path.resolve("data/wirespeed.db")}`);
  });

  it("follows WIRESPEED_DATA_DIR", () => {
    expect(resolveDatabaseFile({ WIRESPEED_DATA_DIR: "/srv/wirespeed" })).toBe("/srv/wirespeed/wirespeed.db");
  });

  it("lets DATABASE_URL win over the data folder", () => {
    const env = { WIRESPEED_DATA_DIR: "/srv/wirespeed", DATABASE_URL: "file:./other/lab.db" };
    expect(resolveDatabaseFile(env)).toBe(path.resolve("other/lab.db"));
  });

  it("selects Postgres for a postgres:// or postgresql:// URL, and keeps the key in the data folder then", () => {
    for (const url of ["postgres://ws:pw@db:5433/wirespeed", "postgresql://ws:pw@db:5433/wirespeed"]) {
      expect(resolveDatabase({ DATABASE_URL: url })).toEqual({
        kind: "postgres",
        url,
        host: "db",
        port: 5433,
        database: "wirespeed",
      });
    }
    expect(resolveDatabase({ DATABASE_URL: "postgres://db/ws" })).toMatchObject({ port: 5432 });
    expect(resolveStateDir({ DATABASE_URL: "postgres://db/ws", WIRESPEED_DATA_DIR: "/srv/w" })).toBe("/srv/w");
    expect(resolveStateDir({ DATABASE_URL: "file:/srv/x/lab.db" })).toBe("/srv/x");
    expect(() => resolveDatabaseFile({ DATABASE_URL: "postgres://db/wirespeed" })).toThrow(
      /use its own tools such as pg_dump/,
    );
  });

  it("refuses a DATABASE_URL that is neither, or a malformed Postgres URL, naming the variable and what is allowed", () => {
    expect(() => resolveDatabase({ DATABASE_URL: "mysql://db/wirespeed" })).toThrow(
      /^DATABASE_URL must be a SQLite file URL such as file:\.\/data\/wirespeed\.db or a Postgres URL .*\(got a mysql: URL\)$/,
    );
    expect(() => resolveDatabase({ DATABASE_URL: "postgres://ws:p@ss@db:x/ws" })).toThrow(
      /^DATABASE_URL is not a valid Postgres URL/,
    );
    expect(() => resolveDatabase({ DATABASE_URL: "postgres://ws:secret@db" })).toThrow(
      /^DATABASE_URL names no database/,
    );
    // The password is never in the message.
    expect(() => resolveDatabase({ DATABASE_URL: "postgres://ws:secret@db" })).not.toThrow(/secret/);
  });
});
