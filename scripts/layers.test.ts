import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// No two folders of lib/ (or agents/) import each other, even through others: eslint.config.mjs
// orders the layers, and this finds a cycle inside one layer too. Counted as eslint does: value
// imports only (a type is no dependency at run time), server actions apart (entry points, like
// route handlers), and the pure contracts (`contract.ts`, `schemas.ts`) below everything.

const root = path.resolve(__dirname, "..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "generated" || entry.name === "fixtures" ? [] : sourceFiles(relative);
    return /\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

/** `runs` for lib/runs/engine.ts, `app` for lib/app.ts, `agents` for anything in agents/. */
function folderOf(file: string): string {
  const [top, second] = file.split("/");
  return top === "agents" ? "agents" : second!.replace(/\.tsx?$/, "");
}

/** The folder graph: folder → the folders it imports values from, with one importing file each. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of [...sourceFiles("lib"), ...sourceFiles("agents")]) {
    if (file.includes("/actions/")) continue;
    const source = fs.readFileSync(path.join(root, file), "utf8");
    for (const [, specifier] of source.matchAll(/^(?:import|export) (?!type )[^;]*?from "([^"]+)";/gms)) {
      let target: string;
      if (specifier!.startsWith("@/")) target = specifier!.slice(2);
      else if (specifier!.startsWith(".")) target = path.join(path.dirname(file), specifier!);
      else continue;
      if (!/^(lib|agents)(\/|$)/.test(target) || /\/(contract|schemas)$/.test(target)) continue;
      const from = folderOf(file);
      const to = target === "agents" ? "agents" : folderOf(target);
      if (from === to || to === "generated") continue;
      if (!graph.has(from)) graph.set(from, new Map());
      graph.get(from)!.set(to, file);
    }
  }
  return graph;
}

/** A cycle of folders as `a → b → a` with the file behind each step, or null. */
function findCycle(graph: Map<string, Map<string, string>>): string | null {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (folder: string): string | null => {
    state.set(folder, "open");
    stack.push(folder);
    for (const next of graph.get(folder)?.keys() ?? []) {
      if (state.get(next) === "open") {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        return cycle
          .slice(1)
          .map((to, i) => `${cycle[i]} → ${to} (${graph.get(cycle[i]!)!.get(to)})`)
          .join(", ");
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(folder, "done");
    return null;
  };
  for (const folder of graph.keys()) {
    if (!state.has(folder)) {
      const found = visit(folder);
      if (found) return found;
    }
  }
  return null;
}

describe("the folders of lib/ and agents/", () => {
  it("import each other in one direction only", () => {
    const graph = folderGraph();
    // The graph is read, not empty: runs imports the inventory, experiments import runs.
    expect(graph.get("runs")?.has("inventory")).toBe(true);
    expect(graph.get("experiments")?.has("runs")).toBe(true);
    expect(findCycle(graph)).toBeNull();
  });

  it("finds a cycle when there is one", () => {
    const graph = folderGraph();
    graph.get("runs")!.set("experiments", "lib/runs/probe.ts");
    expect(findCycle(graph)).toContain("runs → experiments (lib/runs/probe.ts)");
  });
});
