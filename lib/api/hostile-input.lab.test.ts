/**
 * Hostile input against real lab hosts (real sshd, iperf3, BusyBox ash on the ESXi stand-in): every
 * option of a run request and every host, NIC and link setting, with values built to leave a marker
 * file (`$(touch …)`, `; touch …`, iperf3's `--logfile=…`, ssh's `-oProxyCommand=…`) if anything ever
 * ran them. Each is a 400 naming the field; no run is recorded, no SSH connection is opened, no iperf3
 * starts in any lab namespace, and the marker never appears (the namespaces share this filesystem).
 * Then the control: characters a field does allow (spaces, parentheses, +, non-ASCII letters in an
 * iperf3 path) reach the hosts quoted, and a real test runs through them.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import type { LabState } from "@/testing/lab-state";
import { labHost, processesInHost, requireLabState } from "@/testing/lab-targets";
import {
  HOST_FIELDS,
  LINK_FIELDS,
  MARKER,
  NIC_FIELDS,
  RUN_FIELDS,
  bodyWith,
  expand,
  expectRefused,
  timedCall,
  type Answer,
} from "@/testing/hostile-values";
import { openTestApi, type TestApi } from "@/testing/test-api";
import type { LabInventory } from "@/testing/lab-inventory";
import { getApp } from "@/lib/app";
import { seedLabInventory } from "@/testing/lab-inventory";
import { closeAll } from "@/lib/ssh";

let api: TestApi;
let state: LabState;
let inventory: LabInventory;
let startRunSpy: MockInstance;
let poolSize: () => number;
// A directory whose name only a quoted word can carry, holding a link to the real iperf3.
const ODD_DIR = `${MARKER}-dir (x)+ünï`;

beforeAll(async () => {
  fs.rmSync(MARKER, { force: true });
  state = requireLabState();
  api = await openTestApi();
  inventory = await seedLabInventory(state);
  const runEngine = getApp().runs;
  // A spy that calls through: the control run at the end really runs.
  startRunSpy = vi.spyOn(runEngine, "startRun");
  ({ poolSize } = await import("@/lib/ssh"));
});

afterAll(async () => {
  startRunSpy?.mockRestore();
  await closeAll();
  await api?.close();
  fs.rmSync(ODD_DIR, { recursive: true, force: true });
});

function send(method: string, pathName: string, body?: unknown): Promise<Answer> {
  return timedCall(api, method, pathName, body);
}

/** iperf3 processes themselves (not a shell that mentions the word) in any lab host's namespace. */
function iperfProcesses(): string[] {
  return state.hosts.flatMap((host) =>
    processesInHost(host, "iperf3")
      .filter((process) => path.basename(process.cmdline.split(" ")[0]!).startsWith("iperf3"))
      .map((process) => `${host.name}: ${process.cmdline}`),
  );
}

function expectNothingRan(): void {
  expect(fs.existsSync(MARKER), `${MARKER} exists: a host ran a hostile value`).toBe(false);
  expect(poolSize(), "an SSH connection was opened").toBe(0);
  expect(iperfProcesses()).toEqual([]);
  expect(startRunSpy).not.toHaveBeenCalled();
}

describe("run requests on real links", () => {
  it.each(["ab-1g", "a-esx"])(
    "every hostile value of every option on %s is a 400 naming the option, and nothing starts",
    async (linkName) => {
      const linkId = inventory.linkIds[linkName]!;
      expect(linkId).toBeGreaterThan(0);
      let sent = 0;
      for (const [field, spec] of Object.entries(RUN_FIELDS)) {
        for (const { label, value, isAllowed } of expand(spec)) {
          // a value the option allows would start a real test: the control at the end does that once
          if (isAllowed) continue;
          expectRefused(
            await send("POST", `/api/links/${linkId}/runs`, { [field]: value }),
            field,
            `${linkName} ${label}`,
          );
          sent++;
        }
      }
      // Unknown keys are named, never passed on: an `args` array cannot reach the command line.
      expectRefused(await send("POST", `/api/links/${linkId}/runs`, { args: ["--logfile", MARKER] }), "args", "args");
      expect(sent).toBeGreaterThan(400);
      expect(await api.db.run.count()).toBe(0);
      expectNothingRan();
    },
  );

  it("hostile ids on the run routes are 400s too", async () => {
    for (const id of [`1;touch ${MARKER}`, `$(touch ${MARKER})`, "1 --logfile x", "-1", "1e3"]) {
      const encoded = encodeURIComponent(id);
      for (const [method, route] of [
        ["POST", `/api/links/${encoded}/runs`],
        ["POST", `/api/runs/${encoded}/rerun`],
        ["POST", `/api/runs/${encoded}/cancel`],
        ["POST", `/api/hosts/${encoded}/check`],
        ["POST", `/api/hosts/${encoded}/discover`],
      ] as const) {
        expectRefused(await send(method, route, { duration: 1 }), "id", `${method} ${route}`);
      }
    }
    expectNothingRan();
  });
});

