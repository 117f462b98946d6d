import { describe, expect, it } from "vitest";
import { newExperimentHref, readNewExperimentParams } from "./prefill";

describe("newExperimentHref", () => {
  it("puts one link in `link` and several in `links`, comma-separated", () => {
    expect(newExperimentHref({ presetId: "streams", linkIds: [4] })).toBe("/experiments/new?preset=streams&link=4");
    expect(newExperimentHref({ presetId: "ports", linkIds: [2, 7] })).toBe("/experiments/new?preset=ports&links=2,7");
    expect(newExperimentHref({})).toBe("/experiments/new");
  });

  it("names the kind only when there is no preset", () => {
    expect(newExperimentHref({ kind: "channels", linkIds: [1] })).toBe("/experiments/new?kind=channels&link=1");
    expect(newExperimentHref({ presetId: "streams", kind: "matrix" })).toBe("/experiments/new?preset=streams");
  });
});

describe("readNewExperimentParams", () => {
  it("reads back what newExperimentHref writes", () => {
    const href = newExperimentHref({ presetId: "ports", linkIds: [2, 7] });
    const params = Object.fromEntries(new URL(href, "http://x").searchParams);
    expect(readNewExperimentParams(params)).toEqual({ presetId: "ports", kind: null, linkIds: [2, 7] });
  });

  it("adds up `link` and `links`, comma-separated or repeated, each id once", () => {
    expect(readNewExperimentParams({ link: "3", links: ["5,3", "9"] }).linkIds).toEqual([3, 5, 9]);
  });

  it("drops ids that are not plain decimal numbers within 32 bits, and unknown kinds", () => {
    expect(readNewExperimentParams({ links: "0,1e3,0x10,-2,2147483648,12,abc" }).linkIds).toEqual([12]);
    expect(readNewExperimentParams({ kind: "sweep; rm" }).kind).toBeNull();
    expect(readNewExperimentParams({ kind: "udp-ceiling" }).kind).toBe("udp-ceiling");
    expect(readNewExperimentParams({ preset: "  " }).presetId).toBeNull();
  });
});
