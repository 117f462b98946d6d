// Stopping Wirespeed on the lab: a real SIGTERM to an app process (testing/run-until-stopped.ts,
// the server's own engine and signal handling) in the middle of a real run, real iperf3 over
// real SSH between two lab hosts, real SQLite.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { labHost, processesInHost, waitFor } from "@/testing/lab-targets";
import { openLabDatabase } from "@/testing/lab-database";
import { parseIperfOutput } from "@/lib/iperf";

const database = await openLabDatabase();
const { db, state, linkIds } = database;

const ROOT = path.resolve(__dirname, "..");
// The bound: docker stop waits 15 s (docker-compose.yml), Wirespeed must be gone by 10.
const EXIT_WITHIN_S = 10;

/** Processes inside a lab host that name iperf3 (the shells that start it too), those of one port when given. */
function iperfIn(host: string, port?: number) {
  const all = processesInHost(labHost(state, host), "iperf3");
  return port === undefined ? all : all.filter((process) => new RegExp(`(^| )-p ${port}( |$)`).test(process.cmdline));
}

/** The iperf3 programs themselves among them. */
const programs = (processes: { cmdline: string }[]) =>
  processes.filter((process) => /(^|\/)iperf3$/.test(process.cmdline.split(" ")[0]!));

describe("SIGTERM during a run", () => {
  it("stops iperf3 on both hosts, stores every sample and the partial summary as an interrupted run, refuses a new run, and exits 0 within 10 s", async () => {
    const script = path.join(ROOT, "testing/run-until-stopped.ts");
    const request = { duration: 60, interval: 0.2, parallel: 2 };
    // One process (node with tsx as loader, not the tsx CLI, which would fork a child of its own).
    const child = spawn(
      process.execPath,
      [
        "--require",
        path.join(ROOT, "testing/server-only.cjs"),
        "--import",
        "tsx",
        script,
        String(linkIds["ab-1g"]),
        String(linkIds["ab-2g5"]),
        JSON.stringify(request),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: database.url },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    try {
      // Two seconds of 0.2 s intervals: by then the writer has stored some and holds others.
      await waitFor(() => /samples 10\n/.test(output), 60_000, "the app to report ten samples").catch(
        (error: Error) => {
          throw new Error(`${error.message}; it printed:\n${output}`);
        },
      );
      const runId = Number(/run (\d+)/.exec(output)![1]);
      const { port } = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { port: true } });
      // The run's two ends, seen from outside: the client on alpha, the server on beta.
      expect(programs(iperfIn("alpha", port!))).toHaveLength(1);
      expect(programs(iperfIn("beta", port!))).toHaveLength(1);

      const signalledAt = performance.now();
      child.kill("SIGTERM");
      const { code, signal } = await Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`the app still runs 20 s after SIGTERM:\n${output}`)), 20_000),
        ),
      ]);
      const seconds = (performance.now() - signalledAt) / 1000;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      expect(seconds).toBeLessThan(EXIT_WITHIN_S);

      // Nothing of the run is left on its hosts, nor any iperf3 anywhere in the lab.
      expect(iperfIn("alpha", port!)).toEqual([]);
      expect(iperfIn("beta", port!)).toEqual([]);
      for (const host of state.hosts) expect(iperfIn(host.name), host.name).toEqual([]);

      const run = await db.run.findUniqueOrThrow({
        where: { id: runId },
        include: { samples: { orderBy: { seq: "asc" } } },
      });
      expect(run).toMatchObject({
        status: "interrupted",
        errorKind: "interrupted",
        errorMessage: "Wirespeed was stopped (SIGTERM) while this run was in progress.",
      });
      expect(run.endedAt).not.toBeNull();
      console.log(
        `shutdown: exit ${code ?? signal} ${seconds.toFixed(2)} s after SIGTERM; ${run.samples.length} samples stored, the last ${run.samples.at(-1)?.start}-${run.samples.at(-1)?.end} s; sent ${run.sentBytes} bytes at ${run.sentBitsPerSecond} bit/s`,
      );
      // Every interval the client printed, up to its last partial one, is stored, as printed.
      const printed = parseIperfOutput(run.clientOutput ?? "");
      expect(printed.interrupted).toBe(true);
      expect(run.samples.length).toBeGreaterThanOrEqual(10);
      expect(
        run.samples.map((sample) => [sample.seq, sample.start, sample.end, sample.bytes, sample.bitsPerSecond]),
      ).toEqual(
        printed.intervals.map((interval, seq) => [
          seq,
          interval.start,
          interval.end,
          interval.bytes,
          interval.bitsPerSecond,
        ]),
      );
      // The partial summary: what was sent over the whole of the run, until the stop.
      expect(printed.summary?.sender?.bytes).toBeGreaterThan(0);
      expect(run.sentBytes).toBeGreaterThan(0);
      expect(run.sentBitsPerSecond).toBeGreaterThan(0.5e9);

      // Asked during the stop: refused, as the API answers it, and nothing recorded.
      const refused = /refused (\d+) (.*)\n/.exec(output);
      expect(refused?.[1]).toBe("503");
      expect(JSON.parse(refused![2]!)).toEqual({
        error: {
          code: "shutting_down",
          message: "Wirespeed is shutting down: it starts no new run now. Try again once it is back.",
        },
      });
      expect(await db.run.count()).toBe(1);
      expect(output).toMatch(/\[wirespeed\] SIGTERM: stopping\. No new runs; 1 run under way/);
      expect(output).toMatch(/\[wirespeed\] stopped\n/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  });
});
