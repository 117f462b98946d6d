-- AlterTable
ALTER TABLE "Run" ADD COLUMN "signature" TEXT;

-- CreateTable
CREATE TABLE "Schedule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "linkId" INTEGER,
    "experimentPlan" JSONB,
    "options" JSONB NOT NULL DEFAULT '{}',
    "direction" TEXT NOT NULL DEFAULT 'a-to-b',
    "clientSide" TEXT NOT NULL DEFAULT 'a',
    "cron" TEXT,
    "everyMinutes" INTEGER,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "slipSeconds" INTEGER NOT NULL DEFAULT 0,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "nextRunAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Schedule_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ScheduleRun" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "scheduleId" INTEGER NOT NULL,
    "dueAt" DATETIME NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "catchUp" BOOLEAN NOT NULL DEFAULT false,
    "runId" INTEGER,
    "experimentId" INTEGER,
    CONSTRAINT "ScheduleRun_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "Schedule" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ScheduleRun_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "ScheduleRun_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotificationChannel" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "secret" BLOB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "AlertRule" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "linkId" INTEGER,
    "belowBaselinePercent" REAL,
    "belowLineRatePercent" REAL,
    "failed" BOOLEAN NOT NULL DEFAULT false,
    "m" INTEGER NOT NULL DEFAULT 2,
    "n" INTEGER NOT NULL DEFAULT 3,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AlertRule_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AlertRuleChannel" (
    "ruleId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,

    PRIMARY KEY ("ruleId", "channelId"),
    CONSTRAINT "AlertRuleChannel_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AlertRule" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AlertRuleChannel_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "NotificationChannel" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Alert" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "ruleId" INTEGER NOT NULL,
    "linkId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'firing',
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "runIds" JSONB NOT NULL DEFAULT '[]',
    "resolvedRunIds" JSONB NOT NULL DEFAULT '[]',
    "receivedBitsPerSecond" REAL,
    "baselineBitsPerSecond" REAL,
    "lineRatePercent" REAL,
    "openedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" DATETIME,
    "acknowledgedAt" DATETIME,
    "acknowledgedBy" TEXT,
    CONSTRAINT "Alert_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AlertRule" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Alert_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "alertId" INTEGER,
    "channelId" INTEGER,
    "channelName" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "error" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Notification_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "Alert" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Notification_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "NotificationChannel" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- AlterTable
ALTER TABLE "Link" ADD COLUMN "baselineRuns" INTEGER NOT NULL DEFAULT 10;

-- Backfill: the test signature of every earlier run, as lib/runs/signature.ts signatureOf writes it
-- ("tcp a-to-b P1", "udp b-to-a P4 1000000000"); lib/alerts/signature-backfill.test.ts checks the two agree.
UPDATE "Run" SET "signature" =
    coalesce(json_extract("options", '$.protocol'), 'tcp')
    || ' ' || CASE
        WHEN coalesce(json_extract("options", '$.bidir'), 0) THEN 'bidir'
        WHEN ("clientSide" = 'b') = (coalesce(json_extract("options", '$.reverse'), 0) <> 0) THEN 'a-to-b'
        ELSE 'b-to-a' END
    || ' P' || coalesce(json_extract("options", '$.parallel'), 1)
    || CASE WHEN coalesce(json_extract("options", '$.protocol'), 'tcp') = 'udp'
        THEN ' ' || coalesce(json_extract("options", '$.bitrate'), 0) ELSE '' END;

-- CreateIndex
CREATE INDEX "Schedule_enabled_nextRunAt_idx" ON "Schedule"("enabled", "nextRunAt");

-- CreateIndex
CREATE INDEX "Schedule_linkId_idx" ON "Schedule"("linkId");

-- CreateIndex
CREATE INDEX "ScheduleRun_scheduleId_at_idx" ON "ScheduleRun"("scheduleId", "at");

-- CreateIndex
CREATE INDEX "ScheduleRun_runId_idx" ON "ScheduleRun"("runId");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationChannel_name_key" ON "NotificationChannel"("name");

-- CreateIndex
CREATE INDEX "AlertRule_linkId_idx" ON "AlertRule"("linkId");

-- CreateIndex
CREATE INDEX "AlertRuleChannel_channelId_idx" ON "AlertRuleChannel"("channelId");

-- CreateIndex
CREATE INDEX "Alert_status_openedAt_idx" ON "Alert"("status", "openedAt");

-- CreateIndex
CREATE INDEX "Alert_linkId_status_idx" ON "Alert"("linkId", "status");

-- CreateIndex
CREATE INDEX "Alert_ruleId_linkId_status_idx" ON "Alert"("ruleId", "linkId", "status");

-- CreateIndex
CREATE INDEX "Notification_alertId_idx" ON "Notification"("alertId");

-- CreateIndex
CREATE INDEX "Notification_channelId_at_idx" ON "Notification"("channelId", "at");

-- CreateIndex
CREATE INDEX "Run_linkId_signature_status_createdAt_idx" ON "Run"("linkId", "signature", "status", "createdAt");

