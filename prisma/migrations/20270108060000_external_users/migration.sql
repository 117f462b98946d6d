-- Users an external authority signs in (lib/auth/external.ts): how each user signs in (local, an OpenID
-- Connect provider, a trusted proxy's header) and the external identity that stays when the name changes.

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_User" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "username" TEXT NOT NULL,
    "usernameKey" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "disabledAt" DATETIME,
    "lastLoginAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'local',
    "subject" TEXT
);
INSERT INTO "new_User" ("createdAt", "disabledAt", "id", "lastLoginAt", "passwordHash", "role", "updatedAt", "username", "usernameKey") SELECT "createdAt", "disabledAt", "id", "lastLoginAt", "passwordHash", "role", "updatedAt", "username", "usernameKey" FROM "User";
DROP TABLE "User";
ALTER TABLE "new_User" RENAME TO "User";
CREATE UNIQUE INDEX "User_usernameKey_key" ON "User"("usernameKey");
CREATE UNIQUE INDEX "User_source_subject_key" ON "User"("source", "subject");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

