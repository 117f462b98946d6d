// `npm run db:migrate`, and step 2 of `npm start`: the database DATABASE_URL names (lib/config.ts), migrated.
//   SQLite (the default): prisma/migrations applied to the file as `prisma migrate deploy` does
//   (lib/sqlite-migrate.ts), without the Prisma CLI, so that the image runs this compiled to plain JavaScript.
//   Postgres: the server checked first (a bad URL, an unreachable server, a refused password or a
//   missing database is said in one line naming DATABASE_URL, and the exit code is 1), then
//   prisma/postgres/migrations applied (lib/postgres/migrate.ts).
import path from "node:path";
import { DatabaseUrlError, resolveDatabase, type DatabaseConfig } from "../lib/config";
import { checkPostgres } from "../lib/postgres/connect";
import { migratePostgres } from "../lib/postgres/migrate";
import { migrateSqlite } from "../lib/sqlite-migrate";

// The project's folder: beside this file in scripts/, here or compiled (deploy/bundle-scripts.mjs).
const ROOT = path.join(__dirname, "..");

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
    const applied = await migrateSqlite(database.file, path.join(ROOT, "prisma", "migrations"));
    console.log(
      `[wirespeed] SQLite database ${database.file}: ` +
        (applied.length ? `applied ${applied.join(", ")}` : "up to date"),
    );
    return;
  }
  const problem = await checkPostgres(database);
  if (problem) return fail(problem);
  const applied = await migratePostgres(database.url, path.join(ROOT, "prisma", "postgres", "migrations"));
  console.log(
    `[wirespeed] Postgres database "${database.database}" at ${database.host}:${database.port}: ` +
      (applied.length ? `applied ${applied.join(", ")}` : "up to date"),
  );
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
