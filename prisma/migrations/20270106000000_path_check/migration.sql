-- Proof of the path (lib/runs/path-check.ts): each end's NIC counters' rise during the test, the bytes
-- iperf3 sent and the verdict, as JSON; the verdict again as text, which a baseline filters on (an
-- off-link run does not count) without reading the JSON. Old runs keep null: not checked.
ALTER TABLE "Run" ADD COLUMN "pathCheck" JSONB;
ALTER TABLE "Run" ADD COLUMN "pathVerdict" TEXT;
