-- Several instances on one database (lib/instances): each instance's heartbeat, the settings they share
-- (the fingerprint of the credentials' key), the links held across instances, which instance runs or
-- ran each run and experiment, and the site whose instances reach a host.

-- AlterTable
ALTER TABLE "Host" ADD COLUMN "site" TEXT;

-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "instance" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN "instance" TEXT;

-- CreateTable
CREATE TABLE "Instance" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "site" TEXT,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "heartbeatAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "LinkHold" (
    "linkId" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER,
    "experimentId" INTEGER,
    "instance" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "LinkHold_instance_idx" ON "LinkHold"("instance");

-- CreateIndex
CREATE INDEX "Run_instance_status_idx" ON "Run"("instance", "status");


-- Runs and experiments a version before instances left in progress belong to no live instance: the
-- first instance to start recovers them (interrupted), as a restart always has. A run whose instance is
-- null is one handed to another site, waiting to be claimed (lib/runs/engine.ts claimHandedOffRuns).
UPDATE "Run" SET "instance" = 'before-instances' WHERE "status" IN ('queued', 'preparing', 'listening', 'running');
UPDATE "Experiment" SET "instance" = 'before-instances' WHERE "status" IN ('queued', 'running');
