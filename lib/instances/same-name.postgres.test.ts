// Two app processes of one name on one Postgres database (testing/instance-process.ts: the server's
// start-up), as two instances on one machine without WIRESPEED_INSTANCE are: both take the host name.
// The second must refuse to start, and a restart after a SIGKILL must still recover its runs at once.
// Only in the `postgres` project; the same rules in one process are lib/instances/instances.test.ts.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseRunRequest } from "@/lib/runs/request";
import { openTestDatabase } from "@/testing/database";
import { seedLocalLinks } from "@/testing/local-links";
import { resolveInstanceIdentity } from "./identity";

const database = await openTestDatabase();
const ROOT = path.resolve(__dirname, "../..");
const SECRET = "same-name-test-shared-secret-0123456789";
// Neither process is given a name: both take the host name, as the two instances did.
const NAME = resolveInstanceIdentity({}).id;
const spawned: ChildProcess[] = [];

type Started = { child: ChildProcess; output: () => string; exited: Promise<number | null> };

/** An instance process on this file's database, with the given lease; resolves once it serves or exits. */
async function startInstance(leaseSeconds: number): Promise<Started> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    WIRESPEED_INSTANCE_LEASE_SECONDS: String(leaseSeconds),
    WIRESPEED_SECRET: SECRET,
    WIRESPEED_DATA_DIR: database.dataDir,
  };
  delete env.WIRESPEED_INSTANCE;
  delete env.PORT;
  const child = spawn(
    process.execPath,
    ["--require", path.join(ROOT, "testing/server-only.cjs"), "--import", "tsx", "testing/instance-process.ts", "0"],
    { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  spawned.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const listening = new Promise<void>((resolve) => {
    const check = () => (/listening \d+\n/.test(output) ? resolve() : undefined);
    child.stdout!.on("data", check);
  });
  await Promise.race([listening, exited]);
  return { child, output: () => output, exited };
}

function portOf(instance: Started): number {
  return Number(/listening (\d+)/.exec(instance.output())![1]);
}

afterAll(async () => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await database.close();
});

describe("two instance processes of one name on one database", () => {
  it("the second refuses to start: exit 1, one line naming WIRESPEED_INSTANCE, the first's address and last heartbeat", async () => {
    const first = await startInstance(30);
    expect(first.child.exitCode, first.output()).toBeNull();
    const port = portOf(first);

    // It resolves once the second serves or exits: serving is the defect.
    const second = await startInstance(30);
    expect(second.output()).not.toMatch(/listening \d+/);
    expect(await second.exited, second.output()).toBe(1);
    const refusal = second
      .output()
      .split("\n")
      .filter((line) => line.includes("cannot start"));
    expect(refusal, second.output()).toHaveLength(1);
    expect(refusal[0]).toMatch(
      new RegExp(
        `^\\[wirespeed\\] cannot start: another instance named ${NAME.replace(/\./g, "\\.")} is running at .* port ${port}, pid ${first.child.pid} ` +
          `\\(last heartbeat \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z, \\d+ s ago\\): give each instance on this database its own WIRESPEED_INSTANCE$`,
      ),
    );

    // The first keeps its row and answers.
    const row = await database.db.instance.findUniqueOrThrow({ where: { id: NAME } });
    expect(row.pid).toBe(first.child.pid);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(await health.json()).toMatchObject({ ok: true, instance: NAME });

    first.child.kill("SIGKILL");
    await first.exited;
  }, 180_000);

  it("one restarted after a SIGKILL recovers its runs at once, long before its lease (an hour) ends", async () => {
    const [linkId] = await seedLocalLinks(database.db, 1);
    const first = await startInstance(3600);
    expect(first.child.exitCode, first.output()).toBeNull();
    // A run under way on the first when it dies (recorded as its engine records one; no iperf3 to stop).
    const left = await database.db.run.create({
      data: {
        linkId: linkId!,
        clientSide: "a",
        options: parseRunRequest({ duration: 60 }).options,
        status: "running",
        instance: NAME,
      },
    });
    first.child.kill("SIGKILL");
    await first.exited;

    // Its heartbeat is seconds old and its lease an hour: only the dead pid lets the restart through now.
    const restarted = await startInstance(3600);
    expect(restarted.child.exitCode, restarted.output()).toBeNull();
    const run = await database.db.run.findUniqueOrThrow({ where: { id: left.id } });
    expect(run.status).toBe("interrupted");
    expect(run.errorMessage).toBe("Wirespeed stopped while this run was in progress.");
    expect((await database.db.instance.findUniqueOrThrow({ where: { id: NAME } })).pid).toBe(restarted.child.pid);
    restarted.child.kill("SIGKILL");
    await restarted.exited;
  }, 180_000);
});
