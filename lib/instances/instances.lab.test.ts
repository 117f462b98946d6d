// Two Wirespeed instances on one Postgres database, each its own process (testing/instance-process.ts:
// the server's start-up, and the lib/ functions of the run, event and health routes over node:http),
// driving real iperf3 over real SSH between lab hosts. The same instances in one process, with a
// scripted remote, are lib/instances/instances.test.ts.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isFinalStatus } from "@/lib/runs/contract";
import { labHost, labLink, processesInHost, waitFor } from "@/testing/lab-targets";
import { openLabDatabase } from "@/testing/lab-database";

// One key for the credentials in this process (which seals them as it records the lab's hosts) and in
// both instances, or they could not open them (lib/instances/shared-key.ts). Set before the database.
const SECRET = "instances-lab-test-shared-secret-0123456789";
const secretBefore = process.env.WIRESPEED_SECRET;
process.env.WIRESPEED_SECRET = SECRET;

const database = await openLabDatabase({ postgres: true });
const { db, state, linkIds } = database;
const { createSchedule } = await import("@/lib/schedules/store");

const ROOT = path.resolve(__dirname, "../..");
const LEASE_SECONDS = 5;

type Instance = { id: string; child: ChildProcess; port: number; output: () => string };
const spawned: ChildProcess[] = [];
let labA: Instance;
let labB: Instance;

/** An instance process on this file's database; resolves once it serves. */
async function startInstance(id: string): Promise<Instance> {
  const child = spawn(
    process.execPath,
    ["--require", path.join(ROOT, "testing/server-only.cjs"), "--import", "tsx", "testing/instance-process.ts", "0"],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        WIRESPEED_INSTANCE: id,
        WIRESPEED_INSTANCE_LEASE_SECONDS: String(LEASE_SECONDS),
        WIRESPEED_SECRET: SECRET,
        WIRESPEED_DATA_DIR: database.dataDir,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  spawned.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => /listening \d+\n/.test(output) || child.exitCode !== null, 60_000, `${id} to listen`).catch(
    (error: Error) => {
      throw new Error(`${error.message}; it printed:\n${output}`);
    },
  );
  if (child.exitCode !== null) throw new Error(`${id} exited ${child.exitCode}:\n${output}`);
  return { id, child, port: Number(/listening (\d+)/.exec(output)![1]), output: () => output };
}

beforeAll(async () => {
  [labA, labB] = await Promise.all([startInstance("lab-a"), startInstance("lab-b")]);
});

// Runs on failure too (hooks run as a stack: before the database is dropped).
afterAll(() => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (secretBefore === undefined) delete process.env.WIRESPEED_SECRET;
  else process.env.WIRESPEED_SECRET = secretBefore;
});

type RunJson = { id: number; status: string };
type SseEvent = { id: number; type: string; data: unknown };

async function postRun(instance: Instance, body: Record<string, unknown>): Promise<RunJson> {
  const response = await fetch(`http://127.0.0.1:${instance.port}/runs`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as RunJson;
  expect(response.status, JSON.stringify(json)).toBe(201);
  return json;
}

/** Polls `check` until it holds, or fails after `timeoutMs` saying what it waited for. */
async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Follows a run's event stream on one instance as a browser's EventSource does: a stream that ends
 * before the run's final status (the instance had not heard of the run yet, and answered from the
 * database) is opened again with Last-Event-ID = the last id seen. Resolves with every event and the
 * number of connections it took.
 */
async function follow(
  instance: Instance,
  runId: number,
  lastEventId: number,
  onEvent: (event: SseEvent) => void = () => {},
): Promise<{ events: SseEvent[]; connections: number }> {
  const events: SseEvent[] = [];
  let last = lastEventId;
  for (let connections = 1; connections <= 100; connections += 1) {
    const response = await fetch(`http://127.0.0.1:${instance.port}/runs/${runId}/events`, {
      headers: last > 0 ? { "Last-Event-ID": String(last) } : {},
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true });
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = new Map(
          block
            .split("\n")
            .filter((line) => line && !line.startsWith(":"))
            .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)] as const),
        );
        if (!fields.has("event")) continue;
        const event = {
          id: Number(fields.get("id")),
          type: fields.get("event")!,
          data: JSON.parse(fields.get("data")!),
        };
        events.push(event);
        last = event.id;
        onEvent(event);
      }
    }
    const final = events.at(-1);
    if (final?.type === "status" && isFinalStatus((final.data as { status: string }).status)) {
      return { events, connections };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`run ${runId}'s stream on ${instance.id} never gave a final status: ${JSON.stringify(events)}`);
}

const samplesOf = (events: SseEvent[]) => events.filter((event) => event.type === "sample");
const statusOf = (event: SseEvent | undefined) => (event?.data as { status?: string } | undefined)?.status;

/** Processes inside a lab host that name iperf3 with the run's port. */
function iperfIn(host: string, port: number) {
  return processesInHost(labHost(state, host), "iperf3").filter((process) =>
    new RegExp(`(^| )-p ${port}( |$)`).test(process.cmdline),
  );
}

