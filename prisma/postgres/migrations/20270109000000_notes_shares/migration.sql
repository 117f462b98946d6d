-- Notes and labels on runs, experiments and links (lib/notes), Home Assistant's per-link "Run again"
-- switch (lib/mqtt), and read-only share links (lib/shares).

-- AlterTable
ALTER TABLE "Link" ADD COLUMN     "labels" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "homeAssistantRunButton" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN     "note" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "labels" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "note" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "RunLabel" (
    "runId" INTEGER NOT NULL,
    "label" TEXT NOT NULL,

    CONSTRAINT "RunLabel_pkey" PRIMARY KEY ("runId","label")
);

-- CreateTable
CREATE TABLE "Share" (
    "id" SERIAL NOT NULL,
    "token" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "targetId" INTEGER NOT NULL,
    "hideAddresses" BOOLEAN NOT NULL DEFAULT false,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,

    CONSTRAINT "Share_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Run_linkId_note_idx" ON "Run"("linkId", "note");

-- CreateIndex
CREATE INDEX "RunLabel_label_runId_idx" ON "RunLabel"("label", "runId");

-- CreateIndex
CREATE UNIQUE INDEX "Share_token_key" ON "Share"("token");

-- CreateIndex
CREATE INDEX "Share_kind_targetId_idx" ON "Share"("kind", "targetId");

-- AddForeignKey
ALTER TABLE "RunLabel" ADD CONSTRAINT "RunLabel_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
