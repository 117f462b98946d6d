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