describe("host, NIC and link settings of real lab hosts", () => {
  it("every hostile value of every host field is a 400, and the host is left as it was", async () => {
    for (const [name, id] of Object.entries(inventory.hostIds)) {
      const before = (await send("GET", `/api/hosts/${id}`)).text;
      for (const [field, spec] of Object.entries(HOST_FIELDS)) {
        for (const { label, value, isAllowed } of expand(spec)) {
          if (isAllowed) continue;
          expectRefused(await send("PATCH", `/api/hosts/${id}`, bodyWith({}, field, value)), field, `${name} ${label}`);
        }
      }
      expect((await send("GET", `/api/hosts/${id}`)).text, name).toBe(before);
    }
    expectNothingRan();
  });

  it("every hostile value of every NIC and link field is a 400, and they are left as they were", async () => {
    for (const [name, id] of Object.entries(inventory.nicIds)) {
      const before = (await send("GET", `/api/nics/${id}`)).text;
      for (const [field, spec] of Object.entries(NIC_FIELDS)) {
        for (const { label, value, isAllowed } of expand(spec)) {
          if (isAllowed) continue;
          expectRefused(await send("PATCH", `/api/nics/${id}`, { [field]: value }), field, `${name} ${label}`);
        }
      }
      expect((await send("GET", `/api/nics/${id}`)).text, name).toBe(before);
    }
    for (const [name, id] of Object.entries(inventory.linkIds)) {
      const before = (await send("GET", `/api/links/${id}`)).text;
      for (const [field, spec] of Object.entries(LINK_FIELDS)) {
        for (const { label, value, isAllowed } of expand(spec)) {
          if (isAllowed) continue;
          expectRefused(await send("PATCH", `/api/links/${id}`, { [field]: value }), field, `${name} ${label}`);
        }
      }
      expect((await send("GET", `/api/links/${id}`)).text, name).toBe(before);
    }
    expectNothingRan();
  });

  it("after all of it every lab host Wirespeed logs in to still checks out: reachable, its pinned key, iperf3 found", async () => {
    for (const [name, id] of Object.entries(inventory.hostIds)) {
      // An iperf3 server or a device has nothing to log in to (lib/hosts/check.ts refuses it).
      if (labHost(state, name).access !== "ssh") continue;
      const check = await send("POST", `/api/hosts/${id}/check`);
      expect(check.status, name).toBe(200);
      expect(check.body, name).toMatchObject({
        reachable: true,
        hostKey: { status: "pinned", pinned: labHost(state, name).hostKeyFingerprint },
        error: null,
      });
    }
    expect(fs.existsSync(MARKER)).toBe(false);
    expect(iperfProcesses()).toEqual([]);
  });
});

describe("the control: what a field allows reaches the hosts quoted, and runs", () => {
  it("an iperf3 path with spaces, ( ) + and non-ASCII letters is found on the host and a real test runs through it", async () => {
    fs.mkdirSync(ODD_DIR, { recursive: true });
    const iperf3 = execFileSync("sh", ["-c", "command -v iperf3"], { encoding: "utf8" }).trim();
    const oddPath = path.join(ODD_DIR, "iperf3");
    fs.symlinkSync(iperf3, oddPath);

    const alphaId = inventory.hostIds.alpha!;
    expect((await send("PATCH", `/api/hosts/${alphaId}`, { iperf3Path: oddPath })).status).toBe(200);
    const check = await send("POST", `/api/hosts/${alphaId}/check`);
    expect(check.body, check.text).toMatchObject({ reachable: true, error: null, iperf3: { path: oddPath } });

    const started = await send("POST", `/api/links/${inventory.linkIds["ab-1g"]}/runs`, {
      duration: 2,
      congestion: "cubic",
      tos: 0,
      omit: 0,
    });
    expect(started.status, started.text).toBe(202);
    const deadline = Date.now() + 60_000;
    let run = await send("GET", `/api/runs/${started.body.id}`);
    while (["queued", "preparing", "running"].includes(run.body.status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      run = await send("GET", `/api/runs/${started.body.id}`);
    }
    // Unquoted, sh would stop at "(x)" with a syntax error: the run got through only as one quoted word.
    expect(run.body.status, run.text.slice(0, 500)).toBe("succeeded");
    expect(run.body.summary.receivedBitsPerSecond).toBeGreaterThan(0);
    // The stored command (alpha runs the client) is the line a user could paste into its shell: the path quoted.
    expect(run.body.commands.client).toContain(`'${oddPath}'`);
    expect(startRunSpy).toHaveBeenCalledTimes(1);
    expect(fs.existsSync(MARKER)).toBe(false);
    expect((await send("PATCH", `/api/hosts/${alphaId}`, { iperf3Path: null })).status).toBe(200);
  });
});
