import { afterEach, describe, expect, it, vi } from "vitest";
import { errorResponse } from "@/lib/api/errors";
import { AuthError } from "@/lib/auth/errors";
import { AppError, STATUS_OF_KIND, isRequestErrorKind, type AppErrorKind } from "@/lib/errors";
import { InventoryError } from "@/lib/inventory/errors";
import { IperfOptionError } from "@/lib/iperf";
import { RunError } from "@/lib/runs/errors";
import { PortExhaustedError } from "@/lib/runs/ports";
import { SecretOpenError } from "@/lib/secrets/envelope";
import { hostKeyMismatch, HostKeyMismatchError, SshUnreachableError } from "@/lib/ssh/errors";

// The REST API's one error mapper: every AppError by its kind, anything else a logged 500.

async function answer(error: unknown): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = errorResponse(error, "GET /api/test");
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const KINDS = Object.keys(STATUS_OF_KIND) as AppErrorKind[];

afterEach(() => {
  vi.restoreAllMocks();
});

describe("errorResponse", () => {
  it.each(KINDS.filter(isRequestErrorKind))(
    "answers %s with its status, its code in snake_case, the message and the fields",
    async (kind) => {
      const fields = [{ field: "port", message: "must be a whole number from 1 to 65535" }];
      const { status, body } = await answer(
        new AppError(kind, "port must be a whole number from 1 to 65535", { fields }),
      );
      expect(status).toBe(STATUS_OF_KIND[kind]);
      expect(body).toEqual({
        error: { code: kind.replaceAll("-", "_"), message: "port must be a whole number from 1 to 65535", fields },
      });
    },
  );

  it.each(KINDS.filter((kind) => !isRequestErrorKind(kind)))(
    "answers %s (the host failed) with 502 host_error, its kind and hint",
    async (kind) => {
      const { status, body } = await answer(new AppError(kind, "cannot reach nas1", { hint: "Check that sshd runs." }));
      expect(status).toBe(502);
      expect(body).toEqual({
        error: { code: "host_error", message: "cannot reach nas1", kind, hint: "Check that sshd runs." },
      });
    },
  );

  it("leaves fields out when there are none", async () => {
    expect((await answer(new InventoryError("conflict", "a host named nas1 already exists"))).body).toEqual({
      error: { code: "conflict", message: "a host named nas1 already exists" },
    });
    expect((await answer(new InventoryError("not-found", "no host has id 3"))).body).toEqual({
      error: { code: "not_found", message: "no host has id 3" },
    });
  });

  it("answers a run that does not exist 404, not 502", async () => {
    const { status, body } = await answer(new RunError("not-found", "Run 7 does not exist."));
    expect(status).toBe(404);
    expect(body).toEqual({ error: { code: "not_found", message: "Run 7 does not exist." } });
  });

  it("asks for a bearer token on 401 and says when to retry on 429", async () => {
    const unauthorized = await answer(new AuthError("unauthorized", "Sign in first: this needs an account."));
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("WWW-Authenticate")).toBe('Bearer realm="wirespeed"');
    expect(unauthorized.body).toEqual({
      error: { code: "unauthorized", message: "Sign in first: this needs an account." },
    });
    const limited = await answer(
      new AuthError("rate-limited", "Too many failed sign-ins: try again in 15 minutes.", { retryAfter: 900 }),
    );
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("900");
    expect(limited.headers.get("WWW-Authenticate")).toBeNull();
    expect(limited.body).toEqual({
      error: { code: "rate_limited", message: "Too many failed sign-ins: try again in 15 minutes." },
    });
    const forbidden = await answer(new AuthError("forbidden", "Your role (viewer) does not allow changes."));
    expect(forbidden.status).toBe(403);
    expect([forbidden.headers.get("WWW-Authenticate"), forbidden.headers.get("Retry-After")]).toEqual([null, null]);
  });

  it("answers the host errors of lib/ssh, lib/iperf, lib/runs and lib/secrets with their kind and hint", async () => {
    const cases: Array<[AppError, string, string]> = [
      [hostKeyMismatch("nas1", "SHA256:aaa", "SHA256:bbb"), "host-key", ""],
      [
        new SshUnreachableError("cannot reach nas1 (10.0.0.5:22): no route to host", { host: "nas1" }),
        "unreachable",
        "",
      ],
      [
        new IperfOptionError("--bidir needs iperf3 3.7 or newer; host nas1 has 3.6", { field: "bidir" }),
        "parameter",
        "Choose options this host's iperf3 supports, or upgrade iperf3 there.",
      ],
      [new PortExhaustedError("every iperf3 port of nas1 (5201-5202) is in use or busy"), "ports-exhausted", ""],
      [new SecretOpenError("key-mismatch", "The stored credentials cannot be read"), "key-mismatch", ""],
    ];
    for (const [error, kind, hint] of cases) {
      expect(await answer(error)).toMatchObject({
        status: 502,
        body: { error: { code: "host_error", message: error.message, kind, hint } },
      });
    }
  });

  it("answers anything else a generic 500 and logs only the first line of it", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
    const leaky = Object.assign(
      new Error("\nInvalid `prisma.host.create()` invocation:\n  secret: PRIVATE-KEY-MATERIAL"),
      { kind: "host-key" },
    );
    const { status, body } = await answer(leaky);
    expect(status).toBe(500);
    expect(body).toEqual({ error: { code: "internal", message: "Internal error: see the server log." } });
    expect((await answer("a string")).status).toBe(500);
    expect(logged).toEqual([
      "GET /api/test: unexpected Error: Invalid `prisma.host.create()` invocation:",
      "GET /api/test: unexpected string: ",
    ]);
    expect(logged.join("\n")).not.toContain("PRIVATE-KEY-MATERIAL");
  });
});

