import { describe, expect, it } from "vitest";
import {
  checkTimelineZoom,
  parseTimelineRange,
  parseTimelineZoom,
  TIMELINE_RANGES,
  TIMELINE_ZOOM_MAX_MS,
  withTimelineZoom,
  zoomOfDrag,
} from "./contract";

const FROM = 1_765_080_000_000;

describe("the timeline's range", () => {
  it("is 1h, 6h, 24h or 7d, in that order; anything else in the URL is 24h", () => {
    expect(Object.keys(TIMELINE_RANGES)).toEqual(["1h", "6h", "24h", "7d"]);
    expect(parseTimelineRange("1h")).toBe("1h");
    for (const value of ["1y", "", undefined, ["1h"], "toString", "constructor"])
      expect(parseTimelineRange(value)).toBe("24h");
  });
});

describe("checkTimelineZoom", () => {
  it("is no zoom without from and to, and the span of both when they are whole milliseconds", () => {
    expect(checkTimelineZoom(null, null)).toEqual({ zoom: null, problems: [] });
    expect(checkTimelineZoom(String(FROM), String(FROM + 60_000))).toEqual({
      zoom: { from: FROM, to: FROM + 60_000 },
      problems: [],
    });
  });

  it("names the field that is wrong", () => {
    expect(checkTimelineZoom(String(FROM), null).problems).toEqual([{ field: "to", message: "is required with from" }]);
    expect(checkTimelineZoom(null, String(FROM)).problems).toEqual([{ field: "from", message: "is required with to" }]);
    for (const bad of ["", "abc", "-5", "1.5", "1e12", "2026-12-06T14:00:00Z", "9".repeat(16)])
      expect(checkTimelineZoom(bad, String(FROM)).problems).toEqual([
        { field: "from", message: "must be whole milliseconds since 1970" },
      ]);
    expect(checkTimelineZoom(String(FROM), String(FROM)).problems).toEqual([
      { field: "to", message: "must be at least 1000 ms after from" },
    ]);
    expect(checkTimelineZoom(String(FROM), String(FROM - 60_000)).zoom).toBeNull();
    expect(checkTimelineZoom(String(FROM), String(FROM + TIMELINE_ZOOM_MAX_MS + 1)).problems).toEqual([
      { field: "to", message: "must be at most 7 days after from" },
    ]);
    expect(checkTimelineZoom(String(FROM), String(FROM + TIMELINE_ZOOM_MAX_MS)).zoom).not.toBeNull();
  });
});

describe("parseTimelineZoom", () => {
  it("reads the page's from and to, and falls back to no zoom on anything wrong", () => {
    expect(parseTimelineZoom(String(FROM), String(FROM + 5000))).toEqual({ from: FROM, to: FROM + 5000 });
    expect(parseTimelineZoom(undefined, undefined)).toBeNull();
    expect(parseTimelineZoom(String(FROM), undefined)).toBeNull();
    expect(parseTimelineZoom([String(FROM)], String(FROM + 5000))).toBeNull();
    expect(parseTimelineZoom("soon", "later")).toBeNull();
    expect(parseTimelineZoom(String(FROM + 5000), String(FROM))).toBeNull();
  });
});

describe("zoomOfDrag", () => {
  const domain: [number, number] = [FROM, FROM + 3600_000];

  it("is the span dragged, either way, in whole milliseconds", () => {
    expect(zoomOfDrag(FROM + 10_000.4, FROM + 70_000.2, domain)).toEqual({ from: FROM + 10_000, to: FROM + 70_001 });
    expect(zoomOfDrag(FROM + 70_000, FROM + 10_000, domain)).toEqual({ from: FROM + 10_000, to: FROM + 70_000 });
  });

  it("stays inside the chart's domain", () => {
    expect(zoomOfDrag(FROM - 5000, FROM + 9000, domain)).toEqual({ from: FROM, to: FROM + 9000 });
    expect(zoomOfDrag(FROM + 3500_000, FROM + 3700_000, domain)).toEqual({
      from: FROM + 3500_000,
      to: FROM + 3600_000,
    });
  });

  it("widens a span narrower than a second about its middle, inside the domain", () => {
    expect(zoomOfDrag(FROM + 10_000, FROM + 10_200, domain)).toEqual({ from: FROM + 9600, to: FROM + 10_600 });
    expect(zoomOfDrag(FROM, FROM + 100, domain)).toEqual({ from: FROM, to: FROM + 1000 });
    expect(zoomOfDrag(FROM + 3600_000 - 100, FROM + 3600_000, domain)).toEqual({
      from: FROM + 3599_000,
      to: FROM + 3600_000,
    });
  });

  it("is no zoom when the numbers are not", () => {
    expect(zoomOfDrag(Number.NaN, FROM, domain)).toBeNull();
    expect(zoomOfDrag(FROM, FROM + 1000, [FROM, FROM])).toBeNull();
  });
});

describe("withTimelineZoom", () => {
  it("sets or takes away from and to, keeping the range", () => {
    const params = new URLSearchParams({ range: "1h" });
    const zoomed = withTimelineZoom(params, { from: FROM, to: FROM + 5000 });
    expect(zoomed.toString()).toBe(`range=1h&from=${FROM}&to=${FROM + 5000}`);
    expect(withTimelineZoom(zoomed, null).toString()).toBe("range=1h");
    expect(params.toString()).toBe("range=1h");
  });
});
