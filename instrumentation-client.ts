// Runs in the browser before the app starts.
import { z } from "zod";

// zod compiles object parsers with `new Function` when eval is allowed, and probes for it
// on first use. The pages' Content-Security-Policy (proxy.ts) forbids eval: the probe's error
// is caught, but the browser still reports a violation on every page that parses a form.
// jitless skips the probe and the compilation.
z.config({ jitless: true });
