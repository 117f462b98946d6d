-- The whole data model on Postgres, as the SQLite migrations up to 20270107000000_instances leave it.
-- Later changes of prisma/schema.prisma get a migration here and one in prisma/migrations.

-- CreateTable
CREATE TABLE "Host" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "sshPort" INTEGER NOT NULL DEFAULT 22,
    "username" TEXT NOT NULL DEFAULT 'root',
    "authMethod" TEXT NOT NULL DEFAULT 'key',
    "secret" BYTEA,
    "platform" TEXT NOT NULL DEFAULT 'unknown',
    "iperf3Path" TEXT,
    "iperf3Version" TEXT,
    "hostKeyFingerprint" TEXT,
    "iperfPortMin" INTEGER NOT NULL DEFAULT 5201,
    "iperfPortMax" INTEGER NOT NULL DEFAULT 5299,
    "openFirewall" BOOLEAN NOT NULL DEFAULT false,
    "lastSeenAt" TIMESTAMP(3),
    "reachable" BOOLEAN,
    "checkedAt" TIMESTAMP(3),
    "notes" TEXT NOT NULL DEFAULT '',
    "access" TEXT NOT NULL DEFAULT 'ssh',
    "jumpHostId" INTEGER,
    "kind" TEXT,
    "tags" JSONB NOT NULL DEFAULT '[]',
    "site" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Host_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Nic" (
    "id" SERIAL NOT NULL,
    "hostId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "model" TEXT,
    "driver" TEXT,
    "speedMbps" INTEGER,
    "mtu" INTEGER,
    "mac" TEXT,
    "addresses" JSONB NOT NULL DEFAULT '[]',
    "pcieLinkSpeed" TEXT,
    "pcieLinkWidth" INTEGER,
    "medium" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Nic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Link" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "aNicId" INTEGER NOT NULL,
    "bNicId" INTEGER NOT NULL,
    "speedMbps" INTEGER NOT NULL,
    "notes" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "baselineRuns" INTEGER NOT NULL DEFAULT 10,
    "importsInBaseline" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "Link_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Experiment" (
    "id" SERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'queued',
    "plan" JSONB NOT NULL,
    "result" JSONB,
    "answer" TEXT,
    "errorMessage" TEXT,
    "instance" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "Experiment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExperimentStep" (
    "id" SERIAL NOT NULL,
    "experimentId" INTEGER NOT NULL,
    "index" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "tags" JSONB NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'running',
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "ExperimentStep_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ExperimentLink" (
    "experimentId" INTEGER NOT NULL,
    "linkId" INTEGER NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "ExperimentLink_pkey" PRIMARY KEY ("experimentId","linkId")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" SERIAL NOT NULL,
    "linkId" INTEGER NOT NULL,
    "experimentId" INTEGER,
    "stepId" INTEGER,
    "channel" INTEGER,
    "port" INTEGER,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "clientSide" TEXT NOT NULL DEFAULT 'a',
    "source" TEXT NOT NULL DEFAULT 'wirespeed',
    "importHash" TEXT,
    "importName" TEXT,
    "options" JSONB NOT NULL,
    "serverCommand" TEXT,
    "clientCommand" TEXT,
    "serverIperfVersion" TEXT,
    "clientIperfVersion" TEXT,
    "serverPid" INTEGER,
    "clientPid" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "endedAt" TIMESTAMP(3),
    "sentBytes" DOUBLE PRECISION,
    "sentBitsPerSecond" DOUBLE PRECISION,
    "receivedBytes" DOUBLE PRECISION,
    "receivedBitsPerSecond" DOUBLE PRECISION,
    "retransmits" INTEGER,
    "jitterMs" DOUBLE PRECISION,
    "lostPackets" INTEGER,
    "packets" INTEGER,
    "lostPercent" DOUBLE PRECISION,
    "reverseSentBytes" DOUBLE PRECISION,
    "reverseSentBitsPerSecond" DOUBLE PRECISION,
    "reverseReceivedBytes" DOUBLE PRECISION,
    "reverseReceivedBitsPerSecond" DOUBLE PRECISION,
    "reverseRetransmits" INTEGER,
    "clientCpuPercent" DOUBLE PRECISION,
    "serverCpuPercent" DOUBLE PRECISION,
    -- Byte order, as SQLite compares text: the reads find a protocol's signatures by range ('tcp ' to 'tcp!'), which a
    -- language collation (en_US) would order otherwise.
    "signature" TEXT COLLATE "C",
    "errorKind" TEXT,
    "errorMessage" TEXT,
    "errorHint" TEXT,
    "listenAddress" TEXT,
    "listenPort" INTEGER,
    "listenExpiresAt" TIMESTAMP(3),
    "peerAddress" TEXT,
    "serverTries" INTEGER,
    "serverOutput" TEXT NOT NULL DEFAULT '',
    "clientOutput" TEXT NOT NULL DEFAULT '',
    "environment" JSONB,
    "latencyIdleMedianMs" DOUBLE PRECISION,
    "latencyIdleP95Ms" DOUBLE PRECISION,
    "latencyLoadedMedianMs" DOUBLE PRECISION,
    "latencyLoadedP95Ms" DOUBLE PRECISION,
    "latencyGrade" TEXT,
    "latencySent" INTEGER,
    "latencyLost" INTEGER,
    "pathCheck" JSONB,
    "pathVerdict" TEXT,
    "instance" TEXT,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RunDigest" (
    "runId" INTEGER NOT NULL,
    "points" JSONB NOT NULL,
    "streamCount" INTEGER NOT NULL,
    "sampleCount" INTEGER NOT NULL,
    "streams" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "compactedAt" TIMESTAMP(3),

    CONSTRAINT "RunDigest_pkey" PRIMARY KEY ("runId")
);

-- CreateTable
CREATE TABLE "Sample" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "start" DOUBLE PRECISION NOT NULL,
    "end" DOUBLE PRECISION NOT NULL,
    "direction" TEXT NOT NULL DEFAULT 'forward',
    "bytes" DOUBLE PRECISION NOT NULL,
    "bitsPerSecond" DOUBLE PRECISION NOT NULL,
    "retransmits" INTEGER,
    "cwndBytes" INTEGER,
    "jitterMs" DOUBLE PRECISION,
    "lostPackets" INTEGER,
    "packets" INTEGER,
    "omitted" BOOLEAN NOT NULL DEFAULT false,
    "streams" JSONB,

    CONSTRAINT "Sample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LatencySample" (
    "id" SERIAL NOT NULL,
    "runId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "t" DOUBLE PRECISION NOT NULL,
    "rttMs" DOUBLE PRECISION,
    "phase" TEXT NOT NULL,

    CONSTRAINT "LatencySample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "usernameKey" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "disabledAt" TIMESTAMP(3),
    "lastLoginAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" SERIAL NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiToken" (
    "id" SERIAL NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiToken_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorId" INTEGER,
    "actorName" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "targetId" INTEGER,
    "detail" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Schedule" (
    "id" SERIAL NOT NULL,
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
    "nextRunAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Schedule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ScheduleRun" (
    "id" SERIAL NOT NULL,
    "scheduleId" INTEGER NOT NULL,
    "dueAt" TIMESTAMP(3) NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "catchUp" BOOLEAN NOT NULL DEFAULT false,
    "runId" INTEGER,
    "experimentId" INTEGER,

    CONSTRAINT "ScheduleRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "NotificationChannel" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "config" JSONB NOT NULL DEFAULT '{}',
    "secret" BYTEA,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "NotificationChannel_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertRule" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "linkId" INTEGER,
    "belowBaselinePercent" DOUBLE PRECISION,
    "belowLineRatePercent" DOUBLE PRECISION,
    "failed" BOOLEAN NOT NULL DEFAULT false,
    "m" INTEGER NOT NULL DEFAULT 2,
    "n" INTEGER NOT NULL DEFAULT 3,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AlertRule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AlertRuleChannel" (
    "ruleId" INTEGER NOT NULL,
    "channelId" INTEGER NOT NULL,

    CONSTRAINT "AlertRuleChannel_pkey" PRIMARY KEY ("ruleId","channelId")
);

-- CreateTable
CREATE TABLE "Alert" (
    "id" SERIAL NOT NULL,
    "ruleId" INTEGER NOT NULL,
    "linkId" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'firing',
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "runIds" JSONB NOT NULL DEFAULT '[]',
    "resolvedRunIds" JSONB NOT NULL DEFAULT '[]',
    "receivedBitsPerSecond" DOUBLE PRECISION,
    "baselineBitsPerSecond" DOUBLE PRECISION,
    "lineRatePercent" DOUBLE PRECISION,
    "openedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolvedAt" TIMESTAMP(3),
    "acknowledgedAt" TIMESTAMP(3),
    "acknowledgedBy" TEXT,

    CONSTRAINT "Alert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" SERIAL NOT NULL,
    "alertId" INTEGER,
    "channelId" INTEGER,
    "channelName" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "error" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Instance" (
    "id" TEXT NOT NULL,
    "site" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Instance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "LinkHold" (
    "linkId" INTEGER NOT NULL,
    "runId" INTEGER,
    "experimentId" INTEGER,
    "instance" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LinkHold_pkey" PRIMARY KEY ("linkId")
);

-- CreateIndex
CREATE UNIQUE INDEX "Host_name_key" ON "Host"("name");

-- CreateIndex
CREATE INDEX "Host_jumpHostId_idx" ON "Host"("jumpHostId");

-- CreateIndex
CREATE UNIQUE INDEX "Nic_hostId_name_key" ON "Nic"("hostId", "name");

-- CreateIndex
CREATE INDEX "Link_aNicId_idx" ON "Link"("aNicId");

-- CreateIndex
CREATE INDEX "Link_bNicId_idx" ON "Link"("bNicId");

-- CreateIndex
CREATE INDEX "Experiment_createdAt_idx" ON "Experiment"("createdAt");

-- CreateIndex
CREATE INDEX "Experiment_status_idx" ON "Experiment"("status");

-- CreateIndex
CREATE UNIQUE INDEX "ExperimentStep_experimentId_index_key" ON "ExperimentStep"("experimentId", "index");

-- CreateIndex
CREATE INDEX "ExperimentLink_linkId_idx" ON "ExperimentLink"("linkId");

-- CreateIndex
CREATE INDEX "Run_linkId_createdAt_idx" ON "Run"("linkId", "createdAt");

-- CreateIndex
CREATE INDEX "Run_signature_results_idx" ON "Run"("linkId", "signature", "status", "createdAt", "id", "experimentId", "source", "receivedBitsPerSecond", "retransmits", "jitterMs", "lostPercent", "lostPackets", "packets", "latencyLoadedMedianMs", "pathVerdict");

-- CreateIndex
CREATE INDEX "Run_source_status_startedAt_endedAt_idx" ON "Run"("source", "status", "startedAt", "endedAt");

-- CreateIndex
CREATE INDEX "Run_linkId_status_createdAt_idx" ON "Run"("linkId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Run_status_createdAt_idx" ON "Run"("status", "createdAt");

-- CreateIndex
CREATE INDEX "Run_signature_status_createdAt_idx" ON "Run"("signature", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Run_endedAt_startedAt_idx" ON "Run"("endedAt", "startedAt");

-- CreateIndex
CREATE INDEX "Run_createdAt_idx" ON "Run"("createdAt");

-- CreateIndex
CREATE INDEX "Run_experimentId_idx" ON "Run"("experimentId");

-- CreateIndex
CREATE INDEX "Run_stepId_idx" ON "Run"("stepId");

-- CreateIndex
CREATE INDEX "Run_instance_status_idx" ON "Run"("instance", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Run_linkId_importHash_key" ON "Run"("linkId", "importHash");

-- CreateIndex
CREATE INDEX "RunDigest_compactedAt_idx" ON "RunDigest"("compactedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Sample_runId_seq_key" ON "Sample"("runId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "LatencySample_runId_seq_key" ON "LatencySample"("runId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "User_usernameKey_key" ON "User"("usernameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Session_expiresAt_idx" ON "Session"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");

-- CreateIndex
CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

-- CreateIndex
CREATE INDEX "AuditEvent_at_idx" ON "AuditEvent"("at");

-- CreateIndex
CREATE INDEX "Schedule_enabled_nextRunAt_idx" ON "Schedule"("enabled", "nextRunAt");

-- CreateIndex
CREATE INDEX "Schedule_linkId_idx" ON "Schedule"("linkId");

-- CreateIndex
CREATE INDEX "ScheduleRun_scheduleId_at_idx" ON "ScheduleRun"("scheduleId", "at");

-- CreateIndex
CREATE INDEX "ScheduleRun_scheduleId_id_idx" ON "ScheduleRun"("scheduleId", "id");

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
CREATE INDEX "LinkHold_instance_idx" ON "LinkHold"("instance");

-- AddForeignKey
ALTER TABLE "Host" ADD CONSTRAINT "Host_jumpHostId_fkey" FOREIGN KEY ("jumpHostId") REFERENCES "Host"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Nic" ADD CONSTRAINT "Nic_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "Host"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Link" ADD CONSTRAINT "Link_aNicId_fkey" FOREIGN KEY ("aNicId") REFERENCES "Nic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Link" ADD CONSTRAINT "Link_bNicId_fkey" FOREIGN KEY ("bNicId") REFERENCES "Nic"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentStep" ADD CONSTRAINT "ExperimentStep_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentLink" ADD CONSTRAINT "ExperimentLink_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ExperimentLink" ADD CONSTRAINT "ExperimentLink_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_stepId_fkey" FOREIGN KEY ("stepId") REFERENCES "ExperimentStep"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RunDigest" ADD CONSTRAINT "RunDigest_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Sample" ADD CONSTRAINT "Sample_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LatencySample" ADD CONSTRAINT "LatencySample_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduleRun" ADD CONSTRAINT "ScheduleRun_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "Schedule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduleRun" ADD CONSTRAINT "ScheduleRun_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ScheduleRun" ADD CONSTRAINT "ScheduleRun_experimentId_fkey" FOREIGN KEY ("experimentId") REFERENCES "Experiment"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertRule" ADD CONSTRAINT "AlertRule_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertRuleChannel" ADD CONSTRAINT "AlertRuleChannel_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AlertRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AlertRuleChannel" ADD CONSTRAINT "AlertRuleChannel_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "NotificationChannel"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_ruleId_fkey" FOREIGN KEY ("ruleId") REFERENCES "AlertRule"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Alert" ADD CONSTRAINT "Alert_linkId_fkey" FOREIGN KEY ("linkId") REFERENCES "Link"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_alertId_fkey" FOREIGN KEY ("alertId") REFERENCES "Alert"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Notification" ADD CONSTRAINT "Notification_channelId_fkey" FOREIGN KEY ("channelId") REFERENCES "NotificationChannel"("id") ON DELETE SET NULL ON UPDATE CASCADE;

