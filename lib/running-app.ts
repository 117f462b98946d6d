import type { App } from "@/lib/app";

// The one app of this process, and how every module reaches it. Below every feature: it knows the
// app's type only, so the features that read `getApp()` (the database client of lib/db.ts, the
// principal of a request, the buses of the event streams) do not import the composition root
// (lib/app.ts) that imports them. lib/app.ts provides the factory that builds the app from the
// environment, the first time it is loaded; a test installs an app of its own.
//
// On the global object because the server loads lib/ more than once (instrumentation and each route
// bundle, and again at each dev-mode reload): every copy must reach the same services, or a run
// started by one copy is unknown to another.
const holder = globalThis as unknown as { wirespeed?: { app?: App; build?: () => App } };
const slot = (holder.wirespeed ??= {});

/** The running app; built by the factory lib/app.ts provides the first time it is asked for. */
export function getApp(): App {
  if (slot.app) return slot.app;
  if (!slot.build) {
    throw new Error(
      "No Wirespeed app in this process: import @/lib/app (it builds one) or install one with installApp.",
    );
  }
  return (slot.app = slot.build());
}

/** Makes `app` the running one (tests and tools that build their own); undefined forgets it. */
export function installApp(app: App | undefined): void {
  slot.app = app;
}

/** How getApp builds the app when none is installed (lib/app.ts: from the environment). */
export function provideAppFactory(build: () => App): void {
  slot.build ??= build;
}
