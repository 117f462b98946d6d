import type BetterSqlite3 from "better-sqlite3";

/**
 * Two local Linux hosts bench-a and bench-b (198.18.200.1 and .2), an eth1 NIC on each and the
 * 1 Gbit/s link bench-1g between them, written with SQL at `now`, for a bench that then writes
 * runs on it; the link's id. `nicFigures` records the NICs' speed (1000), MTU (9000) and addresses.
 */
export function insertBenchLink(sqlite: BetterSqlite3.Database, now: string, { nicFigures = false } = {}): number {
  const insertHost = sqlite.prepare(
    `INSERT INTO "Host" ("name", "address", "authMethod", "platform", "updatedAt") VALUES (?, ?, 'local', 'linux', ?)`,
  );
  const insertNic = nicFigures
    ? sqlite.prepare(
        `INSERT INTO "Nic" ("hostId", "name", "speedMbps", "mtu", "addresses", "updatedAt") VALUES (?, 'eth1', 1000, 9000, ?, ?)`,
      )
    : sqlite.prepare(`INSERT INTO "Nic" ("hostId", "name", "updatedAt") VALUES (?, 'eth1', ?)`);
  const nicIds = ["bench-a", "bench-b"].map((name, index) => {
    const address = `198.18.200.${index + 1}`;
    const hostId = insertHost.run(name, address, now).lastInsertRowid;
    const nic = nicFigures ? insertNic.run(hostId, JSON.stringify([`${address}/24`]), now) : insertNic.run(hostId, now);
    return Number(nic.lastInsertRowid);
  });
  const insertLink = sqlite.prepare(
    `INSERT INTO "Link" ("name", "aNicId", "bNicId", "speedMbps", "updatedAt") VALUES ('bench-1g', ?, ?, 1000, ?)`,
  );
  return Number(insertLink.run(nicIds[0], nicIds[1], now).lastInsertRowid);
}
