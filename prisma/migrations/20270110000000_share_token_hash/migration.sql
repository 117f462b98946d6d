-- Share links keep the SHA-256 of their token, as sessions and API tokens do (lib/shares/store.ts).
-- The column is renamed here; SQLite has no SHA-256 of its own, so the tokens already stored are
-- hashed when the server starts (hashStoredShareTokens), before it serves a request: their links
-- keep working.
ALTER TABLE "Share" RENAME COLUMN "token" TO "tokenHash";

-- DropIndex
DROP INDEX "Share_token_key";

-- CreateIndex
CREATE UNIQUE INDEX "Share_tokenHash_key" ON "Share"("tokenHash");
