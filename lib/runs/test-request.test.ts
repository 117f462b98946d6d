import { describe, expect, it } from "vitest";
import { parseRunRequest } from "./request";
import {
  directionUnavailableReason,
  formErrorsOf,
  isGatedOption,
  NEW_TEST_DEFAULTS,
  NEW_TEST_PRESETS,
  newTestRequestBody,
  parseSize,
  presetFields,
  presetUnavailableReason,
  unavailableReason,
  withProtocol,
  type NewTestFields,
} from "./test-request";

const preset = (id: string) => NEW_TEST_PRESETS.find((entry) => entry.id === id)!;
const bodyOfPreset = (id: string, speedMbps = 1000) => newTestRequestBody(presetFields(preset(id), speedMbps));
const fields = (changes: Partial<NewTestFields>): NewTestFields => ({ ...NEW_TEST_DEFAULTS, ...changes });

const BASE_BODY = {
  protocol: "tcp",
  parallel: 1,
  direction: "a-to-b",
  clientSide: "a",
  interval: 1,
  zerocopy: false,
  duration: 10,
};

describe("presets → request body", () => {
  it("quick: one TCP stream for 10 s from A to B", () => {
    expect(bodyOfPreset("quick")).toEqual(BASE_BODY);
  });

  it("4 streams for 30 s", () => {
    expect(bodyOfPreset("parallel")).toEqual({ ...BASE_BODY, parallel: 4, duration: 30 });
  });

  it("reverse and bidirectional set the direction, not -R or --bidir", () => {
    expect(bodyOfPreset("reverse")).toEqual({ ...BASE_BODY, direction: "b-to-a" });
    expect(bodyOfPreset("bidir")).toEqual({ ...BASE_BODY, direction: "bidir" });
  });

  it("UDP at the link's line rate, in bit/s", () => {
    expect(bodyOfPreset("udp", 2500)).toEqual({ ...BASE_BODY, protocol: "udp", bitrate: 2_500_000_000 });
  });

  it("every preset makes a request the server accepts", () => {
    for (const entry of NEW_TEST_PRESETS) expect(() => parseRunRequest(bodyOfPreset(entry.id)), entry.id).not.toThrow();
  });

  it("a preset starts from the defaults, not from what was typed before", () => {
    expect(presetFields(preset("reverse"), 1000)).toEqual({ ...NEW_TEST_DEFAULTS, direction: "b-to-a" });
  });
});

describe("advanced options → request body", () => {
  it("sends every option typed, sizes with iperf3's binary K/M/G", () => {
    const body = newTestRequestBody(
      fields({
        clientSide: "b",
        parallel: " 8 ",
        bitrateMbps: "0.5",
        omit: "2",
        interval: "0.5",
        window: "4M",
        length: "128K",
        mss: "1400",
        congestion: " bbr ",
        zerocopy: true,
        tos: "184",
        port: "5201",
      }),
    );
    expect(body).toEqual({
      ...BASE_BODY,
      clientSide: "b",
      parallel: 8,
      bitrate: 500_000,
      omit: 2,
      interval: 0.5,
      window: 4 * 1024 ** 2,
      length: 128 * 1024,
      mss: 1400,
      congestion: "bbr",
      zerocopy: true,
      tos: 184,
      port: 5201,
    });
    expect(parseRunRequest(body).options).toMatchObject({
      parallel: 8,
      reverse: true,
      bitrate: 500_000,
      window: 4 * 1024 ** 2,
      mss: 1400,
      congestion: "bbr",
      port: 5201,
    });
  });

  it("a byte count in place of the duration", () => {
    const body = newTestRequestBody(fields({ lengthMode: "bytes", bytes: "10G", duration: "30" }));
    expect(body).toEqual({
      ...Object.fromEntries(Object.entries(BASE_BODY).filter(([key]) => key !== "duration")),
      bytes: 10 * 1024 ** 3,
    });
  });

  it("UDP leaves out the TCP-only MSS and congestion control the form still holds", () => {
    const body = newTestRequestBody(fields({ protocol: "udp", bitrateMbps: "100", mss: "1400", congestion: "bbr" }));
    expect(body).toEqual({ ...BASE_BODY, protocol: "udp", bitrate: 100_000_000 });
  });

  it("sends text that is not a number as typed, for the server to answer with the field's limits", () => {
    const body = newTestRequestBody(fields({ duration: "ten", bitrateMbps: "fast", window: "4X" }));
    expect(body).toMatchObject({ duration: "ten", bitrate: "fast", window: "4X" });
    expect(() => parseRunRequest(body)).toThrow();
  });

  it("parses sizes", () => {
    expect(parseSize("")).toBeUndefined();
    expect(parseSize("1500")).toBe(1500);
    expect(parseSize("64k")).toBe(65_536);
    expect(parseSize("1.5K")).toBe(1536);
    expect(parseSize("2 g")).toBe(2 * 1024 ** 3);
    expect(parseSize("12 MB")).toBe("12 MB");
  });
});

