-- AlterTable
ALTER TABLE "Run" ADD COLUMN "environment" JSONB;
ALTER TABLE "Run" ADD COLUMN "latencyGrade" TEXT;
ALTER TABLE "Run" ADD COLUMN "latencyIdleMedianMs" REAL;
ALTER TABLE "Run" ADD COLUMN "latencyIdleP95Ms" REAL;
ALTER TABLE "Run" ADD COLUMN "latencyLoadedMedianMs" REAL;
ALTER TABLE "Run" ADD COLUMN "latencyLoadedP95Ms" REAL;
ALTER TABLE "Run" ADD COLUMN "latencyLost" INTEGER;
ALTER TABLE "Run" ADD COLUMN "latencySent" INTEGER;

-- CreateTable
CREATE TABLE "LatencySample" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "runId" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "t" REAL NOT NULL,
    "rttMs" REAL,
    "phase" TEXT NOT NULL,
    CONSTRAINT "LatencySample_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "LatencySample_runId_seq_key" ON "LatencySample"("runId", "seq");

