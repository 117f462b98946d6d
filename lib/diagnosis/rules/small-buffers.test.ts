import { describe, expect, it } from "vitest";
import { runEvidence, snapshot } from "./evidence-builders";
import { bandwidthDelayProduct, bufferToSet, smallBuffersRule } from "./small-buffers";

const latency = {
  idleMedianMs: 0.4,
  idleP95Ms: 0.6,
  loadedMedianMs: 8,
  loadedP95Ms: 12,
  grade: "B" as const,
  sent: 75,
  lost: 0,
};

describe("bandwidth-delay product", () => {
  it("is the bytes in flight at the line rate over the round trip, and the value to set twice it rounded up to a power of two", () => {
    expect(bandwidthDelayProduct(10e9, 1)).toBe(1.25e6);
    expect(bufferToSet(1.25e6)).toBe(4_194_304);
    expect(bufferToSet(8.4e6)).toBe(33_554_432);
    expect(bufferToSet(5e9)).toBe(2 ** 31 - 1);
  });
});

describe("small buffers rule", () => {
  const bothEnds = { client: snapshot(), server: snapshot({ nic: { name: "eth1" } }) };

  it("with -w, reads rmem_max at the receiver and wmem_max at the sender, assumes 1 ms without latency, and gives the sysctl lines", () => {
    const run = runEvidence({
      options: { window: 4 * 1024 * 1024 },
      receivedBitsPerSecond: 1.6e9,
      environment: bothEnds,
    });
    expect(smallBuffersRule(run)).toEqual({
      id: "small-buffers",
      severity: "warning",
      title: "Socket buffers smaller than the bandwidth-delay product",
      evidence:
        "The bandwidth-delay product of 10 Gbit/s over 1 ms (assumed: the run measured no latency) is 1.25 MB; " +
        "the server's net.core.rmem_max (213 kB) and the client's net.core.wmem_max (213 kB) are below it, " +
        "and a 213 kB window carries at most 1.7 Gbit/s over that round trip; the run gave 1.6 Gbit/s, 16% of the 10 Gbit/s line rate.",
      suggestion:
        "Raise the limits to 4.19 MB, twice the bandwidth-delay product: on the client, sysctl -w net.core.wmem_max=4194304; " +
        "on the server, sysctl -w net.core.rmem_max=4194304 (the same lines in /etc/sysctl.d/ keep them across reboots).",
    });
  });

  it("without -w, reads the autotuning maximum and keeps the triple's first figures; critical with a measured round trip", () => {
    const run = runEvidence({
      receivedBitsPerSecond: 4e9,
      latency,
      environment: {
        client: snapshot(),
        server: snapshot({ nic: { name: "eth1" }, tcp: { tcpRmem: [4096, 131_072, 6_291_456] } }),
      },
    });
    const found = smallBuffersRule(run);
    expect(found?.severity).toBe("critical");
    // 10 Gbit/s over 8 ms (the loaded median) is 10 MB: above both autotuning maxima
    expect(found?.evidence).toMatch(
      /^The bandwidth-delay product of 10 Gbit\/s over 8 ms \(the run's median round trip\) is 10 MB; the server's net\.ipv4\.tcp_rmem maximum \(6\.29 MB\) and the client's net\.ipv4\.tcp_wmem maximum \(4\.19 MB\) are below it/,
    );
    expect(found?.suggestion).toContain('on the server, sysctl -w net.ipv4.tcp_rmem="4096 131072 33554432"');
    expect(found?.suggestion).toContain('on the client, sysctl -w net.ipv4.tcp_wmem="4096 16384 33554432"');
  });

  it("takes the idle median when there is no loaded one", () => {
    const run = runEvidence({
      options: { window: 65_536 },
      receivedBitsPerSecond: 1e9,
      latency: { ...latency, loadedMedianMs: null },
      environment: bothEnds,
    });
    expect(smallBuffersRule(run)?.evidence).toMatch(
      /^The bandwidth-delay product of 10 Gbit\/s over 0\.4 ms \(the run's median round trip\) is 500 kB; the run's -w of 65.5 kB, the server's net.core.rmem_max/,
    );
  });

  it("names a BSD's limits as it does, maxsockbuf capping autotuning too, and keeps them in /etc/sysctl.conf", () => {
    const freebsd = snapshot({
      platform: "freebsd",
      nic: { name: "ix0" },
      tcp: {
        rmemMax: 2_097_152,
        wmemMax: 2_097_152,
        tcpRmem: [65_536, 65_536, 2_097_152],
        tcpWmem: [32_768, 32_768, 2_097_152],
      },
    });
    const run = runEvidence({
      linkSpeedMbps: 25_000,
      receivedBitsPerSecond: 12e9,
      environment: { client: snapshot(), server: freebsd },
    });
    const found = smallBuffersRule(run);
    expect(found?.evidence).toContain(
      "the server's net.inet.tcp.recvbuf_max (2.1 MB) and the server's kern.ipc.maxsockbuf (2.1 MB) are below it",
    );
    expect(found?.suggestion).toBe(
      "Raise the limits to 8.39 MB, twice the bandwidth-delay product: on the server, sysctl net.inet.tcp.recvbuf_max=8388608 kern.ipc.maxsockbuf=8388608 " +
        "(the same lines in /etc/sysctl.conf keep them across reboots).",
    );
  });

  it("says a -w below the product is the run's own limit", () => {
    const roomy = {
      client: snapshot({ tcp: { wmemMax: 16_777_216 } }),
      server: snapshot({ nic: { name: "eth1" }, tcp: { rmemMax: 16_777_216 } }),
    };
    const found = smallBuffersRule(
      runEvidence({ options: { window: 131_072 }, receivedBitsPerSecond: 1e9, environment: roomy }),
    );
    expect(found?.evidence).toContain("the run's -w of 131 kB is below it");
    expect(found?.suggestion).toBe("Run with -w 4194304 or more, or without -w so that autotuning sizes the window.");
  });

  it("says nothing at the line rate, with limits above the product, for UDP or a channel, or without a snapshot", () => {
    expect(smallBuffersRule(runEvidence({ options: { window: 4 * 1024 * 1024 }, environment: bothEnds }))).toBeNull();
    expect(smallBuffersRule(runEvidence({ receivedBitsPerSecond: 4e9, environment: bothEnds }))).toBeNull();
    expect(
      smallBuffersRule(
        runEvidence({
          options: { protocol: "udp", bitrate: 0 },
          receivedBitsPerSecond: 4e9,
          latency,
          environment: bothEnds,
        }),
      ),
    ).toBeNull();
    expect(
      smallBuffersRule(
        runEvidence({
          options: { window: 65_536 },
          receivedBitsPerSecond: 1e9,
          isChannel: true,
          environment: bothEnds,
        }),
      ),
    ).toBeNull();
    expect(smallBuffersRule(runEvidence({ receivedBitsPerSecond: 4e9, latency }))).toBeNull();
  });
});
