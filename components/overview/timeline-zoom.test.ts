import { describe, expect, it } from "vitest";
import { TIMELINE_ZOOM_MIN_MS } from "@/lib/overview/contract";
import { localInputValue, zoomedIn, zoomedOut, zoomOfForm } from "./timeline-zoom";

const HOUR = 3600_000;
const NOW = Date.UTC(2026, 11, 8, 12, 0, 0);

describe("zoomedIn", () => {
  it("is the middle half of what the chart shows", () => {
    expect(zoomedIn([NOW - HOUR, NOW])).toEqual({ from: NOW - 0.75 * HOUR, to: NOW - 0.25 * HOUR });
  });

  it("stops at the narrowest zoom, inside the span", () => {
    expect(zoomedIn([NOW - 1000, NOW])).toEqual({ from: NOW - 1000, to: NOW });
    const narrow = zoomedIn([NOW - 1500, NOW])!;
    expect(narrow.to - narrow.from).toBe(TIMELINE_ZOOM_MIN_MS);
    expect(narrow.from).toBeGreaterThanOrEqual(NOW - 1500);
    expect(narrow.to).toBeLessThanOrEqual(NOW);
  });
});

describe("zoomedOut", () => {
  it("doubles the span about its middle, undoing zoomedIn", () => {
    const half = { from: NOW - 0.75 * HOUR, to: NOW - 0.25 * HOUR };
    const quarter = zoomedIn([half.from, half.to])!;
    expect(zoomedOut([quarter.from, quarter.to], HOUR, NOW)).toEqual(half);
  });

  it("is no zoom once as wide as the range", () => {
    expect(zoomedOut([NOW - 0.75 * HOUR, NOW - 0.25 * HOUR], HOUR, NOW)).toBeNull();
    expect(zoomedOut([NOW - 0.6 * HOUR, NOW], HOUR, NOW)).toBeNull();
  });

  it("stays within the range at either end", () => {
    expect(zoomedOut([NOW - 0.2 * HOUR, NOW], HOUR, NOW)).toEqual({ from: NOW - 0.4 * HOUR, to: NOW });
    expect(zoomedOut([NOW - HOUR, NOW - 0.8 * HOUR], HOUR, NOW)).toEqual({ from: NOW - HOUR, to: NOW - 0.6 * HOUR });
  });
});

describe("zoomOfForm", () => {
  it("reads both fields in the browser's time zone, to the second", () => {
    const from = new Date(2026, 11, 8, 1, 5, 9).getTime();
    const to = new Date(2026, 11, 8, 1, 35, 0).getTime();
    expect(localInputValue(from)).toBe("2026-12-08T01:05:09");
    expect(zoomOfForm(localInputValue(from), localInputValue(to))).toEqual({ zoom: { from, to } });
    // A field without seconds (a browser that hides them) is the minute's start.
    expect(zoomOfForm("2026-12-08T01:05", "2026-12-08T01:35")).toEqual({
      zoom: { from: new Date(2026, 11, 8, 1, 5).getTime(), to },
    });
  });

  it("names the field that is empty or not a time", () => {
    expect(zoomOfForm("", "2026-12-08T01:35")).toEqual({ field: "from", message: "From needs a date and a time." });
    expect(zoomOfForm("2026-12-08T01:05", "soon")).toEqual({ field: "to", message: "To needs a date and a time." });
  });

  it("refuses To before From, or too close, or more than 7 days after, as the URL does", () => {
    expect(zoomOfForm("2026-12-08T01:05:00", "2026-12-08T01:04:00")).toEqual({
      field: "to",
      message: `To must be at least ${TIMELINE_ZOOM_MIN_MS} ms after From.`,
    });
    expect(zoomOfForm("2026-12-08T01:05:00", "2026-12-08T01:05:00")).toMatchObject({ field: "to" });
    expect(zoomOfForm("2026-12-01T01:05:00", "2026-12-08T01:05:01")).toEqual({
      field: "to",
      message: "To must be at most 7 days after From.",
    });
  });
});
