-- CreateTable
CREATE TABLE "Experiment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "plan" JSONB NOT NULL,
    "result" JSONB,
    "answer" TEXT,
    "errorMessage" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "endedAt" DATETIME
);

-- The run groups of earlier versions become experiments (none made any, but none is lost).
INSERT INTO "Experiment" ("id", "kind", "name", "plan", "status", "createdAt") SELECT "id", "kind", "name", '{}', 'succeeded', "createdAt" FROM "RunGroup";

-- CreateTable
CREATE TABLE "ExperimentStep" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "experimentId" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "tags" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'running',
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME,
    CONSTRAINT "ExperimentStep_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ExperimentLink" (
    "experimentId" INTEGER NOT NULL,
    "linkId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,

    PRIMARY KEY ("experimentId", "linkId"),
    CONSTRAINT "ExperimentLink_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ExperimentLink_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "linkId" INTEGER NOT NULL,
    "experimentId" INTEGER,
    "stepId" INTEGER,
    "channel" INTEGER,
    "port" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "clientSide" TEXT NOT NULL DEFAULT 'a',
    "options" JSONB NOT NULL,
    "serverCommand" TEXT,
    "clientCommand" TEXT,
    "serverIperfVersion" TEXT,
    "clientIperfVersion" TEXT,
    "serverPid" INTEGER,
    "clientPid" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" DATETIME,
    "endedAt" DATETIME,
    "sentBytes" REAL,
    "sentBitsPerSecond" REAL,
    "receivedBytes" REAL,
    "receivedBitsPerSecond" REAL,
    "retransmits" INTEGER,
    "jitterMs" REAL,
    "lostPackets" INTEGER,
    "packets" INTEGER,
    "lostPercent" REAL,
    "reverseSentBytes" REAL,
    "reverseSentBitsPerSecond" REAL,
    "reverseReceivedBytes" REAL,
    "reverseReceivedBitsPerSecond" REAL,
    "reverseRetransmits" INTEGER,
    "clientCpuPercent" REAL,
    "serverCpuPercent" REAL,
    "errorKind" TEXT,
    "errorMessage" TEXT,
    "errorHint" TEXT,
    "serverOutput" TEXT NOT NULL DEFAULT '',
    "clientOutput" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "Run_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Run_stepId_fkey" FOREIGN KEY ("stepId") REFERENCES "ExperimentStep" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("clientCommand", "clientCpuPercent", "clientIperfVersion", "clientOutput", "clientPid", "clientSide", "createdAt", "endedAt", "errorHint", "errorKind", "errorMessage", "id", "jitterMs", "linkId", "lostPackets", "lostPercent", "options", "packets", "receivedBitsPerSecond", "receivedBytes", "retransmits", "reverseReceivedBitsPerSecond", "reverseReceivedBytes", "reverseRetransmits", "reverseSentBitsPerSecond", "reverseSentBytes", "sentBitsPerSecond", "sentBytes", "serverCommand", "serverCpuPercent", "serverIperfVersion", "serverOutput", "serverPid", "startedAt", "status", "experimentId") SELECT "clientCommand", "clientCpuPercent", "clientIperfVersion", "clientOutput", "clientPid", "clientSide", "createdAt", "endedAt", "errorHint", "errorKind", "errorMessage", "id", "jitterMs", "linkId", "lostPackets", "lostPercent", "options", "packets", "receivedBitsPerSecond", "receivedBytes", "retransmits", "reverseReceivedBitsPerSecond", "reverseReceivedBytes", "reverseRetransmits", "reverseSentBitsPerSecond", "reverseSentBytes", "sentBitsPerSecond", "sentBytes", "serverCommand", "serverCpuPercent", "serverIperfVersion", "serverOutput", "serverPid", "startedAt", "status", "groupId" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_linkId_createdAt_idx" ON "Run"("linkId", "createdAt");
CREATE INDEX "Run_status_idx" ON "Run"("status");
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");
CREATE INDEX "Run_experimentId_idx" ON "Run"("experimentId");
CREATE INDEX "Run_stepId_idx" ON "Run"("stepId");
DROP TABLE "RunGroup";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Experiment_createdAt_idx" ON "Experiment"("createdAt");

-- CreateIndex
CREATE INDEX "Experiment_status_idx" ON "Experiment"("status");

-- CreateIndex
CREATE UNIQUE INDEX "ExperimentStep_experimentId_index_key" ON "ExperimentStep"("experimentId", "index");

-- CreateIndex
CREATE INDEX "ExperimentLink_linkId_idx" ON "ExperimentLink"("linkId");

