// First-load JavaScript of the overview page (/), gzipped, against the goal of 250 kB.
// Reads a finished `next build` (the .next of `npm run build`, or WIRESPEED_DIST_DIR):
// the route's JS is the root main files (build-manifest.json) plus the entry chunks of
// app/layout and app/page (the page's client-reference manifest), the files its HTML
// loads as <script src>. With WIRESPEED_BENCH_URL (a running `npm start`), it also
// fetches the page and sums the <script src> it really references, as a cross-check.
// `--smoke` (the end-to-end suite, beside its own build and server: e2e/bench-smoke.spec.ts) does
// the same: reading one build is already quick.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const GOAL_BYTES = 250 * 1000;
const distDir = path.resolve(process.env.WIRESPEED_DIST_DIR || ".next");

function fail(message: string): never {
  console.error(`overview-js: ${message}`);
  process.exit(1);
}

function readJson<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

function manifestFiles(): string[] {
  const buildManifestPath = path.join(distDir, "build-manifest.json");
  const clientManifestPath = path.join(distDir, "server/app/page_client-reference-manifest.js");
  if (!fs.existsSync(buildManifestPath) || !fs.existsSync(clientManifestPath))
    fail(`no build in ${distDir}: run \`npm run build\` (or set WIRESPEED_DIST_DIR)`);
  const buildManifest = readJson<{ rootMainFiles: string[] }>(buildManifestPath);
  // The manifest is a script that assigns globalThis.__RSC_MANIFEST[route].
  const sandbox: { __RSC_MANIFEST?: Record<string, { entryJSFiles: Record<string, string[]> }> } = {};
  new Function("globalThis", fs.readFileSync(clientManifestPath, "utf8"))(sandbox);
  const entries =
    sandbox.__RSC_MANIFEST?.["/page"]?.entryJSFiles ?? fail("the client-reference manifest has no /page entry");
  const files = new Set(buildManifest.rootMainFiles);
  for (const key of ["[project]/app/layout", "[project]/app/page"])
    for (const file of entries[key] ?? []) files.add(file);
  return [...files];
}

function gzipSize(buffer: Buffer): number {
  return zlib.gzipSync(buffer, { level: 9 }).length;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

async function main(): Promise<void> {
  const files = manifestFiles();
  let raw = 0;
  let gzipped = 0;
  const rows: Array<[string, number, number]> = [];
  for (const file of files) {
    const buffer = fs.readFileSync(path.join(distDir, file));
    const size = gzipSize(buffer);
    raw += buffer.length;
    gzipped += size;
    rows.push([file, buffer.length, size]);
  }
  rows.sort((a, b) => b[2] - a[2]);
  if (process.argv.includes("--smoke")) console.log("overview-js: SMOKE RUN (--smoke)");
  if (files.length === 0 || gzipped === 0) fail("wrong result: the overview loads no JavaScript");
  console.log(`overview (/) first-load JS from ${path.relative(process.cwd(), distDir) || "."}: ${files.length} files`);
  for (const [file, size, zipped] of rows)
    console.log(`  ${file.padEnd(44)} ${kB(size).padStart(10)} raw ${kB(zipped).padStart(9)} gzip`);
  console.log(`total: ${kB(raw)} raw, ${kB(gzipped)} gzipped (gzip -9)`);

  const url = process.env.WIRESPEED_BENCH_URL;
  if (url) {
    const html = await (await fetch(new URL("/", url))).text();
    const tags = [...html.matchAll(/<script\s([^>]*)>/g)]
      .map((tag) => tag[1]!)
      .filter((attributes) => /(^|\s)src="/.test(attributes));
    // nomodule scripts are polyfills that browsers with ES modules never fetch.
    const sources = [
      ...new Set(
        tags
          .filter((tag) => !/(^|\s)nomodule/i.test(tag))
          .map((tag) => /(?:^|\s)src="([^"]+)"/.exec(tag)![1]!.replace(/&amp;/g, "&")),
      ),
    ];
    let served = 0;
    for (const source of sources)
      served += gzipSize(Buffer.from(await (await fetch(new URL(source, url))).arrayBuffer()));
    console.log(
      `cross-check: ${url} references ${sources.length} <script src> (plus ${tags.length - sources.length} nomodule), ${kB(served)} gzipped`,
    );
  }
  const verdict = gzipped <= GOAL_BYTES ? "meets" : "MISSES";
  console.log(`verdict: ${kB(gzipped)} gzipped ${verdict} the goal of under ${kB(GOAL_BYTES)}`);
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
