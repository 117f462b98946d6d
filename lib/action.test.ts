import { afterEach, describe, expect, it, vi } from "vitest";
import { actionFailureOf, runAction } from "@/lib/action";
import { AuthError } from "@/lib/auth/errors";
import { AppError, STATUS_OF_KIND, type AppErrorKind } from "@/lib/errors";
import { InventoryError } from "@/lib/inventory/errors";
import { RunError } from "@/lib/runs/errors";
import { SshAuthError } from "@/lib/ssh/errors";

// The server actions' one error mapper: every AppError becomes { ok: false } with its
// message (and hint) and fields; anything else a generic message and one logged line.

afterEach(() => {
  vi.restoreAllMocks();
});

describe("actionFailureOf", () => {
  it.each(Object.keys(STATUS_OF_KIND) as AppErrorKind[])("answers %s with its message, hint and fields", (kind) => {
    const fields = [{ field: "name", message: "is taken" }];
    expect(actionFailureOf(new AppError(kind, "nas1 failed", { hint: "Check it", fields }), "test")).toEqual({
      ok: false,
      message: "nas1 failed. Check it",
      errors: fields,
    });
    expect(actionFailureOf(new AppError(kind, "nas1 failed"), "test")).toEqual({
      ok: false,
      message: "nas1 failed",
      errors: [],
    });
  });

  it("answers the subclasses alike: not allowed, validation, not found, a host that failed", () => {
    expect(actionFailureOf(new AuthError("forbidden", "Your role (viewer) does not allow changes."), "x")).toEqual({
      ok: false,
      message: "Your role (viewer) does not allow changes.",
      errors: [],
    });
    const fields = [{ field: "name", message: "is taken" }];
    expect(actionFailureOf(new InventoryError("conflict", "name is taken", { fields }), "x")).toEqual({
      ok: false,
      message: "name is taken",
      errors: fields,
    });
    expect(actionFailureOf(new RunError("not-found", "Run 7 does not exist."), "x")).toEqual({
      ok: false,
      message: "Run 7 does not exist.",
      errors: [],
    });
    expect(actionFailureOf(new SshAuthError("authentication to nas1 failed", { host: "nas1" }), "x")).toEqual({
      ok: false,
      message: "authentication to nas1 failed",
      errors: [],
    });
  });

  it("answers anything else with a generic message and logs only its first line", () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
    const leaky = Object.assign(
      new Error("Invalid `prisma.host.create()` invocation:\n  secret: PRIVATE-KEY-MATERIAL"),
      { kind: "auth", hint: "x" },
    );
    expect(actionFailureOf(leaky, "create-host")).toEqual({
      ok: false,
      message: "Something went wrong on the server: see its log.",
      errors: [],
    });
    expect(logged).toEqual(["action create-host: unexpected error: Invalid `prisma.host.create()` invocation:"]);
    expect(logged.join("\n")).not.toContain("PRIVATE-KEY-MATERIAL");
  });
});

describe("runAction", () => {
  it("answers the body's value, or the mapped failure of what it threw", async () => {
    expect(await runAction("sign-in", null, async () => ({ next: "/" }))).toEqual({ ok: true, value: { next: "/" } });
    const failed = await runAction("sign-in", null, async () => {
      throw new AuthError("unauthorized", "Wrong username or password.");
    });
    expect(failed).toEqual({ ok: false, message: "Wrong username or password.", errors: [] });
  });
});

describe("actionFailureOf with an error from another copy of lib/errors.ts", () => {
  it("answers it with its message and fields, as the same copy's (services started by instrumentation.ts throw those)", async () => {
    vi.resetModules();
    const copy = await import("@/lib/errors");
    expect(copy.AppError).not.toBe(AppError);
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const fields = [{ field: "linkIds", message: "must be at least two" }];
    expect(actionFailureOf(copy.invalidInput(fields), "startExperiment")).toEqual({
      ok: false,
      message: "linkIds must be at least two",
      errors: fields,
    });
    expect(log).not.toHaveBeenCalled();
  });
});
