import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PassThrough, Readable } from "node:stream";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { IperfResultSchema } from "../lib/iperf";
import { runWirespeed } from "./wirespeed";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = `${ROOT}lib/iperf/fixtures`;

async function run(args: string[], stdinText = "") {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const chunks = { stdout: "", stderr: "" };
  stdout.on("data", (chunk: Buffer) => (chunks.stdout += chunk.toString()));
  stderr.on("data", (chunk: Buffer) => (chunks.stderr += chunk.toString()));
  const code = await runWirespeed(args, { stdin: Readable.from([stdinText]), stdout, stderr });
  return { code, ...chunks };
}

describe("wirespeed parse", () => {
  it("prints the normalized result of a file as JSON", async () => {
    const { code, stdout } = await run(["parse", `${FIXTURES}/seed/000-windows-n1000M.client.stdout.txt`]);
    expect(code).toBe(0);
    const result = IperfResultSchema.parse(JSON.parse(stdout));
    expect(result).toMatchObject({
      format: "text",
      role: "client",
      protocol: "tcp",
      direction: "normal",
      streams: 1,
      interrupted: false,
      error: null,
    });
    expect(result.intervals).toHaveLength(10);
    expect(result.summary?.sender).toMatchObject({ bytes: 1_048_576_000, bitsPerSecond: 917e6 });
  });

  it("reads stdin for -", async () => {
    const { code, stdout } = await run(
      ["parse", "-", "--compact"],
      "iperf3: error - the server is busy running a test. try again later\n",
    );
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(stdout).error.kind).toBe("server-busy");
  });

  it("takes stderr from its own file and the platform for hints", async () => {
    const { stdout } = await run([
      "parse",
      `${FIXTURES}/real/interrupted-tcp.client.stdout.txt`,
      "--stderr",
      `${FIXTURES}/real/interrupted-tcp.client.stderr.txt`,
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ interrupted: true, error: { kind: "interrupted" } });
    const notFound = await run(["parse", "-", "--platform", "esxi"], "sh: iperf3: not found\n");
    expect(JSON.parse(notFound.stdout).error.hint).toContain("/usr/lib/vmware/vsan/bin/iperf3");
  });

  it("reads -J and --json-stream files", async () => {
    const json = JSON.parse((await run(["parse", `${FIXTURES}/real/json-bidir.client.stdout.txt`])).stdout);
    expect(json).toMatchObject({ format: "json", version: "3.12", direction: "bidir" });
    const stream = JSON.parse(
      (await run(["parse", `${FIXTURES}/hand-written/3.17-json-stream-tcp.client.stdout.txt`])).stdout,
    );
    expect(stream).toMatchObject({ format: "json-stream", version: "3.17.1" });
  });

  it("explains its usage on bad arguments", async () => {
    expect((await run([])).code).toBe(2);
    const unknown = await run(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect(unknown.stderr).toContain("wirespeed parse FILE|-");
    expect((await run(["parse"])).stderr).toContain("parse needs a FILE");
    expect((await run(["parse", "a", "b"])).code).toBe(2);
    expect((await run(["parse", "-", "--platform", "amiga"])).stderr).toContain("--platform must be one of");
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("usage: npm run --silent wirespeed -- <command>");
  });

  it("fails with 1 on a file it cannot read", async () => {
    const { code, stderr } = await run(["parse", "no/such/file.txt"]);
    expect(code).toBe(1);
    expect(stderr).toContain("cannot read no/such/file.txt");
  });

  it("works as `npm run --silent wirespeed -- parse FILE`", async () => {
    const { stdout } = await promisify(execFile)(
      "npm",
      ["run", "--silent", "wirespeed", "--", "parse", "lib/iperf/fixtures/real/udp-2.client.stdout.txt"],
      { cwd: ROOT },
    );
    const result = IperfResultSchema.parse(JSON.parse(stdout));
    expect(result).toMatchObject({ protocol: "udp", streams: 2 });
    // the receiver's line of the fixture: 0/1146 datagrams lost
    expect(result.summary?.receiver?.packets).toBe(1146);
  }, 30_000);
});
