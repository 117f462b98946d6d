-- A UDP run's loss is its receiver's lost datagrams over its datagrams, as iperf3 computes it
-- (100.0 * lost / total). Runs stored before took a text client's printed percent, which has 2
-- significant digits ("27399/206961 (13%)"): written again from the counts, which were exact. The
-- same operations in the same order as lossPercent (lib/iperf/units.ts) and iperf3, so a -J figure
-- stays what it was, to the last bit.
UPDATE "Run" SET "lostPercent" = 100.0 * "lostPackets" / "packets" WHERE "packets" > 0 AND "lostPackets" IS NOT NULL;
