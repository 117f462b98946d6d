import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { MAX_PLAN_RUNS } from "@/lib/experiments/contract";
import { parseExperimentRequest } from "@/lib/experiments/plan";
import { fieldErrorsByKey, type FieldError } from "@/components/forms/use-action-form";
import {
  EXPERIMENT_PRESETS,
  presetById,
  presetRequestBody,
  PORTS_AT_ONCE_PRESET_ID,
  STREAM_SWEEP_PRESET_ID,
  BOTH_ROLES_PRESET_ID,
} from "@/lib/experiments/presets";
import {
  EXPERIMENT_FORM_DEFAULTS,
  experimentFieldOf,
  experimentRequestBody,
  formFieldsOfPreset,
  formHostsOf,
  formFieldsOfRequest,
  initialFormFields,
  linksAmongHosts,
  parseSweepValues,
  planSizeOf,
  sweepValuesText,
  type ExperimentFormFields,
  type FormLink,
} from "./fields";

const end = (hostName: string) => ({ hostName, iperf3Version: "3.12", portMin: 5201, portMax: 5299 });
const LINKS: FormLink[] = [
  { id: 3, name: "ab-1g", speedMbps: 1000, a: end("alpha"), b: end("beta") },
  { id: 5, name: "ab-2g5", speedMbps: 2500, a: end("alpha"), b: end("beta") },
  { id: 9, name: "ab-10g", speedMbps: 10_000, a: end("alpha"), b: end("gamma") },
];

const HOSTS = [
  { id: 1, name: "alpha" },
  { id: 2, name: "beta" },
  { id: 4, name: "gamma" },
];

const experimentFormErrorsOf = (errors: FieldError[]) => fieldErrorsByKey(errors, experimentFieldOf);

function fieldsOf(change: Partial<ExperimentFormFields>): ExperimentFormFields {
  return { ...EXPERIMENT_FORM_DEFAULTS, linkIds: [3], ...change };
}

/** The server's field errors for a body, as the action answers them. */
function serverErrorsOf(body: unknown): Array<{ field: string; message: string }> {
  try {
    parseExperimentRequest(body);
  } catch (error) {
    if (error instanceof AppError) return error.fields;
    throw error;
  }
  throw new Error("the body was accepted");
}

describe("parseSweepValues", () => {
  it("reads each factor's values in the units the form asks for", () => {
    expect(parseSweepValues("parallel", "1, 2 4;8")).toEqual([1, 2, 4, 8]);
    expect(parseSweepValues("window", "256K, 1M, 4096")).toEqual([262_144, 1_048_576, 4096]);
    expect(parseSweepValues("bitrate", "100, 2.5")).toEqual([100_000_000, 2_500_000]);
    expect(parseSweepValues("zerocopy", "on, OFF, maybe")).toEqual([true, false, "maybe"]);
    expect(parseSweepValues("congestion", "cubic, bbr")).toEqual(["cubic", "bbr"]);
  });

  it("sends what does not read as text, for the server to name", () => {
    expect(parseSweepValues("parallel", "1, x")).toEqual([1, "x"]);
    expect(parseSweepValues("parallel", " ")).toEqual([]);
  });

  it("shows values back as they are typed", () => {
    expect(sweepValuesText("bitrate", parseSweepValues("bitrate", "100, 2.5"))).toBe("100, 2.5");
    expect(sweepValuesText("zerocopy", [true, false])).toBe("on, off");
  });
});

