import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkDataDir, ensureDataDir, prepareDatabaseFile, preparedMessages, warnAboutDataDir } from "./data-dir";

let scratch: string;
let umask: number;
beforeEach(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-modes-"));
  // the widest umask there is: every mode below is the code's doing, not the umask's
  umask = process.umask(0);
});
afterEach(() => {
  process.umask(umask);
  fs.rmSync(scratch, { recursive: true, force: true });
});

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

describe("ensureDataDir", () => {
  it("creates the folder, and any missing parent, 0700", () => {
    const dir = path.join(scratch, "srv", "wirespeed");
    expect(ensureDataDir(dir)).toBe(true);
    expect(modeOf(dir)).toBe("700");
    expect(modeOf(path.dirname(dir))).toBe("700");
  });

  it("fails, rather than hangs, where the folder cannot be made under a parent that exists", () => {
    // mkdirSync's `recursive` loops for ever on this path
    expect(() => ensureDataDir("/proc/wirespeed-no-such-dir/data")).toThrow(/ENOENT.*\/proc\/wirespeed-no-such-dir/);
  });

  it("leaves an existing folder's mode as it is", () => {
    const dir = path.join(scratch, "shared");
    fs.mkdirSync(dir, { mode: 0o755 });
    expect(ensureDataDir(dir)).toBe(false);
    expect(modeOf(dir)).toBe("755");
  });
});

describe("prepareDatabaseFile", () => {
  it("creates a missing database 0600, in a folder it creates 0700", () => {
    const file = path.join(scratch, "data", "wirespeed.db");
    expect(prepareDatabaseFile(file)).toEqual({ isCreated: true, narrowed: [], left: [] });
    expect(modeOf(file)).toBe("600");
    expect(fs.statSync(file).size).toBe(0);
    expect(modeOf(path.dirname(file))).toBe("700");
  });

  it("narrows a database, its -wal and -shm that others could read to 0600 (a copy restored with cp), and says which", () => {
    const file = path.join(scratch, "wirespeed.db");
    for (const [name, mode] of [
      ["wirespeed.db", 0o644],
      ["wirespeed.db-wal", 0o664],
      ["wirespeed.db-shm", 0o600],
    ] as const) {
      fs.writeFileSync(path.join(scratch, name), "x", { mode });
    }
    const prepared = prepareDatabaseFile(file);
    expect(prepared).toEqual({
      isCreated: false,
      narrowed: [
        { file, mode: 0o644 },
        { file: `${file}-wal`, mode: 0o664 },
      ],
      left: [],
    });
    expect(preparedMessages(prepared)).toEqual([
      `${file} had mode 0644: narrowed to 0600, as the database and its -wal and -shm files are kept`,
      `${file}-wal had mode 0664: narrowed to 0600, as the database and its -wal and -shm files are kept`,
    ]);
    expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual(["600", "600", "600"]);
    expect(fs.readFileSync(file, "utf8")).toBe("x");
  });
});

describe("checkDataDir", () => {
  const envOf = (dir: string) => ({ WIRESPEED_DATA_DIR: dir });

  it.each(["755", "750", "705", "711", "777"])(
    "warns about a data folder of mode 0%s, naming it, its mode and the fix, and leaves it so",
    (modeText) => {
      const dir = path.join(scratch, "data");
      fs.mkdirSync(dir);
      fs.chmodSync(dir, Number.parseInt(modeText, 8));
      const warnings = checkDataDir(envOf(dir));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`the data folder ${dir} has mode 0${modeText}`);
      expect(warnings[0]).toContain(`\`chmod 700 ${dir}\``);
      expect(modeOf(dir)).toBe(modeText);
    },
  );

  it("says nothing about a private folder, nor about a folder not made yet", () => {
    const dir = path.join(scratch, "data");
    prepareDatabaseFile(path.join(dir, "wirespeed.db"));
    expect(checkDataDir(envOf(dir))).toEqual([]);
    fs.chmodSync(dir, 0o500);
    expect(checkDataDir(envOf(dir))).toEqual([]);
    expect(checkDataDir(envOf(path.join(scratch, "not-yet")))).toEqual([]);
  });

  it("looks at the folder DATABASE_URL puts the database in", () => {
    const dir = path.join(scratch, "elsewhere");
    fs.mkdirSync(dir, { mode: 0o755 });
    expect(checkDataDir({ WIRESPEED_DATA_DIR: scratch, DATABASE_URL: `file:${dir}/lab.db` })).toEqual([
      expect.stringContaining(`the data folder ${dir} has mode 0755`),
    ]);
  });

  it("is one line of the log at start", () => {
    const dir = path.join(scratch, "data");
    fs.mkdirSync(dir, { mode: 0o755 });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      warnAboutDataDir(envOf(dir));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(
        /^\[wirespeed\] warning: the data folder .* has mode 0755: [^\n]*chmod 700 [^\n]*$/,
      );
    } finally {
      warn.mockRestore();
    }
  });
});
