import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A real, migrated SQLite database in a temporary folder, for tests of code that
 * reads or writes the database. Set the returned env before importing `@/lib/db`.
 */
export function createTestDatabase(): { dataDir: string; url: string; remove: () => void } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-test-"));
  const url = `file:${path.join(dataDir, "wirespeed.db")}`;
  const prisma = path.resolve(__dirname, "../../node_modules/.bin/prisma");
  execFileSync(prisma, ["migrate", "deploy"], {
    cwd: path.resolve(__dirname, "../.."),
    env: { ...process.env, DATABASE_URL: url },
    stdio: "pipe",
  });
  return { dataDir, url, remove: () => fs.rmSync(dataDir, { recursive: true, force: true }) };
}
