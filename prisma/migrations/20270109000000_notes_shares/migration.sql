-- Notes and labels on runs, experiments and links (lib/notes), Home Assistant's per-link "Run again"
-- switch (lib/mqtt), and read-only share links (lib/shares). Columns are added, not the tables
-- rebuilt: a lab with years of runs migrates in an instant.
ALTER TABLE "Link" ADD COLUMN "labels" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Link" ADD COLUMN "homeAssistantRunButton" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Experiment" ADD COLUMN "note" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Experiment" ADD COLUMN "labels" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Run" ADD COLUMN "note" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "RunLabel" (
    "runId" INTEGER NOT NULL,
    "label" TEXT NOT NULL,

    PRIMARY KEY ("runId", "label"),
    CONSTRAINT "RunLabel_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Share" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "token" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "targetId" INTEGER NOT NULL,
    "hideAddresses" BOOLEAN NOT NULL DEFAULT false,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "Run_linkId_note_idx" ON "Run"("linkId", "note");

-- CreateIndex
CREATE INDEX "RunLabel_label_runId_idx" ON "RunLabel"("label", "runId");

-- CreateIndex
CREATE UNIQUE INDEX "Share_token_key" ON "Share"("token");

-- CreateIndex
CREATE INDEX "Share_kind_targetId_idx" ON "Share"("kind", "targetId");
