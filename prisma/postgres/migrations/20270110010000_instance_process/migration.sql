-- Who writes an instance's heartbeat (lib/instances/registry.ts): a random nonce per process, its pid,
-- a fingerprint of its machine and its address, so that a second process of the same name refuses to
-- start while a restarted one still recovers its own runs at once.

-- AlterTable
ALTER TABLE "Instance" ADD COLUMN     "nonce" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "pid" INTEGER,
ADD COLUMN     "machine" TEXT,
ADD COLUMN     "address" TEXT;
