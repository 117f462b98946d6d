import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The folder boundaries of eslint.config.mjs, checked on probe files that are linted as if
// they stood at the given path: a rule that silently stopped matching would let lib/ grow
// imports of components/ again.

const eslint = new ESLint({ cwd: path.resolve(__dirname, "..") });

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
    ).toEqual([expect.stringContaining("lib/iperf is pure")]);
    expect(
      await restrictedImports("components/probe.tsx", 'import { db } from "@/lib/db";\nexport const probe = db;\n'),
    ).toEqual([expect.stringContaining("components/ hold no database")]);
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
});
