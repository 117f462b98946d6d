import { describe, expect, it } from "vitest";
import { EXPERIMENT_KINDS } from "../contract";
import { parseExperimentRequest } from "../plan";
import { KIND_DEFINITIONS, kindOf, planKind } from "./index";
import { planLink } from "./outcome-builders";

describe("kinds", () => {
  it("has one definition per kind, under its own name", () => {
    expect(Object.keys(KIND_DEFINITIONS).sort()).toEqual([...EXPERIMENT_KINDS].sort());
    for (const kind of EXPERIMENT_KINDS) expect(kindOf(kind).kind).toBe(kind);
  });

  it("binds a plan of any kind to its definition", () => {
    const plan = parseExperimentRequest({ kind: "channels", linkIds: [1], channels: 3 });
    const kind = planKind(plan);
    expect(kind.kind).toBe("channels");
    expect(kind.maxRuns([planLink(1, 40000)])).toBe(3);
    expect(kind.defaultName()).toBe("3 channels");
  });
});
