import { describe, expect, it } from "vitest";
import { parseExperimentRequest } from "@/lib/experiments/plan";
import { describeBaseOptions, describePlanSteps } from "./plan-words";

describe("describeBaseOptions", () => {
  it("writes a matrix's shared options without the protocol and direction its cells set, latency under load included", () => {
    const matrix = (options: Record<string, unknown>) =>
      parseExperimentRequest({
        kind: "matrix",
        linkIds: [1],
        options: { duration: 2, parallel: 4, ...options },
        directions: ["a-to-b", "b-to-a"],
        protocols: ["tcp"],
        clientSides: ["a"],
      });
    expect(describeBaseOptions(matrix({}))).toBe("×4 2s");
    expect(describeBaseOptions(matrix({ latency: true }))).toBe("×4 2s + latency");
  });

  it("writes the other kinds' options as the runs table does", () => {
    const sweep = parseExperimentRequest({
      kind: "sweep",
      linkIds: [1],
      options: { duration: 2, latency: true },
      factor: "parallel",
      values: [1, 2],
    });
    expect(describeBaseOptions(sweep)).toBe("TCP 2s → + latency");
  });
});

describe("describePlanSteps", () => {
  it("says what a mesh, an interference and a versus run", () => {
    const mesh = parseExperimentRequest({ kind: "mesh", hostIds: [1, 2, 3], options: { duration: 2 } });
    expect(describePlanSteps(mesh)).toBe("Every link among 3 hosts, each both ways, one run at a time");
    expect(describeBaseOptions(mesh)).toBe("TCP 2s");
    const interference = parseExperimentRequest({ kind: "interference", linkIds: [1, 2, 3], options: {} });
    expect(describePlanSteps(interference)).toBe("3 links each alone, then the 3 pairs of them together");
    const versus = parseExperimentRequest({
      kind: "versus",
      linkIds: [1],
      options: {},
      variants: [
        { name: "cubic", options: { congestion: "cubic" } },
        { name: "bbr", options: { congestion: "bbr" } },
      ],
    });
    expect(describePlanSteps(versus)).toBe("A (cubic) against B (bbr), alternately, 5 runs each");
  });
});
