import { describe, expect, it } from "vitest";
import { baseRequestOf, parseExperimentRequest } from "../plan";
import type { PlanOf } from "../contract";
import { planLink, stepOutcome } from "./outcome-builders";
import { channelsKind } from "./channels";

const link100g = planLink(7, 100000, "100G port 0");

function channelsPlan(fields: Record<string, unknown>, options: Record<string, unknown> = {}): PlanOf<"channels"> {
  return parseExperimentRequest({ kind: "channels", linkIds: [7], options, ...fields }) as PlanOf<"channels">;
}

describe("channels steps", () => {
  it("starts K runs on the link in one step, channel 1 to K, each with the base's streams", () => {
    const plan = channelsPlan({ channels: 4 }, { parallel: 3, duration: 60 });
    const steps = channelsKind.steps(plan, baseRequestOf(plan), [link100g])!;
    expect(steps).toHaveLength(1);
    expect(steps[0]!.label).toBe("4 channels");
    expect(
      steps[0]!.runs.map((run) => [
        run.linkId,
        run.channel,
        run.clientSide,
        run.options.parallel,
        run.options.duration,
      ]),
    ).toEqual([
      [7, 1, "a", 3, 60],
      [7, 2, "a", 3, 60],
      [7, 3, "a", 3, 60],
      [7, 4, "a", 3, 60],
    ]);
    expect(steps[0]!.runs[0]!.options).not.toHaveProperty("affinity");
    expect([channelsKind.maxRuns(plan, [link100g]), channelsKind.maxSteps(plan, [link100g])]).toEqual([4, 1]);
  });

  it("pins channel i to core i-1 on both ends with affinity", () => {
    const plan = channelsPlan({ channels: 3, affinity: true });
    const runs = channelsKind.steps(plan, baseRequestOf(plan), [link100g])![0]!.runs;
    expect(runs.map((run) => run.options.affinity)).toEqual(["0,0", "1,1", "2,2"]);
  });

  it("takes 2 to 16 channels, and no fixed port", () => {
    expect(() => channelsPlan({ channels: 1 })).toThrow("channels must be a whole number from 2 to 16 iperf3 pairs");
    expect(() => channelsPlan({ channels: 17 })).toThrow("channels must be a whole number from 2 to 16 iperf3 pairs");
    expect(() => channelsPlan({})).toThrow("channels must be a whole number from 2 to 16 iperf3 pairs");
    expect(() => channelsPlan({ channels: 4 }, { port: 5201 })).toThrow(
      "options.port must be left out: each channel takes a port of its own",
    );
  });

  it("checks the port range of the end that runs the server", () => {
    const narrowA = { ...link100g, portRanges: { a: { min: 5201, max: 5202 }, b: { min: 5201, max: 5299 } } };
    expect(
      channelsKind.check(channelsPlan({ channels: 8 }), baseRequestOf(channelsPlan({ channels: 8 })), [narrowA]),
    ).toEqual([]);
    const clientOnB = channelsPlan({ channels: 8 }, { clientSide: "b" });
    expect(channelsKind.check(clientOnB, baseRequestOf(clientOnB), [narrowA])).toEqual([
      {
        field: "channels",
        message:
          "8 channels need 8 ports, but the server's end (a) has 5201-5202, 2 ports: widen its host's port range or take fewer channels",
      },
    ]);
  });
});

