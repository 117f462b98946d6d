-- A finished run's chart points and per-stream totals, kept when it ends (lib/runs/digest.ts).
-- Runs that ended before this migration get theirs from a background pass at start, one run at a
-- time, or on their page's first view, whichever comes first.
CREATE TABLE "RunDigest" (
    "runId" INTEGER NOT NULL PRIMARY KEY,
    "points" JSONB NOT NULL,
    "streamCount" INTEGER NOT NULL,
    "sampleCount" INTEGER NOT NULL,
    "streams" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "compactedAt" DATETIME,
    CONSTRAINT "RunDigest_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "RunDigest_compactedAt_idx" ON "RunDigest"("compactedAt");
