import path from "node:path";
import { describe, expect, it } from "vitest";
import { TEST_POSTGRES_ENV, withDatabase } from "@/testing/postgres/template";
import { runProgram } from "@/testing/run-program";

// `npm start`'s migration step (scripts/migrate.ts) against the `postgres` project's throwaway
// cluster: a fresh database is migrated, then found up to date; a refused password, a missing
// database and a port where nothing listens each stop it with one line naming DATABASE_URL and exit
// code 1, and never print the password. Only in the `postgres` project.

const ROOT = path.resolve(__dirname, "..");
const adminUrl = process.env[TEST_POSTGRES_ENV]!;

async function migrate(url: string) {
  const { PATH, HOME } = process.env;
  return runProgram(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/migrate.ts"], {
    cwd: ROOT,
    env: { PATH, HOME, DATABASE_URL: url, NODE_ENV: "test" },
  });
}

describe("scripts/migrate.ts on Postgres", () => {
  it("migrates a fresh database, then finds it up to date", async () => {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    const name = `migrate_${process.pid}`;
    await client.query(`DROP DATABASE IF EXISTS "${name}"`);
    await client.query(`CREATE DATABASE "${name}"`);
    try {
      const first = await migrate(withDatabase(adminUrl, name));
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(
        new RegExp(`^\\[wirespeed\\] Postgres database "${name}" at 127\\.0\\.0\\.1:\\d+: applied 2027`),
      );
      const again = await migrate(withDatabase(adminUrl, name));
      expect(again.code).toBe(0);
      expect(again.stdout).toMatch(/: up to date\n$/);
    } finally {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    }
  });

  const wrongPassword = () => {
    const url = new URL(adminUrl);
    url.password = "not-the-password";
    return url.toString();
  };
  const nothingListens = () => {
    const url = new URL(adminUrl);
    url.port = "9";
    return url.toString();
  };
  it.each([
    [
      "a refused password",
      wrongPassword,
      /^\[wirespeed\] DATABASE_URL: the Postgres server at 127\.0\.0\.1:\d+ refused the password/,
    ],
    [
      "a missing database",
      () => withDatabase(adminUrl, "no_such_database"),
      /has no database "no_such_database" \(create it with createdb\)/,
    ],
    ["nothing listening", nothingListens, /^\[wirespeed\] DATABASE_URL: nothing accepts connections at 127\.0\.0\.1:9/],
    [
      "a malformed URL",
      () => "postgres://wirespeed:pass@word@127.0.0.1:notaport/x",
      /^\[wirespeed\] DATABASE_URL is not a valid Postgres URL/,
    ],
  ])("stops on %s, saying so and naming DATABASE_URL", async (_name, url, message) => {
    const result = await migrate(url());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/not-the-password|wirespeed-test-password|pass@word/);
  });
});
