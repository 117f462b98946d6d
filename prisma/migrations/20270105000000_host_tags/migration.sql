-- A host's free-form tags (the grid's host filter), a JSON list of strings.
ALTER TABLE "Host" ADD COLUMN "tags" JSONB NOT NULL DEFAULT '[]';
