/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload for `node --require`: require is what it has */
// For scripts run outside Next.js (benchmarks, test helpers): `import "server-only"` throws
// there, and the "react-server" condition that would silence it breaks React for modules that
// import Next.js (lib/auth/guard.ts). This resolves "server-only" to its empty module instead.
//   node --require ./testing/server-only.cjs --import tsx bench/experiment.bench.ts
const Module = require("node:module");
const path = require("node:path");
const empty = path.join(path.dirname(require.resolve("server-only")), "empty.js");
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === "server-only" ? empty : resolveFilename.call(this, request, ...rest);
};
