import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApi, type TestApi } from "@/testing/test-api";
import { openSecret } from "@/lib/inventory/secrets";

// A real private key goes in through the REST API; no line of it may come back out in a
// response or sit in clear in the SQLite file (or its journal files).

let api: TestApi;
let keyDir: string;
let privateKey: string;
let keyLines: string[];
let databaseDir: string;

beforeAll(async () => {
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-leak-"));
  execFileSync(
    "ssh-keygen",
    ["-q", "-t", "ed25519", "-N", "", "-C", "wirespeed-leak-test", "-f", path.join(keyDir, "key")],
    { stdio: "pipe" },
  );
  privateKey = fs.readFileSync(path.join(keyDir, "key"), "utf8");
  keyLines = privateKey.split("\n").filter((line) => line.trim() !== "");
  api = await openTestApi();
  databaseDir = path.dirname(process.env.DATABASE_URL!.slice("file:".length));
}, 60_000);
afterAll(async () => {
  await api?.close();
  if (keyDir) fs.rmSync(keyDir, { recursive: true, force: true });
});

/** The lines of the key found in `haystack` (as bytes, so any encoding of the file is covered). */
function keyLinesIn(haystack: Buffer | string): string[] {
  const bytes = typeof haystack === "string" ? Buffer.from(haystack) : haystack;
  return keyLines.filter((line) => bytes.includes(line));
}

function databaseFiles(): string[] {
  return fs
    .readdirSync(databaseDir)
    .filter((name) => name.startsWith("wirespeed.db"))
    .map((name) => path.join(databaseDir, name));
}

describe("a private key added through the API", () => {
  it("is a real key of several lines, and the search finds each of them", () => {
    expect(keyLines[0]).toBe("-----BEGIN OPENSSH PRIVATE KEY-----");
    expect(keyLines.at(-1)).toBe("-----END OPENSSH PRIVATE KEY-----");
    expect(keyLines.length).toBeGreaterThanOrEqual(5);
    expect(keyLinesIn(Buffer.from(`x${privateKey}x`))).toEqual(keyLines);
  });

  it("is stored, readable by the server, but no line of it is in any response or in the database files", async () => {
    const responses: string[] = [];
    const created = await api.json("POST", "/api/hosts", {
      name: "leak-test",
      address: "198.18.0.77",
      username: "lab",
      auth: { method: "key", privateKey, passphrase: "leak test passphrase" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ authMethod: "key", hasSecret: true });
    responses.push(created.text);
    const id = created.body.id as number;

    responses.push((await api.json("GET", "/api/hosts")).text);
    responses.push((await api.json("GET", `/api/hosts/${id}`)).text);
    responses.push((await api.json("PATCH", `/api/hosts/${id}`, { notes: "edited after the key was stored" })).text);
    for (const text of responses) {
      expect(keyLinesIn(text), text).toEqual([]);
      expect(text).not.toContain("leak test passphrase");
    }
    // A refused edit does not echo the key it was sent: the message names the armour line as the
    // allowed format, so only the key's own lines (the base64 body) are looked for there.
    const refused = await api.json("PATCH", `/api/hosts/${id}`, {
      auth: { method: "key", privateKey: `${privateKey}not base64 !!`, passphrase: "leak test passphrase" },
    });
    expect(refused.status).toBe(400);
    expect(keyLinesIn(refused.text).filter((line) => !line.startsWith("-----"))).toEqual([]);
    expect(refused.text).not.toContain("leak test passphrase");

    // The server itself still has the key: a test that stored nothing could not fail otherwise.
    const row = await api.db.host.findUniqueOrThrow({ where: { id }, select: { secret: true } });
    expect(openSecret(row.secret!)).toEqual({ privateKey, passphrase: "leak test passphrase" });

    const files = databaseFiles();
    expect(files).toContain(path.join(databaseDir, "wirespeed.db"));
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      expect(keyLinesIn(bytes), file).toEqual([]);
      expect(bytes.includes("leak test passphrase"), file).toBe(false);
    }
    // ... and the key that sealed it sits beside the database, readable by its owner only.
    expect(fs.statSync(path.join(databaseDir, "secret.key")).mode & 0o777).toBe(0o600);
  });
});
