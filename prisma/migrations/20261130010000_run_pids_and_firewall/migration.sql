-- AlterTable
ALTER TABLE "Run" ADD COLUMN "clientPid" INTEGER;
ALTER TABLE "Run" ADD COLUMN "serverPid" INTEGER;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Host" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "sshPort" INTEGER NOT NULL DEFAULT 22,
    "username" TEXT NOT NULL DEFAULT 'root',
    "authMethod" TEXT NOT NULL DEFAULT 'key',
    "secret" BLOB,
    "platform" TEXT NOT NULL DEFAULT 'unknown',
    "iperf3Path" TEXT,
    "iperf3Version" TEXT,
    "hostKeyFingerprint" TEXT,
    "iperfPortMin" INTEGER NOT NULL DEFAULT 5201,
    "iperfPortMax" INTEGER NOT NULL DEFAULT 5299,
    "openFirewall" BOOLEAN NOT NULL DEFAULT false,
    "lastSeenAt" DATETIME,
    "notes" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Host" ("address", "authMethod", "createdAt", "hostKeyFingerprint", "id", "iperf3Path", "iperf3Version", "iperfPortMax", "iperfPortMin", "lastSeenAt", "name", "notes", "platform", "secret", "sshPort", "updatedAt", "username") SELECT "address", "authMethod", "createdAt", "hostKeyFingerprint", "id", "iperf3Path", "iperf3Version", "iperfPortMax", "iperfPortMin", "lastSeenAt", "name", "notes", "platform", "secret", "sshPort", "updatedAt", "username" FROM "Host";
DROP TABLE "Host";
ALTER TABLE "new_Host" RENAME TO "Host";
CREATE UNIQUE INDEX "Host_name_key" ON "Host"("name");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

