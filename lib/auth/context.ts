import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Principal } from "./principal";

// The principal of the request being served, for code far below the wrapper that needs
// it: the audit log (who did it) and the credential check inside host updates.

// On globalThis: the server loads this module more than once (instrumentation and each
// route bundle), and the run engine, created at start, must see the principal that a
// route handler set.
const holder = globalThis as typeof globalThis & { wirespeedPrincipalStorage?: AsyncLocalStorage<Principal> };
const storage = (holder.wirespeedPrincipalStorage ??= new AsyncLocalStorage<Principal>());

export function withPrincipal<T>(principal: Principal, body: () => T): T {
  return storage.run(principal, body);
}

/** null outside a request (start-up, the CLI, tests calling lib/ directly): the system acts. */
export function currentPrincipal(): Principal | null {
  return storage.getStore() ?? null;
}
