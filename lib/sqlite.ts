// Every SQLite connection Wirespeed opens through Prisma (the app, the migrations, the command
// line) comes from here, so that each one gets the same settings:
//
//   journal_mode = WAL     readers (a backup, a page) and the writer no longer wait for each
//                          other: a backup holds a read transaction for as long as it copies,
//                          and in the default rollback journal that stops every commit, a run's
//                          samples among them, until it ends. Kept in the file once set.
//   synchronous = NORMAL   in WAL mode a commit survives a crash of the app; only a power cut
//                          can undo the last commits, never corrupt the file (per connection).
//   busy timeout 5 s       two writers (the app and `npm run wirespeed`, say) wait for each other
//                          instead of failing at once with SQLITE_BUSY (per connection).
//
// Before SQLite opens the file, its folder and the file are made private (lib/data-dir.ts).
//
// Plain module (no "server-only"): prisma.config.ts and the scripts use it too.
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { prepareDatabaseFile, preparedMessages } from "./data-dir";

export const BUSY_TIMEOUT_MS = 5_000;

type Connection = Awaited<ReturnType<PrismaBetterSQLite3["connect"]>>;

/** The file a `file:` URL names, or null for an in-memory database. */
function fileOf(url: string): string | null {
  const file = url.replace(/^file:/, "");
  return file === ":memory:" ? null : file;
}

/** PrismaBetterSQLite3 whose connections are set up as described above. */
class WirespeedSqliteAdapter extends PrismaBetterSQLite3 {
  private readonly file: string | null;

  constructor(url: string) {
    // better-sqlite3's `timeout` is SQLite's busy timeout
    super({ url, timeout: BUSY_TIMEOUT_MS });
    this.file = fileOf(url);
  }

  override async connect(): Promise<Connection> {
    if (this.file !== null) {
      for (const message of preparedMessages(prepareDatabaseFile(this.file))) console.warn(`[wirespeed] ${message}`);
    }
    const connection = await super.connect();
    try {
      const result = await connection.queryRaw({ sql: "PRAGMA journal_mode = WAL", args: [], argTypes: [] });
      const mode = String(result.rows[0]?.[0] ?? "unknown");
      // a file system without shared memory (some network mounts) keeps the old mode: still usable
      if (mode !== "wal" && this.file !== null) {
        console.warn(
          `[wirespeed] warning: the database ${this.file} stays in journal mode "${mode}" (WAL refused): ` +
            "a backup will make the app's writes wait while it copies",
        );
      }
      await connection.executeScript("PRAGMA synchronous = NORMAL");
    } catch (error) {
      await connection.dispose();
      throw error;
    }
    return connection;
  }
}

/** The Prisma driver adapter for the SQLite file `url` (`file:/abs/path.db`). */
export function createSqliteAdapter(url: string): PrismaBetterSQLite3 {
  return new WirespeedSqliteAdapter(url);
}