// A Next.js build bundles instrumentation.ts (which starts the run engine, the experiment runner and
// the scheduler, kept on globalThis) apart from the route handlers: their errors come from another
// copy of lib/errors.ts. A fresh module registry gives such a copy here.
async function anotherCopy() {
  vi.resetModules();
  const [errors, auth, runs, ssh] = await Promise.all([
    import("@/lib/errors"),
    import("@/lib/auth/errors"),
    import("@/lib/runs/errors"),
    import("@/lib/ssh/errors"),
  ]);
  expect(errors.AppError).not.toBe(AppError);
  return { ...errors, ...auth, ...runs, ...ssh };
}

describe("errors made by another copy of the modules", () => {
  it("answers a refused request with its status and fields, not a 500", async () => {
    const copy = await anotherCopy();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const fields = [{ field: "linkIds", message: "links measured together must be at least two (1 given)" }];
    const { status, body } = await answer(copy.invalidInput(fields));
    expect(status).toBe(400);
    expect(body).toEqual({
      error: { code: "invalid", message: "linkIds links measured together must be at least two (1 given)", fields },
    });
    expect(log).not.toHaveBeenCalled();
  });

  it("answers a host's failure with 502 and a 429 with Retry-After", async () => {
    const copy = await anotherCopy();
    expect((await answer(new copy.RunError("server-busy", "iperf3 on nas1 is busy", { hint: "Wait" }))).body).toEqual({
      error: { code: "host_error", message: "iperf3 on nas1 is busy", kind: "server-busy", hint: "Wait" },
    });
    const limited = await answer(new copy.AuthError("rate-limited", "Too many attempts", { retryAfter: 30 }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toBe("30");
  });

  it("recognises each subclass by its own name only", async () => {
    const copy = await anotherCopy();
    const mismatch = copy.hostKeyMismatch("nas1", "SHA256:a", "SHA256:b");
    expect(mismatch).toBeInstanceOf(AppError);
    expect(mismatch).toBeInstanceOf(HostKeyMismatchError);
    expect(mismatch.name).toBe("HostKeyMismatchError");
    const { SshError } = await import("@/lib/ssh/errors");
    expect(mismatch instanceof SshError).toBe(true);
    expect(mismatch instanceof SshUnreachableError).toBe(false);
    expect(mismatch instanceof RunError).toBe(false);
    expect(new copy.RunError("timeout", "slow") instanceof AuthError).toBe(false);
    expect(new copy.AppError("invalid", "x") instanceof RunError).toBe(false);
  });

  it("does not take a lookalike or a plain Error for an AppError", async () => {
    const lookalike = { [Symbol.for("wirespeed.AppError")]: true, kind: "invalid", message: "x", fields: [], hint: "" };
    expect(lookalike instanceof AppError).toBe(false);
    expect(new Error("boom") instanceof AppError).toBe(false);
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect((await answer(lookalike)).status).toBe(500);
  });
});
