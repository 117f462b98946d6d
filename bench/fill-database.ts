// Where bench/fill.ts writes its rows: a SQLite file through better-sqlite3, or a Postgres database
// through pg. The fill describes each row once, as an object of column values (ids included: the
// fill gives them, so both databases get the same rows); this file only writes them, each database
// its fastest way: SQLite one prepared statement a row inside one transaction until flush(),
// Postgres multi-row INSERTs at flush(), in the order of the foreign keys, in one transaction.
import Database from "better-sqlite3";
import fs from "node:fs";
import pg from "pg";

export type FillDatabase = {
  readonly kind: "sqlite" | "postgres";
  /** Adds a row to `table` (a boolean is 1 or 0 on SQLite); it is written at the latest by the next flush(). */
  insert(table: string, row: Record<string, unknown>): void;
  /** Writes (and commits) what insert() was given. */
  flush(): Promise<void>;
  /** A statement with `?` placeholders, after a flush; the rows it changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
  /** The first column of the first row of a query with `?` placeholders, after a flush (a count as a number). */
  value<T = number>(sql: string, params?: unknown[]): Promise<T | null>;
  /** The id the next row of `table` gets: the fill gives ids itself. */
  nextId(table: string): Promise<number>;
  /**
   * After a fill, before the reads: SQLite checkpoints its WAL into the file; Postgres runs VACUUM
   * (ANALYZE), what autovacuum does a moment after a bulk load (statistics, visibility map).
   */
  settle(): Promise<void>;
  /** The database's size: the file and its WAL, and the pages in use (SQLite), or pg_database_size (Postgres). */
  size(): Promise<{ mb: number; usedMb: number | null }>;
  /** "SQLite 3.x" or "PostgreSQL 15.x". */
  version(): Promise<string>;
  close(): Promise<void>;
};

/** Tables in the order their foreign keys need (a Postgres flush writes them so); others after. */
const TABLE_ORDER = [
  "Host",
  "Nic",
  "Link",
  "Schedule",
  "AlertRule",
  "Run",
  "ScheduleRun",
  "AuditEvent",
  "Sample",
  "Alert",
];

const columnsOf = (row: Record<string, unknown>) => Object.keys(row);
const quoted = (name: string) => `"${name}"`;