describe("channels result", () => {
  it("adds up seeds/003's 100G TCP channels with a sum row", () => {
    const plan = channelsPlan({ channels: 4 }, { parallel: 3 });
    const [step] = channelsKind.steps(plan, baseRequestOf(plan), [link100g])!;
    const rates = [23.8e9, 35.9e9, 29.6e9, 10.2e9];
    // finished in another order than started: the rows still go by channel
    const done = stepOutcome(
      0,
      step!,
      rates.map((rate, index) => ({
        sentBitsPerSecond: rate,
        receivedBitsPerSecond: rate,
        retransmits: 0,
        streams: 3,
        port: 5201 + index,
      })),
    );
    done.runs.reverse();
    const result = channelsKind.result(plan, [link100g], [done]);
    expect(result.rows.map((row) => [row.channel, row.port, row.receivedBitsPerSecond, row.streams])).toEqual([
      [1, 5201, 23.8e9, 3],
      [2, 5202, 35.9e9, 3],
      [3, 5203, 29.6e9, 3],
      [4, 5204, 10.2e9, 3],
    ]);
    expect(result.sum.receivedBitsPerSecond).toBeCloseTo(99.5e9, -3);
    expect(result.sum.retransmits).toBe(0);
    expect(result.sum.jitterMs).toBeNull();
    expect(channelsKind.answer(plan, [link100g], result)).toBe(
      "4 channels: 99.5 Gbit/s in all (99.5% of the line rate)",
    );
  });

  it("adds up seeds/003's 8 UDP channels of 11.8 Gbit/s to 94.4, with jitter and loss", () => {
    const plan = channelsPlan({ channels: 8 }, { protocol: "udp", bitrate: 11.8e9 });
    const [step] = channelsKind.steps(plan, baseRequestOf(plan), [link100g])!;
    const jitters = [0.002, 0.001, 0.001, 0, 0.003, 0.007, 0.008, 0.001];
    const done = stepOutcome(
      0,
      step!,
      jitters.map((jitterMs, index) => ({
        sentBitsPerSecond: 11.8e9,
        receivedBitsPerSecond: 11.8e9,
        jitterMs,
        // each channel's counts as its receiver printed them, and its loss from them (lossPercent)
        lostPackets: index === 0 ? 814 : 0,
        packets: 1_018_000 + index,
        lostPercent: index === 0 ? (100 * 814) / 1_018_000 : 0,
        intervals: [
          { end: 1, bitsPerSecond: 11.7e9 },
          { end: 2, bitsPerSecond: 11.9e9 },
        ],
      })),
    );
    const result = channelsKind.result(plan, [link100g], [done]);
    expect(result.sum.receivedBitsPerSecond).toBeCloseTo(94.4e9, -3);
    expect(result.sum.jitterMs).toBeCloseTo(0.002875, 6);
    // Every lost datagram over every datagram, unrounded: not a mean weighted by the (3-digit) rates sent.
    expect(result.sum.lostPercent).toBe((100 * 814) / (8 * 1_018_000 + 28));
    expect(result.intervals.map((interval) => [interval.end, Math.round(interval.bitsPerSecond / 1e8) / 10])).toEqual([
      [1, 93.6],
      [2, 95.2],
    ]);
    expect(channelsKind.answer(plan, [link100g], result)).toBe("8 channels: 94.4 Gbit/s in all (94% of the line rate)");
  });

  it("has no answer before the channels ran", () => {
    const plan = channelsPlan({ channels: 2 });
    const result = channelsKind.result(plan, [link100g], []);
    expect(result).toEqual({
      rows: [],
      sum: {
        sentBitsPerSecond: null,
        receivedBitsPerSecond: null,
        retransmits: null,
        jitterMs: null,
        lostPercent: null,
      },
      intervals: [],
    });
    expect(channelsKind.answer(plan, [link100g], result)).toBeNull();
  });
});

describe("channels table", () => {
  it("has a row per channel and a sum row, as seeds/003's tables", () => {
    const plan = channelsPlan({ channels: 2 }, { parallel: 3 });
    const [step] = channelsKind.steps(plan, baseRequestOf(plan), [link100g])!;
    const done = stepOutcome(0, step!, [
      { sentBitsPerSecond: 21.8e9, receivedBitsPerSecond: 21.8e9, retransmits: 2, streams: 3, port: 5201 },
      { sentBitsPerSecond: 20.7e9, receivedBitsPerSecond: 20.7e9, retransmits: 1, streams: 3, port: 5202 },
    ]);
    const table = channelsKind.table(plan, [link100g], channelsKind.result(plan, [link100g], [done]));
    expect(table.rows.map((row) => row.key)).toEqual(["channel 1", "channel 2", "sum"]);
    expect(table.rows[0]!.cells).toMatchObject({
      channel: "1",
      port: "5201",
      receivedBitsPerSecond: 21.8e9,
      streams: 3,
      runIds: [done.runs[0]!.runId],
    });
    expect(table.rows[2]).toMatchObject({
      isSum: true,
      cells: { channel: "Sum", sentBitsPerSecond: 42.5e9, receivedBitsPerSecond: 42.5e9, retransmits: 3, streams: 6 },
    });
  });
});
