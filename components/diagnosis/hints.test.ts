import { describe, expect, it } from "vitest";
import type { Hint } from "@/lib/diagnosis/contract";
import { hintSourceOf, sortHints } from "./hints";

function hint(id: Hint["id"], severity: Hint["severity"], source?: Hint["source"]): Hint {
  return { id, severity, title: id, evidence: "", suggestion: "", source };
}

describe("sortHints", () => {
  it("puts critical findings first and keeps the rules' order within a severity", () => {
    const hints = [
      hint("standard-frames", "info"),
      hint("mtu-mismatch", "warning"),
      hint("pcie-slot", "critical"),
      hint("retransmits", "warning"),
      hint("small-buffers", "info"),
    ];
    expect(sortHints(hints).map((entry) => entry.id)).toEqual([
      "pcie-slot",
      "mtu-mismatch",
      "retransmits",
      "standard-frames",
      "small-buffers",
    ]);
  });

  it("leaves the list it was given as it was", () => {
    const hints = [hint("standard-frames", "info"), hint("pcie-slot", "critical")];
    sortHints(hints);
    expect(hints.map((entry) => entry.id)).toEqual(["standard-frames", "pcie-slot"]);
  });
});

describe("hintSourceOf", () => {
  it("links a finding to the run or the experiment it came from", () => {
    expect(hintSourceOf(hint("retransmits", "warning", { kind: "run", id: 12 }))).toEqual({
      href: "/runs/12",
      label: "run #12",
    });
    expect(hintSourceOf(hint("single-stream", "warning", { kind: "experiment", id: 3 }))).toEqual({
      href: "/experiments/3",
      label: "experiment #3",
    });
  });

  it("has nothing to link without a source", () => {
    expect(hintSourceOf(hint("retransmits", "warning"))).toBeNull();
  });
});
