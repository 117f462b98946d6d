import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openTestDatabase } from "@/testing/database";
import { GET } from "@/app/metrics/route";
import { createUser } from "@/lib/auth/users";
import { createApiToken } from "@/lib/auth/tokens";

// A real Prometheus (Debian's package) scrapes GET /metrics, served on 127.0.0.1 by a node:http
// server that hands each request to the route handler, with the scrape configuration of
// docs/metrics.md (a viewer's token in a credentials file); then a link's series is read back
// through Prometheus' HTTP API.

const database = await openTestDatabase();
const { db } = database;

const RATE = 941_234_567;
let linkId = 0;
let scratch = "";
let server: http.Server | null = null;
let prometheus: ChildProcess | null = null;
let prometheusLog = "";
let prometheusPort = 0;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  const nics = [];
  for (const name of ["nas1", "pve"]) {
    const host = await db.host.create({
      data: { name, address: "198.18.0.1", authMethod: "local", platform: "linux" },
    });
    nics.push(await db.nic.create({ data: { hostId: host.id, name: "eth1" } }));
  }
  linkId = (
    await db.link.create({ data: { name: "nas1-pve", aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps: 1000 } })
  ).id;
  await db.run.create({
    data: {
      linkId,
      status: "succeeded",
      options: {},
      signature: "tcp a-to-b P1",
      receivedBitsPerSecond: RATE,
      startedAt: new Date(),
      endedAt: new Date(),
    },
  });
  const viewer = await createUser({ username: "prometheus", password: "correct horse battery", role: "viewer" });
  const { token } = await createApiToken(viewer.id, "scraper");

  server = http.createServer((request, response) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers))
      if (typeof value === "string") headers.set(name, value);
    GET(new Request(`http://127.0.0.1${request.url}`, { headers }))
      .then(async (answer) => {
        response.writeHead(answer.status, Object.fromEntries(answer.headers));
        response.end(await answer.text());
      })
      .catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const appPort = (server.address() as net.AddressInfo).port;

  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "wirespeed-prometheus-"));
  fs.writeFileSync(path.join(scratch, "token"), token, { mode: 0o600 });
  fs.writeFileSync(
    path.join(scratch, "prometheus.yml"),
    [
      "global:",
      "  scrape_interval: 1s",
      "  evaluation_interval: 1s",
      "scrape_configs:",
      "  - job_name: wirespeed",
      "    metrics_path: /metrics",
      "    authorization:",
      `      credentials_file: ${path.join(scratch, "token")}`,
      "    static_configs:",
      `      - targets: ["127.0.0.1:${appPort}"]`,
      "",
    ].join("\n"),
  );
  prometheusPort = await freePort();
  prometheus = spawn(
    "prometheus",
    [
      `--config.file=${path.join(scratch, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(scratch, "data")}`,
      `--web.listen-address=127.0.0.1:${prometheusPort}`,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  prometheus.stdout!.on("data", (chunk: Buffer) => (prometheusLog += chunk.toString()));
  prometheus.stderr!.on("data", (chunk: Buffer) => (prometheusLog += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    prometheus!.once("spawn", resolve);
    prometheus!.once("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new Error(
              "prometheus is not installed: apt-get install -y prometheus (npm test installs it when run as root)",
            )
          : error,
      ),
    );
  });
}, 60_000);

afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once("exit", resolve));
    prometheus.kill("SIGTERM");
    await exited;
  }
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  await database.close();
}, 30_000);

type QueryAnswer = {
  status: string;
  data?: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
};

it("is scraped by Prometheus with a viewer's token, and a link's series can be queried", async () => {
  const query = `wirespeed_link_last_received_bits_per_second{link_id="${linkId}"}`;
  const url = `http://127.0.0.1:${prometheusPort}/api/v1/query?query=${encodeURIComponent(query)}`;
  let last = "nothing yet";
  // Prometheus starts, then scrapes every second: a bounded wait for the first sample.
  for (let attempt = 0; attempt < 120; attempt += 1) {
    if (prometheus!.exitCode !== null)
      throw new Error(`prometheus exited with ${prometheus!.exitCode}:\n${prometheusLog}`);
    try {
      const answer = (await (await fetch(url)).json()) as QueryAnswer;
      last = JSON.stringify(answer);
      const result = answer.data?.result ?? [];
      if (result.length > 0) {
        expect(result).toHaveLength(1);
        expect(result[0]!.metric).toMatchObject({
          __name__: "wirespeed_link_last_received_bits_per_second",
          job: "wirespeed",
          link: "nas1-pve",
          link_id: String(linkId),
          protocol: "tcp",
        });
        expect(Number(result[0]!.value[1])).toBe(RATE);
        // The scrape itself was healthy: the token was accepted.
        const up = (await (
          await fetch(`http://127.0.0.1:${prometheusPort}/api/v1/query?query=up`)
        ).json()) as QueryAnswer;
        expect(up.data!.result.map((entry) => entry.value[1])).toEqual(["1"]);
        return;
      }
    } catch (error) {
      last = String(error); // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `Prometheus never answered the link's series within 30 s; last answer: ${last}\n${prometheusLog.slice(-2000)}`,
  );
}, 60_000);
