import { describe, expect, it } from "vitest";
import { parseExperimentRequest } from "@/lib/experiments/plan";
import { describeBaseOptions } from "./plan-words";

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
