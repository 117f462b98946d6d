import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { LAYERS } from "../eslint.config.mjs";

// The folder boundaries of eslint.config.mjs, checked on probe files that are linted as if
// they stood at the given path: a rule that silently stopped matching would let lib/ grow
// imports of components/ again.

const root = path.resolve(__dirname, "..");
const eslint = new ESLint({ cwd: root });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === "no-restricted-imports")
    .map((message) => message.message);
}

// The first lint loads every plugin of the config: seconds on a busy machine.
describe("import boundaries", { timeout: 60_000 }, () => {
  it("refuses components/, app/ and e2e/ in lib/ and agents/, by alias or relative path", async () => {
    expect(
      await restrictedImports(
        "lib/runs/probe.ts",
        'import { queryKeys } from "@/components/queries";\nexport const probe = queryKeys;\n',
      ),
    ).toEqual([expect.stringContaining("lib/ and agents/ never import components/, app/ or e2e/")]);
    expect(
      await restrictedImports(
        "lib/runs/probe.ts",
        'import { GET } from "../../app/api/runs/route";\nexport const probe = GET;\n',
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        "agents/probe.ts",
        'import { labTargets } from "@/testing/lab/lab";\nexport const probe = labTargets;\n',
      ),
    ).toHaveLength(1);
  });

  it("keeps lib/iperf pure and components/ away from the database", async () => {
    expect(
      await restrictedImports("lib/iperf/probe.ts", 'import { db } from "@/lib/db";\nexport const probe = db;\n'),
    ).toContainEqual(expect.stringContaining("lib/iperf is pure"));
    expect(
      await restrictedImports("components/probe.tsx", 'import { db } from "@/lib/db";\nexport const probe = db;\n'),
    ).toContainEqual(expect.stringContaining("components/ hold no database"));
    // A type from the generated client is only a type: the browser gets no Prisma from it.
    expect(
      await restrictedImports(
        "components/probe.tsx",
        'import type { Run } from "@/lib/generated/prisma/client";\nexport type Probe = Run;\n',
      ),
    ).toEqual([]);
  });

  it("keeps testing/ to tests, and lets tests use it", async () => {
    const code = 'import { openTestDatabase } from "@/testing/database";\nexport const probe = openTestDatabase;\n';
    expect(await restrictedImports("lib/runs/probe.ts", code)).toEqual([
      expect.stringContaining("testing/ is test support"),
    ]);
    expect(await restrictedImports("app/probe.ts", code)).toHaveLength(1);
    expect(await restrictedImports("lib/runs/probe.test.ts", code)).toEqual([]);
  });

  it("lets lib/ import lib/ and components/ import lib/", async () => {
    expect(
      await restrictedImports(
        "lib/runs/probe.ts",
        'import { RUN_STATUSES } from "@/lib/runs/contract";\nexport const probe = RUN_STATUSES;\n',
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        "components/probe.tsx",
        'import { RUN_STATUSES } from "@/lib/runs/contract";\nexport const probe = RUN_STATUSES;\n',
      ),
    ).toEqual([]);
  });

  it("keeps each layer of lib/ to the layers below it, contracts and types excepted", async () => {
    const runner =
      'import { ExperimentRunner } from "@/lib/experiments/runner";\nexport const probe = ExperimentRunner;\n';
    expect(await restrictedImports("lib/runs/probe.ts", runner)).toEqual([
      expect.stringContaining("lib/runs may import only its own layer and those below"),
    ]);
    expect(
      await restrictedImports(
        "lib/runs/probe.ts",
        'import { ExperimentRunner } from "../experiments/runner";\nexport const probe = ExperimentRunner;\n',
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports("agents/probe.ts", 'import { db } from "../lib/db";\nexport const probe = db;\n'),
    ).toEqual([expect.stringContaining("agents may import only its own layer and those below")]);
    // Below, a contract, a type, an entry point: all allowed.
    expect(
      await restrictedImports(
        "lib/experiments/probe.ts",
        runner.replace("experiments/runner", "runs/engine").replaceAll("ExperimentRunner", "RunEngine"),
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        "lib/runs/probe.ts",
        'import { EXPERIMENT_KINDS } from "@/lib/experiments/contract";\nexport const probe = EXPERIMENT_KINDS;\n',
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        "lib/running-app.ts",
        'import type { App } from "@/lib/app";\nexport type Probe = App;\n',
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        "lib/runs/actions/probe.ts",
        'import { getApp } from "@/lib/app";\nexport const probe = getApp;\n',
      ),
    ).toEqual([]);
  });

  it('gives components/ only the types of a module marked import "server-only"', async () => {
    expect(
      await restrictedImports(
        "components/probe.tsx",
        'import { listRuns } from "@/lib/runs/lists";\nexport const probe = listRuns;\n',
      ),
    ).toEqual([expect.stringContaining('a module marked import "server-only" gives them types only')]);
    expect(
      await restrictedImports(
        "components/probe.tsx",
        'import type { RunRow } from "@/lib/runs/lists";\nexport type Probe = RunRow;\n',
      ),
    ).toEqual([]);
  });

  it("keeps pages and route handlers away from the database client", async () => {
    expect(
      await restrictedImports("app/api/probe/route.ts", 'import { db } from "@/lib/db";\nexport const probe = db;\n'),
    ).toEqual([expect.stringContaining("app/ validates and calls lib/")]);
  });

  it("places every module of lib/ in a layer", () => {
    const placed = new Set(LAYERS.flat());
    const modules = fs
      .readdirSync(path.join(root, "lib"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)))
      .map((entry) => entry.name.replace(/\.tsx?$/, ""));
    expect(modules.filter((module) => !placed.has(module))).toEqual([]);
  });
});
