import { describe, expect, it } from "vitest";
import { ImportRequestSchema, MAX_IMPORT_OUTPUTS } from "@/lib/imports/contract";
import { importRequestOf } from "./import-request";

const base = { files: [], pasted: "", clientSide: "a" as const, startedAt: "" };

describe("importRequestOf", () => {
  it("sends each file and the pasted output with its name, the side and the time", () => {
    const result = importRequestOf({
      ...base,
      files: [{ name: "one.txt", text: "x" }],
      pasted: "y",
      clientSide: "b",
      startedAt: "2026-11-30T21:05",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.request.outputs.map((output) => [output.name, output.text, output.clientSide])).toEqual([
      ["one.txt", "x", "b"],
      ["pasted output", "y", "b"],
    ]);
    expect(new Date(result.request.outputs[0]!.startedAt!).getTime()).toBe(new Date("2026-11-30T21:05").getTime());
    // what the API accepts as it is
    expect(ImportRequestSchema.safeParse(result.request).success).toBe(true);
  });

  it("leaves the time out when none is given (the server takes the upload time)", () => {
    const result = importRequestOf({ ...base, pasted: "y" });
    expect(result.ok && result.request.outputs[0]!.startedAt).toBe(undefined);
  });

  it("names the field at fault", () => {
    expect(importRequestOf(base)).toMatchObject({
      ok: false,
      field: "files",
      message: expect.stringMatching(/paste one output/),
    });
    const many = Array.from({ length: MAX_IMPORT_OUTPUTS + 1 }, (_, index) => ({ name: `${index}.txt`, text: "x" }));
    expect(importRequestOf({ ...base, files: many })).toMatchObject({
      ok: false,
      field: "files",
      message: `At most 50 outputs at once: 51 were given.`,
    });
    expect(importRequestOf({ ...base, files: [{ name: "blank.txt", text: " \n" }] })).toMatchObject({
      ok: false,
      field: "files",
      message: "blank.txt is empty.",
    });
    expect(importRequestOf({ ...base, pasted: "y", startedAt: "yesterday" })).toMatchObject({
      ok: false,
      field: "startedAt",
    });
  });

  it("refuses more than 20 MB in all before sending", () => {
    const big = "a".repeat(11 * 1024 * 1024);
    const result = importRequestOf({
      ...base,
      files: [
        { name: "1.txt", text: big },
        { name: "2.txt", text: big },
      ],
    });
    expect(result).toMatchObject({
      ok: false,
      field: "files",
      message: expect.stringMatching(/^At most 20 MB in all: these make 22\.0 MB\.$/),
    });
  });
});
