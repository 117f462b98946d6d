-- Who writes an instance's heartbeat (lib/instances/registry.ts): a random nonce per process, its pid,
-- a fingerprint of its machine and its address, so that a second process of the same name refuses to
-- start while a restarted one still recovers its own runs at once. Columns are added, not the table rebuilt.
ALTER TABLE "Instance" ADD COLUMN "nonce" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Instance" ADD COLUMN "pid" INTEGER;
ALTER TABLE "Instance" ADD COLUMN "machine" TEXT;
ALTER TABLE "Instance" ADD COLUMN "address" TEXT;
