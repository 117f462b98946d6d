import "server-only";
import { getApp } from "@/lib/running-app";
import type { Principal } from "./principal";

// The principal of the request being served, for code far below the wrapper that needs
// it: the audit log (who did it) and the credential check inside host updates.

// The storage is the app's (lib/app.ts): the server loads this module more than once
// (instrumentation and each route bundle), and the run engine, created at start, must see the
// principal that a route handler set.

export function withPrincipal<T>(principal: Principal, body: () => T): T {
  return getApp().principals.run(principal, body);
}

/** null outside a request (start-up, the CLI, tests calling lib/ directly): the system acts. */
export function currentPrincipal(): Principal | null {
  return getApp().principals.getStore() ?? null;
}
