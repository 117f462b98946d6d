// What changed in the environment between the runs of a compare, in sentences: "MTU 1500 → 9000 on
// both ends". Pure: no I/O, safe in the browser.
import type { EnvironmentSnapshot, RunEnvironment } from "./contract";
import { environmentRows, UNKNOWN, type EnvironmentRow } from "./format";

export type RunWithEnvironment = { runId: number; environment: RunEnvironment | null };

type Role = "client" | "server";

// "Driver" → "driver", "Congestion control" → "congestion control"; "MTU", "PCIe", "iperf3" stay.
function inSentence(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;
}

/**
 * One field's values over the runs, as read: a value that could not be read is no change, and a value
 * repeated in the next run is said once ([1500, 1500, 9000] → 1500 → 9000).
 */
function chainOf(rowsPerRun: ReadonlyArray<readonly EnvironmentRow[]>, key: string): string[] {
  const chain: string[] = [];
  for (const rows of rowsPerRun) {
    const value = rows.find((row) => row.key === key)?.value;
    if (value === undefined || value === UNKNOWN || value === chain.at(-1)) continue;
    chain.push(value);
  }
  return chain;
}

// "ixgbe 5.1 → ixgbe 5.19" → "ixgbe 5.1 → 5.19": the same driver is named once.
function chainText(key: string, chain: readonly string[]): string {
  if (key === "nic.driver") {
    const names = chain.map((value) => value.split(" ")[0]);
    if (chain.every((value, i) => value.includes(" ") && names[i] === names[0]))
      return `${names[0]} ${chain.map((value) => value.slice(names[0]!.length + 1)).join(" → ")}`;
  }
  return chain.join(" → ");
}

/**
 * For the runs of a compare, in their order: each field (the rows of format.ts) whose value differs
 * between runs, one line each, "driver ixgbe 5.1 → 5.19 on the server", "congestion control cubic →
 * bbr on the client", the values of more than two runs chained. When both ends changed the same way,
 * one line says "on both ends". An end without a snapshot in a run is left out of that end's chain (a
 * run from before snapshots says nothing). Nothing changed: [].
 *
 * The ends are the runs' roles: runs of opposite directions compare one host's client with the other's.
 */
export function environmentChanges(runs: readonly RunWithEnvironment[]): string[] {
  const rowsOf = (role: Role) =>
    runs
      .map((run) => run.environment?.[role] ?? null)
      .filter((snapshot): snapshot is EnvironmentSnapshot => snapshot !== null)
      .map(environmentRows);
  const client = rowsOf("client");
  const server = rowsOf("server");
  const fields = new Map<string, string>();
  for (const rows of [...client, ...server])
    for (const { key, label } of rows) if (!fields.has(key)) fields.set(key, label);

  const lines: string[] = [];
  for (const [key, label] of fields) {
    const ends = { client: chainOf(client, key), server: chainOf(server, key) };
    const said = (chain: string[], where: string) => `${inSentence(label)} ${chainText(key, chain)} on ${where}`;
    if (ends.client.length > 1 && ends.client.join("\n") === ends.server.join("\n")) {
      lines.push(said(ends.client, "both ends"));
      continue;
    }
    if (ends.client.length > 1) lines.push(said(ends.client, "the client"));
    if (ends.server.length > 1) lines.push(said(ends.server, "the server"));
  }
  return lines;
}
