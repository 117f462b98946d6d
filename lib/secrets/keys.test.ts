import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { secretKeyFromPassphrase } from "@/lib/secrets/envelope";
import { SecretKeyConfigError, loadKeys, readKeyFile, resolveKeyFilePaths } from "@/lib/secrets/keys";

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-keys-"));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function configError(action: () => unknown): SecretKeyConfigError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(SecretKeyConfigError);
    return error as SecretKeyConfigError;
  }
  throw new Error("expected a SecretKeyConfigError");
}

describe("the key file", () => {
  it("is created on first load beside the database, mode 0600, 32 random bytes in base64, and read back after", () => {
    const env = { WIRESPEED_DATA_DIR: dataDir };
    const file = path.join(dataDir, "secret.key");
    const first = loadKeys(env);
    expect(first.source).toMatchObject({ kind: "file", isCreated: true, hasInterruptedRotation: false });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, "utf8");
    expect(text).toMatch(/^[A-Za-z0-9+/]{43}=\n$/);
    expect(Buffer.from(text.trim(), "base64")).toHaveLength(32);
    expect(fs.readdirSync(dataDir)).toEqual(["secret.key"]); // no temporary file left

    const second = loadKeys(env);
    expect(second.source).toMatchObject({ kind: "file", isCreated: false });
    expect(second.keyring.current.id).toBe(first.keyring.current.id);
  });

  it("follows DATABASE_URL's folder when that is what says where the data is", () => {
    const paths = resolveKeyFilePaths({ DATABASE_URL: `file:${dataDir}/sub/other.db` });
    expect(paths.current).toBe(path.join(dataDir, "sub", "secret.key"));
    expect(paths.next).toBe(path.join(dataDir, "sub", "secret.key.new"));
    expect(paths.old).toBe(path.join(dataDir, "sub", "secret.key.old"));
    loadKeys({ DATABASE_URL: `file:${dataDir}/sub/other.db` });
    expect(fs.statSync(paths.current).mode & 0o777).toBe(0o600);
  });

  it.each(["640", "644", "604", "660", "666", "700", "610", "601"])(
    "is refused with mode 0%s, naming the file and the fix",
    (modeText) => {
      const mode = Number.parseInt(modeText, 8);
      const env = { WIRESPEED_DATA_DIR: dataDir };
      const file = path.join(dataDir, "secret.key");
      loadKeys(env);
      fs.chmodSync(file, mode);
      const error = configError(() => loadKeys(env));
      expect(error.message).toContain(`the key file ${file} has mode 0${modeText}, wider than 0600`);
      expect(error.message).toContain(`chmod 600 ${file}`);
      expect(error.message).not.toContain(fs.readFileSync(file, "utf8").trim());
    },
  );

  it("is accepted read-only (0400)", () => {
    const env = { WIRESPEED_DATA_DIR: dataDir };
    const created = loadKeys(env).keyring.current.id;
    fs.chmodSync(path.join(dataDir, "secret.key"), 0o400);
    expect(loadKeys(env).keyring.current.id).toBe(created);
  });

  it.each([
    ["not base64", "hunter2hunter2hunter2hunter2hunter2hunter2!!\n"],
    ["16 bytes", `${Buffer.alloc(16, 7).toString("base64")}\n`],
    ["empty", ""],
    ["two keys", `${Buffer.alloc(32, 1).toString("base64")}\n${Buffer.alloc(32, 2).toString("base64")}\n`],
  ])("is refused when malformed (%s), without quoting it", (_what, content) => {
    const file = path.join(dataDir, "secret.key");
    fs.writeFileSync(file, content, { mode: 0o600 });
    const error = configError(() => loadKeys({ WIRESPEED_DATA_DIR: dataDir }));
    expect(error.message).toContain(`the key file ${file} is malformed`);
    expect(error.message).not.toContain("hunter2");
  });

  it("is refused when it is a folder", () => {
    fs.mkdirSync(path.join(dataDir, "secret.key"), { mode: 0o700 });
    expect(configError(() => loadKeys({ WIRESPEED_DATA_DIR: dataDir })).message).toMatch(/is not a regular file/);
  });

  it("keys of an interrupted rotation are accepted for opening and reported", () => {
    const env = { WIRESPEED_DATA_DIR: dataDir };
    const current = loadKeys(env).keyring.current;
    const paths = resolveKeyFilePaths(env);
    fs.writeFileSync(paths.next, `${Buffer.alloc(32, 9).toString("base64")}\n`, { mode: 0o600 });
    const loaded = loadKeys(env);
    expect(loaded.source).toMatchObject({ kind: "file", hasInterruptedRotation: true });
    expect(loaded.keyring.current.id).toBe(current.id);
    expect(loaded.keyring.all.map((key) => key.id)).toEqual([current.id, readKeyFile(paths.next).id]);
  });
});

describe("WIRESPEED_SECRET", () => {
  const value = "a long enough secret value for tests, 1234567890";

  it("derives the key and creates no key file", () => {
    const loaded = loadKeys({ WIRESPEED_DATA_DIR: dataDir, WIRESPEED_SECRET: value });
    expect(loaded.source).toEqual({ kind: "variable" });
    expect(loaded.keyring.current.id).toBe(secretKeyFromPassphrase(value).id);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it("is refused when shorter than 32 characters, naming the variable and not quoting it", () => {
    const error = configError(() =>
      loadKeys({ WIRESPEED_DATA_DIR: dataDir, WIRESPEED_SECRET: "hunter2-is-31-characters-long!!" }),
    );
    expect(error.message).toMatch(/^WIRESPEED_SECRET is too short: it must be at least 32 characters/);
    expect(error.message).not.toContain("hunter2");
  });

  it("counts characters, not bytes: 31 two-byte characters are too short", () => {
    expect(() => loadKeys({ WIRESPEED_SECRET: "é".repeat(31) })).toThrowError(/WIRESPEED_SECRET is too short/);
    expect(loadKeys({ WIRESPEED_SECRET: "é".repeat(32) }).keyring.all).toHaveLength(1);
  });

  it("accepts WIRESPEED_SECRET_OLD for opening, and checks it the same way", () => {
    const old = "the value before the rotation, 32+ characters long";
    const loaded = loadKeys({ WIRESPEED_SECRET: value, WIRESPEED_SECRET_OLD: old });
    expect(loaded.keyring.current.id).toBe(secretKeyFromPassphrase(value).id);
    expect(loaded.keyring.all.map((key) => key.id)).toEqual([
      secretKeyFromPassphrase(value).id,
      secretKeyFromPassphrase(old).id,
    ]);
    expect(configError(() => loadKeys({ WIRESPEED_SECRET: value, WIRESPEED_SECRET_OLD: "short" })).message).toMatch(
      /^WIRESPEED_SECRET_OLD is too short/,
    );
  });
});
