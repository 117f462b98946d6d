-- Years of runs stay fast (bench/growth.bench.ts: 50 links tested every hour for 3 years, about
-- 1.3 million runs). Indexes only, no table rebuilt: on such a database this migration takes
-- about a minute and a half, most of it for the two signature indexes, whose columns sit behind
-- the runs' outputs in each row.

-- The history chart reads a link's newest 2,000 results per signature from the signature index,
-- which now holds the loaded latency too: every value of a point is then in the index, and no
-- run's row (outputs and all) is read.
DROP INDEX "Run_signature_results_idx";
CREATE INDEX "Run_signature_results_idx" ON "Run"("linkId", "signature", "status", "createdAt", "id", "experimentId", "source", "receivedBitsPerSecond", "retransmits", "jitterMs", "lostPercent", "lostPackets", "packets", "latencyLoadedMedianMs");

-- A link's runs of one status, newest first: the overview's cards (the latest succeeded runs, the
-- active one), a link's table by status, its active runs.
CREATE INDEX "Run_linkId_status_createdAt_idx" ON "Run"("linkId", "status", "createdAt");

-- Every run of one status, newest first: the runs list filtered by status reads one page of it
-- instead of sorting every run of that status; it also counts the active runs, as the index on
-- the status alone did.
DROP INDEX "Run_status_idx";
CREATE INDEX "Run_status_createdAt_idx" ON "Run"("status", "createdAt");

-- The run tables filtered by protocol, direction or streams find the matching runs by their
-- signature, newest first, instead of reading every run's options.
CREATE INDEX "Run_signature_status_createdAt_idx" ON "Run"("signature", "status", "createdAt");

-- The overview's timeline: the runs that ended in its range, or started in it and are still going.
CREATE INDEX "Run_endedAt_startedAt_idx" ON "Run"("endedAt", "startedAt");

-- A schedule's latest start by id, without reading every start before it.
CREATE INDEX "ScheduleRun_scheduleId_id_idx" ON "ScheduleRun"("scheduleId", "id");
