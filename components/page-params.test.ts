import { describe, expect, it } from "vitest";
import { pageIdOf } from "./page-params";

describe("pageIdOf", () => {
  it("takes a plain decimal id within 32 bits", () => {
    expect(pageIdOf("1")).toBe(1);
    expect(pageIdOf("2147483647")).toBe(2_147_483_647);
  });

  it("refuses anything else", () => {
    for (const raw of ["0", "-1", "1e3", "0x10", " 3", "3.0", "2147483648", "12345678901", ""]) {
      expect(pageIdOf(raw)).toBeNull();
    }
  });
});
