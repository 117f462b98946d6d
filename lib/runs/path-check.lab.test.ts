// The proof of the path on the lab: each end's NIC counters read around the test, in the commands
// that start the client and the server. An ordinary link carries its own bytes (on-link); gd-detour's
// peer addresses are routed over gd-indep-2 (testing/lab/topology.json, `routedVia`), so a test bound
// to gd-detour's addresses leaves by another NIC (off-link).
import { describe, expect, it } from "vitest";
import { labLink } from "@/testing/lab-targets";
import { openLabDatabase } from "@/testing/lab-database";
import { runToEnd } from "@/testing/run-to-end";
import { getRunDiagnosis } from "@/lib/diagnosis/reads";
import { RunEventBus } from "./bus";
import { parseStoredPathCheck } from "./contract";
import { RunEngine } from "./engine";
import { agentRunRemote } from "./remote-agents";

const { db, state, linkIds } = await openLabDatabase();
const engine = new RunEngine(agentRunRemote, new RunEventBus());

async function run(linkName: string, body: Record<string, unknown>, on: RunEngine = engine) {
  const id = await runToEnd(on, linkIds[linkName]!, { duration: 2, ...body });
  const row = await db.run.findUniqueOrThrow({ where: { id } });
  expect(row.errorMessage).toBeNull();
  expect(row.status).toBe("succeeded");
  return { row, check: parseStoredPathCheck(row.pathCheck) };
}

describe("proof of the path on the lab", () => {
  it.each([
    ["a-to-b", "client"],
    ["b-to-a", "server"],
  ] as const)(
    "an ordinary link carries its own bytes (%s): on-link, judged by the sender's NIC",
    async (direction, sender) => {
      const link = labLink(state, "ab-1g");
      const { row, check } = await run("ab-1g", { direction });
      expect(check).toMatchObject({
        client: { nic: link.a.nic },
        server: { nic: link.b.nic },
        iperfBytes: row.sentBytes,
        verdict: "on-link",
        sender,
      });
      expect(row.pathVerdict).toBe("on-link");
      // Headers ride on top of iperf3's payload; the last of it may still be queued when the client has exited.
      const sent = check![sender]!.txBytes!;
      expect(sent).toBeGreaterThan(row.sentBytes! * 0.9);
      expect(sent).toBeLessThan(row.sentBytes! * 1.2);
      expect(check!.percent).toBeGreaterThanOrEqual(90);
    },
  );

  it("checks both directions of --bidir", async () => {
    const { row, check } = await run("ab-1g", { direction: "bidir" });
    expect(check).toMatchObject({ verdict: "on-link", iperfBytes: row.sentBytes! + row.reverseSentBytes! });
  });

  it("a link whose peer address is routed over another interface: off-link, with a critical hint naming the route to check", async () => {
    const link = labLink(state, "gd-detour");
    const { row, check } = await run("gd-detour", { direction: "a-to-b" });
    // The bytes went by gd-indep-2, at its rate: the result alone would look like a fine link.
    expect(row.receivedBitsPerSecond).toBeGreaterThan(0.9e9);
    expect(check).toMatchObject({ client: { nic: link.a.nic }, verdict: "off-link", sender: "client" });
    expect(check!.percent).toBeLessThan(5);
    expect(row.pathVerdict).toBe("off-link");
    const offLink = (await getRunDiagnosis(row.id))?.hints.find((hint) => hint.id === "off-link");
    expect(offLink).toMatchObject({ severity: "critical" });
    expect(offLink!.evidence).toMatch(new RegExp(`went through ${link.a.nic} on gamma`));
    expect(offLink!.evidence).toContain(`(check \`ip route get ${link.b.address}\` on gamma)`);

    const reverse = await run("gd-detour", { direction: "b-to-a" });
    expect(reverse.check).toMatchObject({ verdict: "off-link", sender: "server", server: { nic: link.b.nic } });
  });

  it("reads a vmk's counters on the ESXi stand-in from its vSwitch's uplink (esxcli network nic stats get)", async () => {
    const { check } = await run("a-esx", { direction: "b-to-a" });
    expect(check).toMatchObject({
      verdict: "on-link",
      sender: "server",
      server: { nic: expect.stringMatching(/^vmk\d+$/) },
    });
  });
});