/** The fill's connection to a migrated SQLite file, tuned for the fill only (a crash loses nothing worth keeping). */
export function openSqliteFill(file: string, { readonly = false } = {}): FillDatabase {
  const sqlite = new Database(file, { readonly });
  if (!readonly) {
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("synchronous = OFF");
    sqlite.pragma("cache_size = -262144");
  }
  const statements = new Map<string, { statement: Database.Statement; columns: string[] }>();
  const commit = () => {
    if (sqlite.inTransaction) sqlite.exec("COMMIT");
  };
  const bind = (value: unknown) => (typeof value === "boolean" ? (value ? 1 : 0) : value);
  return {
    kind: "sqlite",
    insert(table, row) {
      const columns = columnsOf(row);
      const key = `${table}(${columns.join(",")})`;
      let entry = statements.get(key);
      if (!entry) {
        entry = {
          columns,
          statement: sqlite.prepare(
            `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
          ),
        };
        statements.set(key, entry);
      }
      if (!sqlite.inTransaction) sqlite.exec("BEGIN");
      entry.statement.run(...entry.columns.map((column) => bind(row[column])));
    },
    async flush() {
      commit();
    },
    async run(sql, params = []) {
      commit();
      return sqlite.prepare(sql).run(...params.map(bind)).changes;
    },
    async value<T>(sql: string, params: unknown[] = []) {
      commit();
      return (sqlite
        .prepare(sql)
        .pluck()
        .get(...params.map(bind)) ?? null) as T | null;
    },
    async nextId(table) {
      commit();
      return Number(
        sqlite
          .prepare(`SELECT COALESCE(MAX("id"), 0) + 1 FROM ${quoted(table)}`)
          .pluck()
          .get(),
      );
    },
    async settle() {
      commit();
      sqlite.pragma("wal_checkpoint(TRUNCATE)");
    },
    async size() {
      const pageSize = sqlite.pragma("page_size", { simple: true }) as number;
      const pages = sqlite.pragma("page_count", { simple: true }) as number;
      const free = sqlite.pragma("freelist_count", { simple: true }) as number;
      const wal = fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0;
      return { mb: (fs.statSync(file).size + wal) / 2 ** 20, usedMb: ((pages - free) * pageSize) / 2 ** 20 };
    },
    async version() {
      return `SQLite ${sqlite.prepare("SELECT sqlite_version()").pluck().get() as string}`;
    },
    async close() {
      commit();
      sqlite.close();
    },
  };
}

/** Postgres takes at most 65,535 parameters a statement. */
const MAX_PARAMETERS = 65_535;

/** `?` placeholders as Postgres's `$1, $2, …` (the fill's statements have no `?` inside strings). */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

/** The fill's connection to a migrated Postgres database. */
export async function openPostgresFill(url: string): Promise<FillDatabase> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // The fill only, as synchronous = OFF for SQLite (the bench's cluster runs without fsync anyway).
  await client.query("SET synchronous_commit = off");
  const buffers = new Map<string, { table: string; columns: string[]; rows: unknown[][] }>();
  const rank = (table: string) => {
    const index = TABLE_ORDER.indexOf(table);
    return index < 0 ? TABLE_ORDER.length : index;
  };
  const flush = async () => {
    if (buffers.size === 0) return;
    const pending = [...buffers.values()].sort((a, b) => rank(a.table) - rank(b.table));
    buffers.clear();
    await client.query("BEGIN");
    try {
      for (const { table, columns, rows } of pending) {
        const perStatement = Math.floor(MAX_PARAMETERS / columns.length);
        for (let first = 0; first < rows.length; first += perStatement) {
          const chunk = rows.slice(first, first + perStatement);
          let parameter = 0;
          const values = chunk.map(() => `(${columns.map(() => `$${++parameter}`).join(", ")})`).join(", ");
          await client.query(
            `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(", ")}) VALUES ${values}`,
            chunk.flat(),
          );
        }
        // Ids given by the fill: the table's sequence moves past them, for the rows the app adds itself.
        if (columns.includes("id")) {
          await client.query(
            `SELECT setval(pg_get_serial_sequence($1, 'id'), (SELECT MAX("id") FROM ${quoted(table)}))`,
            [quoted(table)],
          );
        }
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  };
  const value = async <T>(sql: string, params: unknown[] = []): Promise<T | null> => {
    await flush();
    const result = await client.query({ text: numbered(sql), values: params, rowMode: "array" });
    const first = (result.rows[0] as unknown[] | undefined)?.[0];
    if (first === undefined || first === null) return null;
    // COUNT and MAX of an integer are bigints, which pg gives as text.
    const type = result.fields[0]?.dataTypeID;
    return (type === 20 || type === 1700 ? Number(first) : first) as T;
  };
  return {
    kind: "postgres",
    insert(table, row) {
      const columns = columnsOf(row);
      const key = `${table}(${columns.join(",")})`;
      let buffer = buffers.get(key);
      if (!buffer) {
        buffer = { table, columns, rows: [] };
        buffers.set(key, buffer);
      }
      buffer.rows.push(columns.map((column) => row[column]));
    },
    flush,
    async run(sql, params = []) {
      await flush();
      return (await client.query(numbered(sql), params)).rowCount ?? 0;
    },
    value,
    async nextId(table) {
      return Number(await value(`SELECT COALESCE(MAX("id"), 0) + 1 FROM ${quoted(table)}`));
    },
    async settle() {
      await flush();
      await client.query("VACUUM (ANALYZE)");
    },
    async size() {
      const bytes = await value<number>("SELECT pg_database_size(current_database())");
      return { mb: (bytes ?? 0) / 2 ** 20, usedMb: null };
    },
    async version() {
      return `PostgreSQL ${(await value<string>("SHOW server_version"))?.split(" ")[0]}`;
    },
    async close() {
      await flush();
      await client.end();
    },
  };
}

// ---------------------------------------------------------------- a bench's database, with the app on it

/** The port of a bench's throwaway cluster: 200 past the tests' own (testPostgresPort), so that a bench and a test run do not meet. */
export const BENCH_POSTGRES_PORT_OFFSET = 200;

export type BenchDatabase = {
  kind: "sqlite" | "postgres";
  /** The app's URL (DATABASE_URL). */
  url: string;
  /** The SQLite file's folder; null on Postgres. */
  dataDir: string | null;
  /** The fill's own connection. */
  fill: FillDatabase;
  /** Closes the fill's connection and the app's client, then removes the database (and stops the cluster). */
  remove(options?: { keep?: boolean }): Promise<void>;
};

/**
 * A fresh migrated database with an app (lib/app.ts) on it, so that every module of lib/ reads it
 * (testing/database.ts): a SQLite file in a temporary folder, or with `postgres` a throwaway
 * cluster on `port` (testing/postgres/cluster.ts) and a database copied from its migrated
 * template. The cluster is stopped by remove(), and on SIGINT or SIGTERM.
 */
export async function openBenchDatabase({
  postgres,
  port,
}: {
  postgres: boolean;
  port?: number;
}): Promise<BenchDatabase> {
  const { connectAppDatabase, createTestDatabase } = await import("../testing/database");
  const disconnectApp = async () => {
    const { db } = await import("../lib/db");
    await db.$disconnect();
  };
  if (!postgres) {
    const database = createTestDatabase();
    await connectAppDatabase(database.url);
    const fill = openSqliteFill(`${database.dataDir}/wirespeed.db`);
    return {
      kind: "sqlite",
      url: database.url,
      dataDir: database.dataDir,
      fill,
      async remove({ keep = false } = {}) {
        await fill.close().catch(() => {});
        await disconnectApp();
        if (!keep) database.remove();
      },
    };
  }
  const { startPostgresCluster, testPostgresPort } = await import("../testing/postgres/cluster");
  const { createTemplate, createPostgresDatabase } = await import("../testing/postgres/template");
  const cluster = startPostgresCluster(port ?? testPostgresPort() + BENCH_POSTGRES_PORT_OFFSET);
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    cluster.stop();
  };
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const adminUrl = cluster.urlOf("postgres");
    await createTemplate(adminUrl);
    const database = await createPostgresDatabase(adminUrl);
    await connectAppDatabase(database.url);
    const fill = await openPostgresFill(database.url);
    return {
      kind: "postgres",
      url: database.url,
      dataDir: null,
      fill,
      async remove() {
        try {
          await fill.close().catch(() => {});
          await disconnectApp().catch(() => {});
        } finally {
          stop();
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
        }
      },
    };
  } catch (error) {
    stop();
    throw error;
  }
}
