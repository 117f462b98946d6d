import { describe, expect, it } from "vitest";
import { rateScale } from "@/lib/format";
import {
  atSeconds,
  categoryAxisProps,
  clockAxisProps,
  clockTickFormat,
  clockTicks,
  clockTicksFormat,
  formatSecondsTick,
  rateAxisProps,
  rightAxisProps,
  secondsTicks,
  secondsAxisProps,
} from "./axes";

const HOUR = 3600 * 1000;

describe("clockTickFormat", () => {
  it("writes seconds within an hour, times within a day and a half, weekdays within a week, dates beyond", () => {
    const options = (spanMs: number) => clockTickFormat(spanMs).resolvedOptions();
    expect(options(10 * 60 * 1000)).toMatchObject({ hour: "2-digit", minute: "2-digit", second: "2-digit" });
    expect(options(6 * HOUR)).toMatchObject({ hour: "2-digit", minute: "2-digit" });
    expect(options(6 * HOUR).second).toBeUndefined();
    expect(options(24 * HOUR).second).toBeUndefined();
    expect(options(7 * 24 * HOUR)).toMatchObject({ weekday: "short", day: "numeric" });
    expect(options(30 * 24 * HOUR)).toMatchObject({ month: "short", day: "numeric" });
  });
});

describe("clockTicks", () => {
  const from = new Date(2026, 0, 5, 10, 30).getTime();
  const hoursOf = (ticks: number[]) => ticks.map((tick) => new Date(tick).getHours());

  it("puts a tick on every whole hour of 6 hours", () => {
    expect(hoursOf(clockTicks(from, from + 6 * HOUR))).toEqual([11, 12, 13, 14, 15, 16]);
  });

  it("every 4 hours over a day", () => {
    expect(hoursOf(clockTicks(from, from + 24 * HOUR))).toEqual([12, 16, 20, 0, 4, 8]);
  });

  it("on each midnight over a week", () => {
    const ticks = clockTicks(from, from + 7 * 24 * HOUR);
    expect(ticks.map((tick) => new Date(tick).getDate())).toEqual([6, 7, 8, 9, 10, 11, 12]);
    expect(hoursOf(ticks).every((hour) => hour === 0)).toBe(true);
  });
});

describe("clockTicks of a short span", () => {
  const from = new Date(2026, 0, 5, 10, 31, 17, 250).getTime();
  const local = (tick: number) => {
    const date = new Date(tick);
    return `${date.getHours()}:${date.getMinutes()}:${date.getSeconds()}.${date.getMilliseconds()}`;
  };

  it("every 10 minutes of an hour, every 30 of 3 hours", () => {
    expect(clockTicks(from, from + HOUR).map(local)).toEqual([
      "10:40:0.0",
      "10:50:0.0",
      "11:0:0.0",
      "11:10:0.0",
      "11:20:0.0",
      "11:30:0.0",
    ]);
    expect(clockTicks(from, from + 3 * HOUR).map(local)).toEqual([
      "11:0:0.0",
      "11:30:0.0",
      "12:0:0.0",
      "12:30:0.0",
      "13:0:0.0",
      "13:30:0.0",
    ]);
  });

  it("on whole seconds of a zoom into a test, never more than 7 ticks", () => {
    expect(clockTicks(from, from + 12_000).map(local)).toEqual([
      "10:31:18.0",
      "10:31:20.0",
      "10:31:22.0",
      "10:31:24.0",
      "10:31:26.0",
      "10:31:28.0",
    ]);
    expect(clockTicks(from, from + 3000).map(local)).toEqual(["10:31:18.0", "10:31:19.0", "10:31:20.0"]);
    for (const span of [1000, 4000, 59_000, 61_000, 20 * 60_000, 2.9 * HOUR])
      expect(clockTicks(from, from + span).length).toBeLessThanOrEqual(7);
  });
});

describe("clockTicksFormat", () => {
  it("leaves the seconds out when every tick is on a whole minute", () => {
    const from = new Date(2026, 0, 5, 10, 31, 17).getTime();
    expect(clockTicksFormat(clockTicks(from, from + HOUR), HOUR).resolvedOptions().second).toBeUndefined();
    expect(clockTicksFormat(clockTicks(from, from + 30_000), 30_000).resolvedOptions().second).toBe("2-digit");
    expect(clockTicksFormat([], 30_000).resolvedOptions().second).toBe("2-digit");
  });
});

describe("secondsTicks", () => {
  it("ticks on round seconds, with 0 among them, for a run with idle pings before it", () => {
    expect(secondsTicks([-5, 8])).toEqual([-4, -2, 0, 2, 4, 6, 8]);
    expect(secondsTicks([0, 10])).toEqual([0, 2, 4, 6, 8, 10]);
    expect(secondsTicks([-5, 3600])).toEqual([0, 600, 1200, 1800, 2400, 3000, 3600]);
  });

  it("never gives more than asked", () => {
    for (const end of [1, 7, 13, 59, 61, 599, 86_400]) expect(secondsTicks([-5, end]).length).toBeLessThanOrEqual(8);
  });
});

describe("axis props", () => {
  it("scales the rate axis to the peak, in the viewer's unit", () => {
    const bits = rateAxisProps(rateScale(2.5e9, "bits"), [0, 2.7e9]);
    expect(bits).toMatchObject({ width: 56, domain: [0, 2.7e9], label: { value: "Gbit/s" } });
    expect((bits.tickFormatter as (value: number, index: number) => string)(1.25e9, 0)).toBe("1.25");
    const bytes = rateAxisProps(rateScale(2.5e9, "bytes"), [0, "auto"]);
    expect(bytes.label).toMatchObject({ value: "MB/s" });
    expect((bytes.tickFormatter as (value: number, index: number) => string)(1.25e9, 0)).toBe("156");
  });

  it("draws the clock axis on x in milliseconds", () => {
    expect(clockAxisProps(HOUR)).toMatchObject({ dataKey: "x", type: "number", scale: "time" });
  });

  it("counts seconds into a run on t", () => {
    expect(secondsAxisProps(30)).toMatchObject({ dataKey: "t", type: "number", domain: [0, 30] });
    expect(formatSecondsTick(2.5)).toBe("2.5s");
    expect(formatSecondsTick(10)).toBe("10s");
    expect(formatSecondsTick(0.30000000000000004)).toBe("0.3s");
  });
});

describe("atSeconds", () => {
  it("says the moment to a tenth of a second", () => {
    expect(atSeconds(2.5)).toBe("at 2.5 s");
    expect(atSeconds(0.30000000000000004)).toBe("at 0.3 s");
    expect(atSeconds(12)).toBe("at 12 s");
  });
});

describe("categoryAxisProps and rightAxisProps", () => {
  it("label the steps' axis below it, in the text colour", () => {
    expect(categoryAxisProps("bitrate tried")).toMatchObject({
      dataKey: "label",
      type: "category",
      stroke: "currentColor",
      label: { value: "bitrate tried", position: "insideBottom" },
    });
  });

  it("draw a right axis in its line's colour, labelled only when given a label", () => {
    expect(rightAxisProps("#dc2626", 40)).toEqual({
      orientation: "right",
      width: 40,
      tick: { fill: "#dc2626", fontSize: 12 },
      stroke: "#dc2626",
      strokeOpacity: 0.6,
    });
    expect(rightAxisProps("#9333ea", 44, "ms").label).toEqual({
      value: "ms",
      angle: 90,
      position: "insideRight",
      fill: "#9333ea",
      fontSize: 12,
    });
  });
});
