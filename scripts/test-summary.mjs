#!/usr/bin/env node
// Adds up the JSON reports of vitest and Playwright into one closing line.
import fs from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? "test-results";
let passed = 0;
let failed = 0;
let skipped = 0;
for (const name of fs
  .readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .sort()) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, name), "utf8"));
  let line;
  if ("numPassedTests" in report) {
    // vitest
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    line = `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`;
  } else if (report.stats) {
    // Playwright: "expected" are passes, "flaky" passed on retry.
    const { expected, unexpected, skipped: notRun, flaky } = report.stats;
    passed += expected + flaky;
    failed += unexpected;
    skipped += notRun;
    line = `${expected + flaky} passed, ${unexpected} failed, ${notRun} skipped`;
  } else {
    continue;
  }
  console.log(`${name.replace(/\.json$/, "").padEnd(8)} ${line}`);
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
