import { describe, expect, it } from "vitest";
import { planLink } from "./kinds/outcome-builders";
import { checkPlan, parseExperimentRequest } from "./plan";
import {
  BOTH_ROLES_PRESET_ID,
  CHANNELS_PRESET_ID,
  EXPERIMENT_PRESETS,
  PORTS_AT_ONCE_PRESET_ID,
  SHARED_BOTTLENECK_PRESET_ID,
  WHOLE_LAB_PRESET_ID,
  A_AGAINST_B_PRESET_ID,
  presetById,
  presetFitsLinks,
  presetRequestBody,
  STREAM_SWEEP_PRESET_ID,
} from "./presets";

const ONE_LINK = [planLink(1, 1000, "lan")];
const TWO_PORTS = [planLink(2, 10000, "port 0"), planLink(3, 10000, "port 1")];

describe("experiment presets", () => {
  it("are the six of the seeds and three of the whole lab, each with its own id", () => {
    expect(EXPERIMENT_PRESETS.map((preset) => preset.title)).toEqual([
      "How many streams?",
      "Every direction",
      "Both roles, TCP and UDP",
      "Ports at once, with each alone first",
      "Channels for 40G+",
      "UDP without loss",
      "The whole lab",
      "Which links share a bottleneck?",
      "A against B",
    ]);
    expect(new Set(EXPERIMENT_PRESETS.map((preset) => preset.id)).size).toBe(9);
  });

  it("each make a plan that parses and passes the check on links it fits", () => {
    for (const preset of EXPERIMENT_PRESETS) {
      const links = preset.links === 1 ? ONE_LINK : TWO_PORTS;
      expect(presetFitsLinks(preset, links.length)).toBe(true);
      const plan = parseExperimentRequest(presetRequestBody(preset, links));
      expect(plan.kind).toBe(preset.kind);
      expect(checkPlan(plan, links).maxRuns).toBeGreaterThan(0);
    }
  });

  it("sweeps 1, 2, 3, 4, 5 and 8 streams", () => {
    const plan = parseExperimentRequest(presetRequestBody(presetById(STREAM_SWEEP_PRESET_ID)!, ONE_LINK));
    expect(plan).toMatchObject({ kind: "sweep", factor: "parallel", values: [1, 2, 3, 4, 5, 8], name: "Stream sweep" });
  });

  it("sets the UDP bitrate of both roles to the link's line rate, and leaves it for the user when the link has no speed", () => {
    const preset = presetById(BOTH_ROLES_PRESET_ID)!;
    const body = presetRequestBody(preset, [planLink(5, 25000)]);
    expect(body).toMatchObject({
      kind: "matrix",
      linkIds: [5],
      options: { bitrate: 25e9 },
      protocols: ["tcp", "udp"],
      clientSides: ["a", "b"],
    });
    expect(checkPlan(parseExperimentRequest(body), [planLink(5, 25000)]).maxRuns).toBe(8);
    expect(() => parseExperimentRequest(presetRequestBody(preset, [planLink(5, 0)]))).toThrow("options.bitrate");
  });

  it("runs the ports together after each alone, on two or more links", () => {
    const preset = presetById(PORTS_AT_ONCE_PRESET_ID)!;
    expect(presetFitsLinks(preset, 1)).toBe(false);
    expect(presetFitsLinks(preset, 3)).toBe(true);
    expect(parseExperimentRequest(presetRequestBody(preset, TWO_PORTS))).toMatchObject({
      kind: "concurrent",
      baseline: true,
      linkIds: [2, 3],
    });
  });

  it("runs 4 channels of 3 streams each, as seeds/003 measures 100G TCP", () => {
    const plan = parseExperimentRequest(presetRequestBody(presetById(CHANNELS_PRESET_ID)!, ONE_LINK));
    expect(plan).toMatchObject({ kind: "channels", channels: 4, options: { parallel: 3 } });
  });

  it("fit the counts of links their kinds take", () => {
    const fits = (id: string) => [1, 2, 3, 8, 9, 64, 65].filter((count) => presetFitsLinks(presetById(id)!, count));
    expect(fits(WHOLE_LAB_PRESET_ID)).toEqual([2, 3, 8, 9, 64]);
    expect(fits(SHARED_BOTTLENECK_PRESET_ID)).toEqual([2, 3, 8]);
    expect(fits(A_AGAINST_B_PRESET_ID)).toEqual([2]);
    expect(fits(STREAM_SWEEP_PRESET_ID)).toEqual([1]);
  });

  it("measure the lab link by link, pair by pair, and A against B", () => {
    expect(parseExperimentRequest(presetRequestBody(presetById(WHOLE_LAB_PRESET_ID)!, TWO_PORTS))).toMatchObject({
      kind: "mesh",
      linkIds: [2, 3],
      hostIds: null,
    });
    expect(
      parseExperimentRequest(presetRequestBody(presetById(SHARED_BOTTLENECK_PRESET_ID)!, TWO_PORTS)),
    ).toMatchObject({ kind: "interference", linkIds: [2, 3] });
    expect(parseExperimentRequest(presetRequestBody(presetById(A_AGAINST_B_PRESET_ID)!, TWO_PORTS))).toMatchObject({
      kind: "versus",
      linkIds: [2, 3],
      variants: null,
      repeats: 5,
    });
  });

  it("finds nothing for an unknown id", () => {
    expect(presetById("nope")).toBeUndefined();
    expect(presetById(null)).toBeUndefined();
  });
});
