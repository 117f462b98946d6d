import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNetworkPath } from "@/lib/inventory/schemas";
import { SAMPLE_KEYS, openTestApi, type TestApi } from "@/testing/test-api";

// A host's iperf3 path is run by the SSH user on the host. A network path would have the host fetch a
// program from another machine: Windows takes `/` and `\` alike and sends the SSH user's login to the
// server of a UNC path, and the automounters mount /net/<host> (and macOS /Network/) by themselves.
// Through the real routes on a real database, every such path is a 400 naming iperf3Path, whatever the
// host's platform, and the stored path stays.

const NETWORK_PATHS = [
  "//host/share/iperf3.exe",
  "\\\\host\\share\\iperf3.exe",
  "/\\host\\s\\iperf3.exe",
  "\\/host/share/iperf3.exe",
  "///host/share/iperf3",
  "//?/UNC/host/share/iperf3.exe",
  "\\\\?\\UNC\\host\\share\\iperf3.exe",
  "//?/C:/iperf3/iperf3.exe",
  "\\\\.\\pipe\\iperf3",
  "//./C:/iperf3/iperf3.exe",
  "/net/host/export/iperf3",
  "/NET/host/export/iperf3",
  "/Network/Servers/host/iperf3",
  "/network/Servers/host/iperf3",
  "/./net/host/iperf3",
  "/usr/../net/host/iperf3",
  "/usr/local/../../Network/host/iperf3",
  "/net\\host\\iperf3",
  "smb://host/share/iperf3.exe",
  "file://host/share/iperf3",
];

const LOCAL_PATHS = [
  "/usr/bin/iperf3",
  "/opt/net/iperf3",
  "/usr/local/network-tools/iperf3",
  "/netbin/iperf3",
  "C:\\iperf3\\iperf3.exe",
  "C:/iperf3/iperf3.exe",
  "C:\\net\\iperf3.exe",
  "D:\\Tools\\iPerf 3.17\\iperf3.exe",
];

let api: TestApi;
let hostId = 0;

beforeAll(async () => {
  api = await openTestApi();
  const created = await api.json("POST", "/api/hosts", {
    name: "win-box",
    address: "198.18.0.30",
    platform: "windows",
    auth: { method: "key", privateKey: SAMPLE_KEYS.openssh },
    iperf3Path: "C:\\iperf3\\iperf3.exe",
  });
  expect(created.status, created.text).toBe(201);
  hostId = created.body.id;
}, 60_000);

afterAll(async () => {
  await api?.close();
});

function expectIperf3PathRefused(response: { status: number; body: { error: { fields?: unknown } } }, path: string) {
  expect(response.status, path).toBe(400);
  expect(response.body.error.fields, path).toEqual([
    { field: "iperf3Path", message: expect.stringMatching(/^must be an absolute path .* no network path/) },
  ]);
}

describe("iperf3Path", () => {
  it("tells network paths from local ones", () => {
    expect(NETWORK_PATHS.filter((path) => !isNetworkPath(path))).toEqual([]);
    expect(LOCAL_PATHS.filter((path) => isNetworkPath(path))).toEqual([]);
  });

  it("refuses a network path with a 400 naming iperf3Path, on a new host of any platform and on a change", async () => {
    for (const [index, path] of NETWORK_PATHS.entries()) {
      for (const platform of ["windows", "linux", "macos"]) {
        const created = await api.json("POST", "/api/hosts", {
          name: `host-${index}-${platform}`,
          address: "198.18.0.31",
          platform,
          auth: { method: "key", privateKey: SAMPLE_KEYS.openssh },
          iperf3Path: path,
        });
        expectIperf3PathRefused(created, `${platform} ${path}`);
      }
      expectIperf3PathRefused(await api.json("PATCH", `/api/hosts/${hostId}`, { iperf3Path: path }), path);
    }
    expect(await api.db.host.count()).toBe(1);
    const stored = await api.db.host.findUniqueOrThrow({ where: { id: hostId } });
    expect(stored.iperf3Path).toBe("C:\\iperf3\\iperf3.exe");
  });

  it("takes a path on the host's own disks", async () => {
    for (const path of LOCAL_PATHS) {
      const response = await api.json("PATCH", `/api/hosts/${hostId}`, { iperf3Path: path });
      expect(response.status, `${path}: ${response.text}`).toBe(200);
      expect(response.body.iperf3Path).toBe(path);
    }
  });
});
