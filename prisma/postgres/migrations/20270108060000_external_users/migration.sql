-- Users an external authority signs in (lib/auth/external.ts): how each user signs in (local, an OpenID
-- Connect provider, a trusted proxy's header) and the external identity that stays when the name changes.

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "source" TEXT NOT NULL DEFAULT 'local',
ADD COLUMN     "subject" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "User_source_subject_key" ON "User"("source", "subject");
