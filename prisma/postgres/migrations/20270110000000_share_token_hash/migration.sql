-- Share links keep the SHA-256 of their token, as sessions and API tokens do (lib/shares/store.ts).
-- The column is renamed here; the tokens already stored are hashed when the server starts
-- (hashStoredShareTokens), as on SQLite, before it serves a request: their links keep working.
ALTER TABLE "Share" RENAME COLUMN "token" TO "tokenHash";

-- RenameIndex
ALTER INDEX "Share_token_key" RENAME TO "Share_tokenHash_key";
