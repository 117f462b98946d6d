-- Imports (lib/imports): where a run came from, and for an imported one the hash and name of its
-- output; one import of an output per link. Columns are added, not the tables rebuilt, so that a
-- database of years of runs migrates in a moment.
ALTER TABLE "Run" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'wirespeed';
ALTER TABLE "Run" ADD COLUMN "importHash" TEXT;
ALTER TABLE "Run" ADD COLUMN "importName" TEXT;
CREATE UNIQUE INDEX "Run_linkId_importHash_key" ON "Run"("linkId", "importHash");

-- Whether a link's imported runs count toward its baselines.
ALTER TABLE "Link" ADD COLUMN "importsInBaseline" BOOLEAN NOT NULL DEFAULT false;

-- The latest check of a host (wirespeed_host_reachable).
ALTER TABLE "Host" ADD COLUMN "reachable" BOOLEAN;
ALTER TABLE "Host" ADD COLUMN "checkedAt" DATETIME;

-- The reads of a baseline and of /metrics stay in indexes: the signature index widened with the
-- id (the order of ties) and what those reads filter on and take (a link's latest results), and
-- one for the run totals.
-- Without them each read visits the runs' rows, whose outputs make them long.
DROP INDEX "Run_linkId_signature_status_createdAt_idx";
CREATE INDEX "Run_signature_results_idx" ON "Run"("linkId", "signature", "status", "createdAt", "id", "experimentId", "source", "receivedBitsPerSecond", "retransmits", "jitterMs", "lostPercent", "lostPackets", "packets");
CREATE INDEX "Run_source_status_startedAt_endedAt_idx" ON "Run"("source", "status", "startedAt", "endedAt");