describe("switching protocol", () => {
  it("UDP without a bitrate starts from the line rate", () => {
    expect(withProtocol(NEW_TEST_DEFAULTS, "udp", 10_000)).toEqual({
      ...NEW_TEST_DEFAULTS,
      protocol: "udp",
      bitrateMbps: "10000",
    });
  });

  it("keeps a bitrate that was typed, either way", () => {
    expect(withProtocol(fields({ bitrateMbps: "300" }), "udp", 10_000).bitrateMbps).toBe("300");
    expect(withProtocol(fields({ protocol: "udp", bitrateMbps: "300" }), "tcp", 10_000)).toEqual(
      fields({ protocol: "tcp", bitrateMbps: "300" }),
    );
  });
});

describe("options a host's iperf3 lacks", () => {
  const current = { hostName: "alpha", iperf3Version: "3.12" };
  const old = { hostName: "nas", iperf3Version: "3.6" };
  const oldest = { hostName: "esx", iperf3Version: "3.0" };
  const unchecked = { hostName: "new", iperf3Version: null };

  it("names the version the flag needs and the host that is older", () => {
    expect(unavailableReason("bidir", [current, old])).toBe("needs iperf3 3.7 or newer; nas has 3.6");
    expect(unavailableReason("bitrateMbps", [oldest, current])).toBe("needs iperf3 3.0.1 or newer; esx has 3.0");
    expect(unavailableReason("congestion", [current, oldest])).toBe("needs iperf3 3.0.1 or newer; esx has 3.0");
  });

  it("refuses nothing both ends have, nor on an end not checked yet", () => {
    expect(unavailableReason("bidir", [current, current])).toBeNull();
    expect(unavailableReason("bidir", [current, unchecked])).toBeNull();
    expect(unavailableReason("parallel", [oldest, oldest])).toBeNull();
    expect(unavailableReason("port", [{ hostName: "git", iperf3Version: "3.9+" }])).toBeNull();
  });

  it("gates the directions: both ways needs --bidir, one way is always there", () => {
    expect(directionUnavailableReason("bidir", [old, current])).toBe("needs iperf3 3.7 or newer; nas has 3.6");
    expect(directionUnavailableReason("b-to-a", [oldest, oldest])).toBeNull();
    expect(directionUnavailableReason("a-to-b", [oldest, oldest])).toBeNull();
  });

  it("disables a preset that sets an option an end lacks", () => {
    expect(presetUnavailableReason(preset("bidir"), 1000, [current, old])).toBe(
      "needs iperf3 3.7 or newer; nas has 3.6",
    );
    expect(presetUnavailableReason(preset("udp"), 1000, [oldest, current])).toBe(
      "needs iperf3 3.0.1 or newer; esx has 3.0",
    );
    for (const id of ["quick", "parallel", "reverse"])
      expect(presetUnavailableReason(preset(id), 1000, [oldest, old]), id).toBeNull();
    for (const entry of NEW_TEST_PRESETS)
      expect(presetUnavailableReason(entry, 1000, [current, current]), entry.id).toBeNull();
  });

  it("knows which fields are gated", () => {
    expect(isGatedOption("window")).toBe(true);
    expect(isGatedOption("duration")).toBe(false);
    expect(isGatedOption("toString")).toBe(false);
  });
});

describe("server errors on the form", () => {
  it("puts bitrate on the Mbit/s field and keeps the first message of a field", () => {
    expect(
      formErrorsOf([
        { field: "bitrate", message: "must be at most 100G" },
        { field: "parallel", message: "must be 1 to 128" },
        { field: "parallel", message: "second" },
      ]),
    ).toEqual({ bitrateMbps: "must be at most 100G", parallel: "must be 1 to 128" });
  });
});
