// `npm run db:migrate`, and step 2 of `npm start`: the database DATABASE_URL names (lib/config.ts), migrated.
//   SQLite (the default): `prisma migrate deploy` on the file, as always.
//   Postgres: the server checked first (a bad URL, an unreachable server, a refused password or a
//   missing database is said in one line naming DATABASE_URL, and the exit code is 1), then
//   prisma/postgres/migrations applied (lib/postgres/migrate.ts).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { DatabaseUrlError, resolveDatabase, type DatabaseConfig } from "../lib/config";
import { checkPostgres } from "../lib/postgres/connect";
import { migratePostgres } from "../lib/postgres/migrate";

const fail = (message: string): never => {
  console.error(`[wirespeed] ${message}`);
  process.exit(1);
};

async function main() {
  let database: DatabaseConfig;
  try {
    database = resolveDatabase();
  } catch (error) {
    if (error instanceof DatabaseUrlError) return fail(error.message);
    throw error;
  }
  if (database.kind === "sqlite") {
    const prisma = path.join(__dirname, "..", "node_modules", ".bin", "prisma");
    const result = spawnSync(prisma, ["migrate", "deploy"], { stdio: "inherit" });
    if (result.status !== 0) fail(`prisma migrate deploy failed with exit code ${result.status}`);
    return;
  }
  const problem = await checkPostgres(database);
  if (problem) return fail(problem);
  const applied = await migratePostgres(database.url);
  console.log(
    `[wirespeed] Postgres database "${database.database}" at ${database.host}:${database.port}: ` +
      (applied.length ? `applied ${applied.join(", ")}` : "up to date"),
  );
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
