import { describe, expect, it } from "vitest";
import { parseIperfVersion } from "@/lib/iperf";
import { parseRunRequest } from "./request";

// engine.ts imports the database client; its pure helpers are tested without one.
process.env.DATABASE_URL ??= "file:/tmp/wirespeed-engine-unit-unused.db";
const { serverArgvFor } = await import("./engine");

const server = { address: "10.0.0.40", hostName: "esx1" };

describe("serverArgvFor", () => {
  it("asks a 3.10+ server to give up when no client comes, after the run's time limit", () => {
    const argv = serverArgvFor(parseRunRequest({ duration: 30, omit: 2 }).options, parseIperfVersion("iperf 3.12")!, server, 5201);
    expect(argv.slice(0, 6)).toEqual(["-s", "-1", "-B", "10.0.0.40", "-p", "5201"]);
    // 30 s + 2 s of omit + 30 s of margin
    expect(argv).toContain("--idle-timeout");
    expect(argv[argv.indexOf("--idle-timeout") + 1]).toBe("62");
  });

  it("leaves --idle-timeout out for the 3.1.x builds of ESXi and Windows, which lack it", () => {
    const argv = serverArgvFor(parseRunRequest({ duration: 30 }).options, parseIperfVersion("iperf 3.1.3")!, server, 5201);
    // 3.1.3 predates --forceflush (3.1.5) too: only what that version knows.
    expect(argv).toEqual(["-s", "-1", "-B", "10.0.0.40", "-p", "5201"]);
  });

  it("caps the idle timeout at iperf3's one-day limit", () => {
    const argv = serverArgvFor(parseRunRequest({ duration: 86_400 }).options, parseIperfVersion("iperf 3.17.1")!, server, 5201);
    expect(argv[argv.indexOf("--idle-timeout") + 1]).toBe("86400");
  });
});
