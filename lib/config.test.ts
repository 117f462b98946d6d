import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveDatabaseFile, resolveDatabaseUrl, resolveDataDir } from "./config";

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

  it("refuses a DATABASE_URL that is not a SQLite file, naming what is allowed", () => {
    expect(() => resolveDatabaseFile({ DATABASE_URL: "postgres://db/wirespeed" })).toThrow(
      /DATABASE_URL must be a SQLite file URL such as file:\.\/data\/wirespeed\.db/,
    );
  });
});
