import { describe, expect, it } from "vitest";
import { IperfOptionsSchema } from "@/lib/iperf";
import { LATENCY_OPTION_LABEL, latencyOptionOf, withLatencyOption } from "./latency-option";

describe("the latency option", () => {
  it("is sent only when asked, and read back from the options", () => {
    const asked = withLatencyOption({ protocol: "tcp", parallel: 8 }, true);
    expect(asked).toEqual({ protocol: "tcp", parallel: 8, latency: true });
    expect(latencyOptionOf(asked)).toBe(true);
    const plain = withLatencyOption({ protocol: "tcp", latency: true }, false);
    expect(plain).toEqual({ protocol: "tcp" });
    expect(latencyOptionOf(plain)).toBe(false);
    expect(latencyOptionOf(null)).toBe(false);
  });

  it("is an option the run schema takes", () => {
    expect(IperfOptionsSchema.parse(withLatencyOption({ protocol: "tcp" }, true)).latency).toBe(true);
  });

  it("says what it does", () => {
    expect(LATENCY_OPTION_LABEL).toBe("Measure latency under load (ping every 0.2 s, 5 s idle first)");
  });
});
