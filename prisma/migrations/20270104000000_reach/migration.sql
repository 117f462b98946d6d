-- Reach (hosts behind a jump host, iperf3 servers Wirespeed does not manage, devices without SSH).
-- Columns are added, not the tables rebuilt, so that a database of years of runs migrates in a moment.
ALTER TABLE "Host" ADD COLUMN "access" TEXT NOT NULL DEFAULT 'ssh';
ALTER TABLE "Host" ADD COLUMN "jumpHostId" INTEGER REFERENCES "Host" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "Host" ADD COLUMN "kind" TEXT;
CREATE INDEX "Host_jumpHostId_idx" ON "Host"("jumpHostId");

-- A listening run (a device's link) and a run against a server Wirespeed does not manage.
ALTER TABLE "Run" ADD COLUMN "listenAddress" TEXT;
ALTER TABLE "Run" ADD COLUMN "listenPort" INTEGER;
ALTER TABLE "Run" ADD COLUMN "listenExpiresAt" DATETIME;
ALTER TABLE "Run" ADD COLUMN "peerAddress" TEXT;
ALTER TABLE "Run" ADD COLUMN "serverTries" INTEGER;

-- A NIC's medium (ethernet | wifi), which a device's page sets side by side.
ALTER TABLE "Nic" ADD COLUMN "medium" TEXT;