/** Waits until the run streams (samples stored, the client's pid recorded); its server's port. */
async function untilStreaming(runId: number): Promise<number | null> {
  await until(
    async () =>
      (await db.sample.count({ where: { runId } })) >= 2 &&
      (await db.run.findUniqueOrThrow({ where: { id: runId } })).clientPid !== null,
    60_000,
    "the run to store samples",
  );
  return (await db.run.findUniqueOrThrow({ where: { id: runId }, select: { port: true } })).port;
}

describe("two instance processes on one Postgres database", () => {
  it("relays a run's live samples: lab-b's stream of lab-a's run has every sample, ids 1..N in order, as lab-a's own, and resumes after Last-Event-ID", async () => {
    const run = await postRun(labA, { linkId: linkIds["ab-1g"], duration: 3, interval: 0.5 });
    let resumed: Promise<{ events: SseEvent[]; connections: number }> | null = null;
    const [onA, onB] = await Promise.all([
      follow(labA, run.id, 0),
      follow(labB, run.id, 0, (event) => {
        // A second viewer on lab-b, mid-run, that has seen two samples.
        if (event.type === "sample" && event.id === 3) resumed ??= follow(labB, run.id, 2);
      }),
    ]);
    expect(resumed).not.toBeNull();
    const again = await resumed!;
    const stored = await db.sample.count({ where: { runId: run.id } });
    const ended = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    console.log(
      `relay: run ${run.id} ${ended.status}, ${stored} samples; lab-b took ${onB.connections} connection(s), the resumed viewer ${again.connections}`,
    );
    expect(ended).toMatchObject({ status: "succeeded", instance: "lab-a" });
    expect(stored).toBeGreaterThanOrEqual(5);
    const ids = Array.from({ length: stored }, (_, index) => index + 1);
    expect(samplesOf(onB.events).map((event) => event.id)).toEqual(ids);
    expect(statusOf(onB.events.at(-1))).toBe("succeeded");
    // The same events as the instance that runs it gives its own viewers.
    expect(samplesOf(onA.events).map((event) => event.id)).toEqual(ids);
    expect(samplesOf(onB.events)).toEqual(samplesOf(onA.events));
    expect(statusOf(onA.events.at(-1))).toBe("succeeded");
    // After Last-Event-ID 2: exactly the samples after the second.
    expect(samplesOf(again.events).map((event) => event.id)).toEqual(ids.slice(2));
    expect(samplesOf(again.events)).toEqual(samplesOf(onA.events).slice(2));
    expect(statusOf(again.events.at(-1))).toBe("succeeded");
  });

  it("runs two tests asked of one link at the same moment, one through each instance, one after the other", async () => {
    const body = { linkId: linkIds["ab-1g"], duration: 2, interval: 1 };
    const asked = await Promise.all([postRun(labA, body), postRun(labB, body)]);
    const ids = asked.map((run) => run.id);
    await until(
      async () => (await db.run.count({ where: { id: { in: ids }, endedAt: { not: null } } })) === 2,
      60_000,
      "both runs to end",
    );
    const runs = await db.run.findMany({ where: { id: { in: ids } } });
    expect(runs.map((run) => [run.status, run.instance]).sort()).toEqual([
      ["succeeded", "lab-a"],
      ["succeeded", "lab-b"],
    ]);
    const [first, second] = runs.sort((x, y) => x.startedAt!.getTime() - y.startedAt!.getTime());
    console.log(
      `one link: ${first!.instance} ran ${first!.startedAt!.toISOString()}-${first!.endedAt!.toISOString()}, ${second!.instance} ${second!.startedAt!.toISOString()}-${second!.endedAt!.toISOString()}`,
    );
    expect(second!.startedAt!.getTime()).toBeGreaterThanOrEqual(first!.endedAt!.getTime());
    await until(async () => (await db.linkHold.count()) === 0, 10_000, "the link to be freed");
  });

  it("starts a schedule's due times once each, whichever of the two schedulers claims them", async () => {
    const linkId = linkIds["ab-2g5"]!;
    const schedule = await createSchedule({
      name: "every 15 s",
      linkId,
      options: { duration: 1 },
      cron: "*/15 * * * * *",
    });
    // Both schedulers read it now, as if it had been made through each (else within their 60 s re-read).
    for (const instance of [labA, labB]) {
      const poked = await fetch(`http://127.0.0.1:${instance.port}/scheduler/poke`, { method: "POST" });
      expect(poked.status).toBe(204);
    }
    await new Promise((resolve) => setTimeout(resolve, 60_000));
    await db.schedule.update({ where: { id: schedule.id }, data: { enabled: false, nextRunAt: null } });
    // A start claimed just before the pause writes its row once its run is recorded.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rows = await db.scheduleRun.findMany({ where: { scheduleId: schedule.id }, orderBy: { dueAt: "asc" } });
    const runIds = rows.map((row) => row.runId);
    await until(
      async () =>
        (await db.run.count({ where: { linkId, endedAt: null } })) === 0 &&
        (await db.run.count({ where: { linkId } })) === rows.length,
      30_000,
      "the schedule's runs to end",
    );
    const runs = await db.run.findMany({ where: { linkId }, orderBy: { id: "asc" } });
    console.log(
      `schedule: ${rows.length} due times ${rows.map((row) => row.dueAt.toISOString().slice(11, 19)).join(", ")}, run by ${runs.map((run) => run.instance).join(", ")}`,
    );
    const dueTimes = new Set(rows.map((row) => row.dueAt.getTime()));
    // One row per due time: no start twice, whichever scheduler claimed it.
    expect(rows.length).toBe(dueTimes.size);
    expect([4, 5]).toContain(rows.length);
    for (const row of rows) {
      expect(row).toMatchObject({ outcome: "started", catchUp: false });
      expect(row.dueAt.getTime() % 15_000).toBe(0);
    }
    // Every run on the link is one of the schedule's, and each succeeded.
    expect(runs.map((run) => run.id)).toEqual([...runIds].sort((x, y) => x! - y!));
    expect(runs.map((run) => run.status)).toEqual(runs.map(() => "succeeded"));
  });

  it("recovers a run whose instance was killed: interrupted with its samples, iperf3 stopped on both hosts, the link freed, the other instance still up", async () => {
    const linkId = linkIds["ab-1g"]!;
    const link = labLink(state, "ab-1g");
    const run = await postRun(labA, { linkId, duration: 30, interval: 0.5 });
    const port = await untilStreaming(run.id);
    // The run's two ends, seen from outside, before the kill.
    expect(iperfIn(link.a.host, port!).length).toBeGreaterThan(0);
    expect(iperfIn(link.b.host, port!).length).toBeGreaterThan(0);
    expect(await db.linkHold.count({ where: { linkId } })).toBe(1);

    const exited = new Promise((resolve) => labA.child.once("exit", resolve));
    labA.child.kill("SIGKILL");
    await exited;
    // Said, not asserted: whether the ends outlive the killed instance's SSH connections is up to sshd.
    const leftAtKill = iperfIn(link.a.host, port!).length + iperfIn(link.b.host, port!).length;
    await until(
      async () => (await db.run.findUniqueOrThrow({ where: { id: run.id } })).status === "interrupted",
      60_000,
      "lab-b to take the run over",
    ).catch((error: Error) => {
      throw new Error(`${error.message}; lab-b printed:\n${labB.output()}`);
    });
    const recovered = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(recovered).toMatchObject({ errorKind: "interrupted", instance: "lab-b" });
    expect(recovered.errorMessage).toBe(
      "The Wirespeed instance lab-a that ran this test stopped answering while it was in progress; instance lab-b took it over.",
    );
    expect(recovered.endedAt).not.toBeNull();
    expect(await db.sample.count({ where: { runId: run.id } })).toBeGreaterThan(0);
    // Stopped before the run's 30 s were over: a signalled process may take a moment to go.
    await waitFor(
      () => iperfIn(link.a.host, port!).length === 0 && iperfIn(link.b.host, port!).length === 0,
      10_000,
      "iperf3 to be gone from both hosts",
    ).catch((error: Error) => {
      throw new Error(
        `${error.message}: ${JSON.stringify([...iperfIn(link.a.host, port!), ...iperfIn(link.b.host, port!)])}`,
      );
    });
    console.log(
      `kill: run ${run.id} interrupted by lab-b with ${await db.sample.count({ where: { runId: run.id } })} samples; ${leftAtKill} iperf3 process(es) of its port were left on the hosts right after the kill`,
    );
    expect(await db.linkHold.count({ where: { linkId } })).toBe(0);
    const health = await fetch(`http://127.0.0.1:${labB.port}/health`);
    expect(await health.json()).toMatchObject({ ok: true, db: "ok", database: "postgres", instance: "lab-b" });
  });

  it("stops a hung instance's iperf3 on both hosts through the recorded pids when it takes its run over", async () => {
    // Killed, an instance's iperf3 ends with its SSH channels (above, they were gone at once); frozen
    // (SIGSTOP: a hung process, or one cut off from the database), its channels stay open and its
    // iperf3 runs on: only the takeover, through the pids the run recorded, stops them.
    const linkId = linkIds["ab-1g"]!;
    const link = labLink(state, "ab-1g");
    const labC = await startInstance("lab-c");
    const run = await postRun(labC, { linkId, duration: 60, interval: 0.5 });
    const port = await untilStreaming(run.id);
    labC.child.kill("SIGSTOP");
    try {
      expect(iperfIn(link.a.host, port!).length).toBeGreaterThan(0);
      expect(iperfIn(link.b.host, port!).length).toBeGreaterThan(0);
      await until(
        async () => (await db.run.findUniqueOrThrow({ where: { id: run.id } })).status === "interrupted",
        60_000,
        "lab-b to take the run over",
      );
      expect(await db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
        instance: "lab-b",
        errorKind: "interrupted",
      });
      await waitFor(
        () => iperfIn(link.a.host, port!).length === 0 && iperfIn(link.b.host, port!).length === 0,
        10_000,
        "iperf3 to be gone from both hosts",
      );
      expect(await db.linkHold.count({ where: { linkId } })).toBe(0);
    } finally {
      labC.child.kill("SIGKILL");
    }
  });
});
