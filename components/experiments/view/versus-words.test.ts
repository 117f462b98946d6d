import { describe, expect, it } from "vitest";
import type { VersusResult } from "@/lib/experiments/contract";
import { versusClearWords } from "./versus-words";

const result = (change: Partial<VersusResult>): VersusResult => ({
  sides: [],
  differencePercent: -38,
  clear: true,
  pairsAgreeing: 5,
  pairs: 5,
  ...change,
});

describe("versusClearWords", () => {
  it("says whether B's difference stands out from the runs' spread, and how many pairs went that way", () => {
    expect(versusClearWords(result({}))).toBe(
      "A clear difference: B's runs are slower than A's beyond their run-to-run spread; 5 of 5 pairs (A then B) went that way.",
    );
    expect(versusClearWords(result({ differencePercent: 4.2, clear: false, pairsAgreeing: 3 }))).toBe(
      "Not a clear difference: A's and B's runs overlap, so B being 4.2% faster may be noise; 3 of 5 pairs (A then B) went that way.",
    );
  });

  it("says nothing while a side has no rate, and no difference for equal medians", () => {
    expect(versusClearWords(result({ differencePercent: null }))).toBeNull();
    expect(versusClearWords(result({ differencePercent: 0, clear: false, pairsAgreeing: 0 }))).toBe(
      "No difference: A's and B's medians are the same.",
    );
  });
});