describe("experimentRequestBody", () => {
  it("leaves out of the base options what the kind sets: a sweep's factor", () => {
    const body = experimentRequestBody(
      fieldsOf({
        kind: "sweep",
        factor: "parallel",
        values: "1, 2, 4",
        base: { ...EXPERIMENT_FORM_DEFAULTS.base, parallel: "7" },
      }),
    );
    expect(body).toMatchObject({
      kind: "sweep",
      linkIds: [3],
      factor: "parallel",
      values: [1, 2, 4],
      repeats: 1,
      kneePercent: 95,
    });
    expect(body.options).not.toHaveProperty("parallel");
    expect(body).not.toHaveProperty("name");
    expect(parseExperimentRequest(body)).toMatchObject({ kind: "sweep", name: "Stream sweep", values: [1, 2, 4] });
  });

  it("leaves out a matrix's protocol, direction and client side, and its bitrate unless a UDP cell needs it", () => {
    const base = {
      ...EXPERIMENT_FORM_DEFAULTS.base,
      protocol: "udp" as const,
      bitrateMbps: "500",
      direction: "b-to-a" as const,
      clientSide: "b" as const,
    };
    const tcpOnly = experimentRequestBody(fieldsOf({ kind: "matrix", protocols: ["tcp"], base }));
    expect(tcpOnly.options).not.toHaveProperty("bitrate");
    for (const key of ["protocol", "direction", "clientSide"]) expect(tcpOnly.options).not.toHaveProperty(key);
    const withUdp = experimentRequestBody(fieldsOf({ kind: "matrix", protocols: ["tcp", "udp"], base }));
    expect(withUdp.options).toMatchObject({ bitrate: 500_000_000 });
    expect(parseExperimentRequest(withUdp)).toMatchObject({ kind: "matrix", protocols: ["tcp", "udp"] });
  });

  it("gives a UDP ceiling its bounds in bits/s and leaves its protocol and bitrate to it", () => {
    const body = experimentRequestBody(
      fieldsOf({
        kind: "udp-ceiling",
        lowMbps: "100",
        highMbps: "900",
        base: { ...EXPERIMENT_FORM_DEFAULTS.base, bitrateMbps: "5" },
      }),
    );
    expect(body).toMatchObject({ low: 100_000_000, high: 900_000_000, lossPercent: 0.1 });
    expect(body.options).not.toHaveProperty("protocol");
    expect(body.options).not.toHaveProperty("bitrate");
    expect(experimentRequestBody(fieldsOf({ kind: "udp-ceiling" }))).not.toHaveProperty("low");
  });

  it("asks every run for latency under load when checked, and reads it back from a request", () => {
    const body = experimentRequestBody(fieldsOf({ kind: "sweep", latency: true }));
    expect(body.options).toMatchObject({ latency: true });
    expect(parseExperimentRequest(body).options).toMatchObject({ latency: true });
    expect(formFieldsOfRequest(body).latency).toBe(true);
    const plain = experimentRequestBody(fieldsOf({ kind: "sweep" }));
    expect(plain.options).not.toHaveProperty("latency");
    expect(formFieldsOfRequest(plain).latency).toBe(false);
  });

  it("sends every link chosen for a concurrent experiment and the first for the other kinds", () => {
    expect(experimentRequestBody(fieldsOf({ kind: "concurrent", linkIds: [3, 5, 9] })).linkIds).toEqual([3, 5, 9]);
    expect(experimentRequestBody(fieldsOf({ kind: "channels", linkIds: [3, 5] })).linkIds).toEqual([3]);
  });

  it("sends a mesh's links, or its hosts and no links (the server finds the links among them when it starts)", () => {
    const byLinks = experimentRequestBody(fieldsOf({ kind: "mesh", linkIds: [3, 5, 9] }));
    expect(byLinks).toMatchObject({ kind: "mesh", linkIds: [3, 5, 9], hostIds: null });
    expect(byLinks.options).not.toHaveProperty("direction");
    const byHosts = experimentRequestBody(fieldsOf({ kind: "mesh", meshBy: "hosts", hostIds: [1, 2] }));
    expect(byHosts).toMatchObject({ kind: "mesh", hostIds: [1, 2] });
    expect(byHosts).not.toHaveProperty("linkIds");
    expect(parseExperimentRequest(byHosts)).toMatchObject({ kind: "mesh", hostIds: [1, 2], linkIds: [] });
    expect(formFieldsOfRequest(byHosts)).toMatchObject({ kind: "mesh", meshBy: "hosts", hostIds: [1, 2] });
  });

  it("sends an interference experiment's links", () => {
    const body = experimentRequestBody(fieldsOf({ kind: "interference", linkIds: [3, 5, 9] }));
    expect(parseExperimentRequest(body)).toMatchObject({ kind: "interference", linkIds: [3, 5, 9] });
  });

  it("sends a versus of two option sets on one link: the option that differs, each side named by its value unless named", () => {
    const fields = fieldsOf({
      kind: "versus",
      linkIds: [3, 5],
      versusBy: "variants",
      variantFactor: "zerocopy",
      variantValues: ["off", "on"],
      variantNames: ["", "zero-copy"],
      versusRepeats: "4",
      base: { ...EXPERIMENT_FORM_DEFAULTS.base, zerocopy: true },
    });
    const body = experimentRequestBody(fields);
    expect(body).toMatchObject({
      linkIds: [3],
      repeats: 4,
      variants: [
        { name: "off", options: { zerocopy: false } },
        { name: "zero-copy", options: { zerocopy: true } },
      ],
    });
    expect(body.options).not.toHaveProperty("zerocopy");
    expect(parseExperimentRequest(body)).toMatchObject({ kind: "versus", repeats: 4, name: "off against zero-copy" });
    expect(formFieldsOfRequest(body)).toMatchObject({
      versusBy: "variants",
      variantFactor: "zerocopy",
      variantValues: ["off", "on"],
      variantNames: ["", "zero-copy"],
      versusRepeats: "4",
      repeats: EXPERIMENT_FORM_DEFAULTS.repeats,
    });
  });

  it("sends a versus of two links as A and B, without variants", () => {
    const body = experimentRequestBody(fieldsOf({ kind: "versus", versusBy: "links", linkIds: [5, 3, 9] }));
    expect(body).toMatchObject({ linkIds: [5, 3], variants: null, repeats: 5 });
    expect(parseExperimentRequest(body)).toMatchObject({ kind: "versus", linkIds: [5, 3], variants: null });
    expect(formFieldsOfRequest(body)).toMatchObject({ versusBy: "links", linkIds: [5, 3] });
  });

  it("makes from every preset the plan the preset's own body makes", () => {
    for (const preset of EXPERIMENT_PRESETS) {
      const links = preset.links === 1 ? LINKS.slice(0, 1) : LINKS.slice(0, 2);
      const expected = parseExperimentRequest(presetRequestBody(preset, links));
      const plan = parseExperimentRequest(experimentRequestBody(formFieldsOfPreset(preset, links)));
      const { options, ...rest } = plan;
      const { options: expectedOptions, ...expectedRest } = expected;
      expect(rest, preset.id).toEqual(expectedRest);
      // The form adds its defaults (duration, direction, …) to the options the preset sets.
      expect(options, preset.id).toMatchObject(expectedOptions);
    }
  });
});

