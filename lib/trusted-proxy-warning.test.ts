import type os from "node:os";
import { describe, expect, it } from "vitest";
import { defaultGateways, trustedProxyWarning } from "./trusted-proxy-warning";

// /proc/net/route as a container on Docker's network 172.18.0.0/16 has it: the default route
// through the bridge's gateway 172.18.0.1 (010012AC, little-endian), and the network itself.
const DOCKER_ROUTE = [
  "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT",
  "eth0\t00000000\t010012AC\t0003\t0\t0\t0\t00000000\t0\t0\t0",
  "eth0\t000012AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0",
  "",
].join("\n");

// docker-compose.postgres.yml's network: 172.30.80.0/24, nginx at 172.30.80.10
const COMPOSE_ROUTE = [
  "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT",
  "eth0\t00000000\t01501EAC\t0003\t0\t0\t0\t00000000\t0\t0\t0",
  "eth0\t00501EAC\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0",
].join("\n");

const address = (family: "IPv4" | "IPv6", value: string, cidr: string, internal = false): os.NetworkInterfaceInfo =>
  ({
    address: value,
    netmask: "",
    family,
    mac: "02:42:ac:12:00:02",
    internal,
    cidr,
    ...(family === "IPv6" ? { scopeid: 0 } : {}),
  }) as os.NetworkInterfaceInfo;

const LOOPBACK = [address("IPv4", "127.0.0.1", "127.0.0.1/8", true), address("IPv6", "::1", "::1/128", true)];
const ON_DOCKER_NETWORK = { lo: LOOPBACK, eth0: [address("IPv4", "172.18.0.2", "172.18.0.2/16")] };
const ON_COMPOSE_NETWORK = { lo: LOOPBACK, eth0: [address("IPv4", "172.30.80.3", "172.30.80.3/24")] };

describe("defaultGateways", () => {
  it("reads the gateway of the default route, in the kernel's byte order", () => {
    expect(defaultGateways(DOCKER_ROUTE)).toEqual(["172.18.0.1"]);
    expect(defaultGateways(COMPOSE_ROUTE)).toEqual(["172.30.80.1"]);
  });

  it("finds none without a default route through a gateway", () => {
    expect(
      defaultGateways(
        DOCKER_ROUTE.split("\n")
          .filter((line) => !line.includes("\t00000000\t010012AC"))
          .join("\n"),
      ),
    ).toEqual([]);
    // a default route straight onto a link (no RTF_GATEWAY flag)
    expect(defaultGateways(DOCKER_ROUTE.replace("010012AC\t0003", "00000000\t0001"))).toEqual([]);
    expect(defaultGateways("")).toEqual([]);
  });
});

describe("trustedProxyWarning", () => {
  it("warns in one line when the README's old example range holds Docker's gateway and the container's network", () => {
    const warning = trustedProxyWarning(
      { WIRESPEED_TRUSTED_PROXIES: "172.18.0.0/16" },
      DOCKER_ROUTE,
      ON_DOCKER_NETWORK,
    );
    expect(warning).toMatch(
      /^warning: WIRESPEED_TRUSTED_PROXIES 172\.18\.0\.0\/16 contains the default gateway 172\.18\.0\.1 and the network of this machine's address 172\.18\.0\.2\/16: /,
    );
    expect(warning).toContain("Docker's userland proxy");
    expect(warning).toContain("Trust the proxy's own address");
    expect(warning).not.toContain("\n");
  });

  it("says nothing for the proxy's own address inside the network, as docker-compose.postgres.yml sets it", () => {
    expect(
      trustedProxyWarning({ WIRESPEED_TRUSTED_PROXIES: "172.30.80.10" }, COMPOSE_ROUTE, ON_COMPOSE_NETWORK),
    ).toBeNull();
    expect(
      trustedProxyWarning(
        { WIRESPEED_TRUSTED_PROXIES: "172.30.80.10/32, 10.0.0.5" },
        COMPOSE_ROUTE,
        ON_COMPOSE_NETWORK,
      ),
    ).toBeNull();
  });

  it("warns about the gateway alone when the range misses the network's other addresses", () => {
    const warning = trustedProxyWarning(
      { WIRESPEED_TRUSTED_PROXIES: "172.30.80.0/28" },
      COMPOSE_ROUTE,
      ON_COMPOSE_NETWORK,
    );
    expect(warning).toMatch(
      /^warning: WIRESPEED_TRUSTED_PROXIES 172\.30\.80\.0\/28 contains the default gateway 172\.30\.80\.1: /,
    );
  });

  it("warns about a wider range that holds the whole network, and names each range that does", () => {
    const warning = trustedProxyWarning({ WIRESPEED_TRUSTED_PROXIES: "10.9.9.9 172.16.0.0/12,fd00::/8" }, null, {
      ...ON_DOCKER_NETWORK,
      eth1: [address("IPv6", "fd12:3456::5", "fd12:3456::5/64")],
    });
    expect(warning).toContain("172.16.0.0/12 contains the network of this machine's address 172.18.0.2/16; ");
    expect(warning).toContain("fd00::/8 contains the network of this machine's address fd12:3456::5/64:");
    expect(warning).not.toContain("10.9.9.9");
  });

  it("leaves loopback alone: a proxy on the same machine is trusted as 127.0.0.1 or ::1", () => {
    expect(
      trustedProxyWarning({ WIRESPEED_TRUSTED_PROXIES: "127.0.0.1, ::1" }, DOCKER_ROUTE, ON_DOCKER_NETWORK),
    ).toBeNull();
  });

  it("says nothing without trusted proxies, or when the value is malformed (the start stops on that itself)", () => {
    expect(trustedProxyWarning({}, DOCKER_ROUTE, ON_DOCKER_NETWORK)).toBeNull();
    expect(trustedProxyWarning({ WIRESPEED_TRUSTED_PROXIES: "" }, DOCKER_ROUTE, ON_DOCKER_NETWORK)).toBeNull();
    expect(
      trustedProxyWarning({ WIRESPEED_TRUSTED_PROXIES: "not-an-address" }, DOCKER_ROUTE, ON_DOCKER_NETWORK),
    ).toBeNull();
  });
});
