import type Database from "better-sqlite3";

/**
 * Two local hosts (`PREFIX-a`, `PREFIX-b`), an `eth1` NIC on each and a 1 Gbit/s link `PREFIX-link`
 * between them, written with SQL into a migrated database: for tests that then write samples or
 * runs with SQL too. Returns the link's id.
 */
export function insertLinkRows(sqlite: Database.Database, prefix: string): number {
  const now = new Date().toISOString();
  const insertHost = sqlite.prepare(
    `INSERT INTO "Host" ("name", "address", "authMethod", "updatedAt") VALUES (?, '198.18.9.1', 'local', ?)`,
  );
  const insertNic = sqlite.prepare(`INSERT INTO "Nic" ("hostId", "name", "updatedAt") VALUES (?, 'eth1', ?)`);
  const nicIds = [`${prefix}-a`, `${prefix}-b`].map((name) => {
    const hostId = insertHost.run(name, now).lastInsertRowid;
    return Number(insertNic.run(hostId, now).lastInsertRowid);
  });
  const insertLink = sqlite.prepare(
    `INSERT INTO "Link" ("name", "aNicId", "bNicId", "speedMbps", "updatedAt") VALUES (?, ?, ?, 1000, ?)`,
  );
  return Number(insertLink.run(`${prefix}-link`, nicIds[0], nicIds[1], now).lastInsertRowid);
}
