-- CreateTable
CREATE TABLE "Host" (
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
    "lastSeenAt" DATETIME,
    "notes" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Nic" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hostId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "model" TEXT,
    "driver" TEXT,
    "speedMbps" INTEGER,
    "mtu" INTEGER,
    "mac" TEXT,
    "addresses" JSONB NOT NULL DEFAULT [],
    "pcieLinkSpeed" TEXT,
    "pcieLinkWidth" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Nic_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Link" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "aNicId" INTEGER NOT NULL,
    "bNicId" INTEGER NOT NULL,
    "speedMbps" INTEGER NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Link_aNicId_fkey" FOREIGN KEY ("aNicId") REFERENCES "Nic" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Link_bNicId_fkey" FOREIGN KEY ("bNicId") REFERENCES "Nic" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "RunGroup" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Run" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "linkId" INTEGER NOT NULL,
    "groupId" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "clientSide" TEXT NOT NULL DEFAULT 'a',
    "options" JSONB NOT NULL,
    "serverCommand" TEXT,
    "clientCommand" TEXT,
    "serverIperfVersion" TEXT,
    "clientIperfVersion" TEXT,
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
    CONSTRAINT "Run_groupId_fkey" FOREIGN KEY ("groupId") REFERENCES "RunGroup" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Sample" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "start" REAL NOT NULL,
    "end" REAL NOT NULL,
    "direction" TEXT NOT NULL DEFAULT 'forward',
    "bytes" REAL NOT NULL,
    "bitsPerSecond" REAL NOT NULL,
    "retransmits" INTEGER,
    "cwndBytes" INTEGER,
    "jitterMs" REAL,
    "lostPackets" INTEGER,
    "packets" INTEGER,
    "omitted" BOOLEAN NOT NULL DEFAULT false,
    "streams" JSONB,
    CONSTRAINT "Sample_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Host_name_key" ON "Host"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Nic_hostId_name_key" ON "Nic"("hostId", "name");

-- CreateIndex
CREATE INDEX "Link_aNicId_idx" ON "Link"("aNicId");

-- CreateIndex
CREATE INDEX "Link_bNicId_idx" ON "Link"("bNicId");

-- CreateIndex
CREATE INDEX "Run_linkId_createdAt_idx" ON "Run"("linkId", "createdAt");

-- CreateIndex
CREATE INDEX "Run_status_idx" ON "Run"("status");

-- CreateIndex
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");

-- CreateIndex
CREATE INDEX "Run_groupId_idx" ON "Run"("groupId");

-- CreateIndex
CREATE UNIQUE INDEX "Sample_runId_seq_key" ON "Sample"("runId", "seq");