describe("experimentFieldOf", () => {
  it("puts each of the server's messages beside its field, naming the field", () => {
    const body = experimentRequestBody(
      fieldsOf({ values: "1, x, 2, 2", repeats: "11", base: { ...EXPERIMENT_FORM_DEFAULTS.base, duration: "0" } }),
    );
    const errors = experimentFormErrorsOf(serverErrorsOf(body));
    expect(errors.repeats).toMatch(/^repeats must be a whole number from 1 to 10/);
    expect(errors.values).toMatch(/^values\[1\] must be a number/);
    expect(errors["base.duration"]).toMatch(/^options\.duration must be a whole number from 1/);
  });

  it("puts a versus side's errors beside that side's value and name", () => {
    const body = experimentRequestBody(
      fieldsOf({ kind: "versus", variantValues: ["cubic", "cubic"], variantNames: ["", ""], versusRepeats: "2" }),
    );
    const errors = experimentFormErrorsOf(serverErrorsOf(body));
    expect(errors["variants[1].name"]).toMatch(/A's name too/);
    expect(errors.repeats).toMatch(/^repeats must be a whole number from 3 to 20/);
    expect(experimentFormErrorsOf([{ field: "variants[1].options.parallel", message: "must be 1 to 128" }])).toEqual({
      "variants[1]": "variants[1].options.parallel must be 1 to 128",
    });
  });

  it("maps the body's names onto the form's: bitrate in Mbit/s, the UDP bounds, indexed links", () => {
    const errors = experimentFormErrorsOf([
      { field: "options.bitrate", message: "is required for the UDP cells" },
      { field: "low", message: "must be below high (900 Mbit/s)" },
      { field: "linkIds[1]", message: "link 3 is given twice" },
    ]);
    expect(errors).toEqual({
      "base.bitrateMbps": "options.bitrate is required for the UDP cells",
      lowMbps: "low must be below high (900 Mbit/s)",
      linkIds: "link 3 is given twice",
    });
  });
});

describe("planSizeOf", () => {
  it("counts runs and steps as the kinds do, and the time of each step plus its set-up", () => {
    const sweep = planSizeOf(
      fieldsOf({
        values: "1, 2, 3, 4, 5, 8",
        repeats: "2",
        base: { ...EXPERIMENT_FORM_DEFAULTS.base, duration: "10", omit: "2" },
      }),
      LINKS,
    );
    expect(sweep).toEqual({
      runs: 12,
      steps: 12,
      isUpperBound: false,
      seconds: 12 * (10 + 2 + 3),
      defaultName: "Stream sweep",
    });
  });

  it("counts a step's runs at once: links together take one step", () => {
    const together = planSizeOf(fieldsOf({ kind: "concurrent", linkIds: [3, 5], baseline: true }), LINKS);
    expect(together).toMatchObject({ runs: 4, steps: 3, seconds: 3 * (10 + 3) });
  });

  it("gives a search's runs as an upper bound, with its short runs", () => {
    const preset = presetById("udp-without-loss")!;
    // 14 steps at most: the line rate, 7 halvings down to 1% of it, 6 bisections.
    expect(planSizeOf(formFieldsOfPreset(preset, LINKS.slice(0, 1)), LINKS)).toMatchObject({
      isUpperBound: true,
      seconds: 14 * (3 + 3),
    });
  });

  it("counts a mesh by hosts over the links with both ends among them, each both ways", () => {
    expect(linksAmongHosts([1, 2], LINKS, HOSTS).map((link) => link.id)).toEqual([3, 5]);
    const mesh = planSizeOf(fieldsOf({ kind: "mesh", meshBy: "hosts", hostIds: [1, 2] }), LINKS, HOSTS);
    expect(mesh).toMatchObject({ runs: 4, steps: 4, defaultName: "The whole lab" });
    expect(planSizeOf(fieldsOf({ kind: "versus", versusBy: "links", linkIds: [3, 5] }), LINKS)).toMatchObject({
      runs: 10,
      steps: 10,
    });
  });

  it("says when the plan holds more runs than allowed, and nothing while the fields make no plan", () => {
    const tooLarge = planSizeOf(fieldsOf({ values: "1, 2, 3, 4, 5, 6, 7, 8, 9", repeats: "8" }), LINKS);
    expect(tooLarge).toEqual({ tooLarge: `this plan takes 72 runs; at most ${MAX_PLAN_RUNS}` });
    expect(planSizeOf(fieldsOf({ linkIds: [] }), LINKS)).toBeNull();
    expect(planSizeOf(fieldsOf({ values: "1, x" }), LINKS)).toBeNull();
  });
});

describe("formHostsOf", () => {
  it("lists each host at the end of a link once, by name", () => {
    const end = (id: number, name: string) => ({ host: { id, name } });
    expect(
      formHostsOf([
        { a: end(2, "beta"), b: end(1, "alpha") },
        { a: end(1, "alpha"), b: end(4, "gamma") },
      ]),
    ).toEqual([
      { id: 1, name: "alpha" },
      { id: 2, name: "beta" },
      { id: 4, name: "gamma" },
    ]);
  });
});

describe("initialFormFields", () => {
  it("applies the preset of the address to the links that exist", () => {
    const { fields, presetId } = initialFormFields(
      { presetId: PORTS_AT_ONCE_PRESET_ID, kind: null, linkIds: [5, 404, 3] },
      LINKS,
    );
    expect(presetId).toBe(PORTS_AT_ONCE_PRESET_ID);
    expect(fields).toMatchObject({ kind: "concurrent", linkIds: [5, 3], baseline: true });
  });

  it("keeps the first link for a preset of one link, and fills the line rate from it", () => {
    const { fields } = initialFormFields({ presetId: BOTH_ROLES_PRESET_ID, kind: null, linkIds: [5, 3] }, LINKS);
    expect(fields).toMatchObject({ kind: "matrix", linkIds: [5], clientSides: ["a", "b"] });
    expect(fields.base.bitrateMbps).toBe("2500");
    expect(initialFormFields({ presetId: STREAM_SWEEP_PRESET_ID, kind: null, linkIds: [9] }, LINKS).fields.values).toBe(
      "1, 2, 3, 4, 5, 8",
    );
  });

  it("without a preset, takes the kind asked for, or links together when several are given", () => {
    expect(initialFormFields({ presetId: "nope", kind: "channels", linkIds: [3, 5] }, LINKS)).toMatchObject({
      presetId: null,
      fields: { kind: "channels", linkIds: [3] },
    });
    expect(initialFormFields({ presetId: null, kind: null, linkIds: [3, 5] }, LINKS).fields).toMatchObject({
      kind: "concurrent",
      linkIds: [3, 5],
    });
    expect(initialFormFields({ presetId: null, kind: "versus", linkIds: [5, 3] }, LINKS).fields).toMatchObject({
      kind: "versus",
      versusBy: "links",
      linkIds: [5, 3],
    });
    expect(initialFormFields({ presetId: null, kind: null, linkIds: [] }, LINKS).fields).toMatchObject({
      kind: "sweep",
      linkIds: [],
    });
  });
});
