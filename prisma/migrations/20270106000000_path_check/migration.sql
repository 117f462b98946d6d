-- Proof of the path (lib/runs/path-check.ts): each end's NIC counters' rise during the test, the bytes
-- iperf3 sent and the verdict, as JSON; the verdict again as text, which a baseline filters on (an
-- off-link run does not count) without reading the JSON. Old runs keep null: not checked.
ALTER TABLE "Run" ADD COLUMN "pathCheck" JSONB;
ALTER TABLE "Run" ADD COLUMN "pathVerdict" TEXT;

-- The baseline and the history chart read a run's verdict from the signature index, as they read the rest.
DROP INDEX "Run_signature_results_idx";
CREATE INDEX "Run_signature_results_idx" ON "Run"("linkId", "signature", "status", "createdAt", "id", "experimentId", "source", "receivedBitsPerSecond", "retransmits", "jitterMs", "lostPercent", "lostPackets", "packets", "latencyLoadedMedianMs", "pathVerdict");
