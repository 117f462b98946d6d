import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { createRateLimiter } from "./rate-limit";
import { can, PERMISSIONS, ROLES } from "./roles";

// Accounts, sign-in and its rate limit, on a real migrated database.

describe("roles", () => {
  it("grants admins everything, operators runs, inventory and monitoring, viewers reading only", () => {
    const table = Object.fromEntries(
      ROLES.map((role) => [role, PERMISSIONS.filter((permission) => can(role, permission))]),
    );
    expect(table).toEqual({
      admin: ["read", "run", "inventory", "monitor", "credentials", "users"],
      operator: ["read", "run", "inventory", "monitor"],
      viewer: ["read"],
    });
    expect(can(null, "read")).toBe(false);
  });
});

describe("createRateLimiter", () => {
  it("blocks a key after the limit within the window, and forgets old failures", () => {
    const limiter = createRateLimiter(3, 1000);
    for (const at of [0, 100, 200]) limiter.fail("k", at);
    expect(limiter.blockedFor("k", 300)).toBe(700);
    expect(limiter.blockedFor("other", 300)).toBe(0);
    expect(limiter.blockedFor("k", 1001)).toBe(0);
    limiter.fail("k", 1001);
    limiter.reset("k");
    expect(limiter.blockedFor("k", 1002)).toBe(0);
  });

  it("forgets expired keys once it remembers more than 10,000, so new usernames cannot grow it for ever", () => {
    const limiter = createRateLimiter(5, 1000);
    for (let index = 0; index <= 10_000; index++) limiter.fail(`user:${index}`, 0);
    expect(limiter.keyCount()).toBe(10_001);
    limiter.fail("user:late", 1001);
    expect(limiter.keyCount()).toBe(1);
  });
});

describe("accounts", () => {
  let database: TestDatabase;
  let users: typeof import("./users");
  let login: typeof import("./login");
  let sessions: typeof import("./sessions");
  let db: typeof import("@/lib/db").db;
  const system = { userId: null, name: "WIRESPEED_API_TOKEN", role: "admin", via: "env-token" } as const;

  beforeAll(async () => {
    database = await openTestDatabase();
    ({ db } = database);
    users = await import("./users");
    login = await import("./login");
    sessions = await import("./sessions");
  });
  afterAll(() => database?.close());

  it("seeds nothing without WIRESPEED_ADMIN_PASSWORD, and names the variable when its value is too short", async () => {
    expect(await users.seedAdminFromEnv({})).toBeNull();
    await expect(users.seedAdminFromEnv({ WIRESPEED_ADMIN_PASSWORD: "short" })).rejects.toThrow(
      "WIRESPEED_ADMIN_PASSWORD / WIRESPEED_ADMIN_USER: password must be at least 10 characters",
    );
    expect(await users.countUsers()).toBe(0);
  });

  it("seeds the admin from the environment once, with a bcrypt hash and never the password", async () => {
    const admin = await users.seedAdminFromEnv({
      WIRESPEED_ADMIN_PASSWORD: "first admin password",
      WIRESPEED_ADMIN_USER: "Root.Admin",
    });
    expect(admin).toMatchObject({ username: "Root.Admin", role: "admin", disabled: false });
    const row = await db.user.findFirstOrThrow();
    expect(row.passwordHash).toMatch(/^\$2[aby]\$12\$/);
    expect(JSON.stringify(row)).not.toContain("first admin password");
    expect(await users.seedAdminFromEnv({ WIRESPEED_ADMIN_PASSWORD: "another password!" })).toBeNull();
    await expect(users.createFirstAdmin({ username: "late", password: "late visitor password" })).rejects.toThrow(
      /already exists/,
    );
  });

  it("signs in case-insensitively by username, and answers a wrong user and a wrong password alike", async () => {
    const session = await login.signIn({ username: "root.admin", password: "first admin password" }, "");
    expect(session.principal).toMatchObject({ name: "Root.Admin", role: "admin", via: "session" });
    expect(await sessions.principalOfSession(session.token)).toMatchObject({ name: "Root.Admin" });
    await expect(login.signIn({ username: "nobody", password: "first admin password" }, "")).rejects.toThrow(
      "Wrong username or password.",
    );
    await expect(login.signIn({ username: "Root.Admin", password: "wrong password" }, "")).rejects.toThrow(
      "Wrong username or password.",
    );
    await expect(login.signIn({ username: "", password: "" }, "")).rejects.toThrow(/username is required/);
  });

  it("refuses every attempt, the right password too, after 5 failures for a user, with 429", async () => {
    await users.createUser({ username: "target", password: "target's password", role: "viewer" });
    for (let attempt = 0; attempt < 5; attempt++) {
      await expect(login.signIn({ username: "target", password: `guess ${attempt}` }, "")).rejects.toMatchObject({
        status: 401,
      });
    }
    const blocked = login.signIn({ username: "TARGET", password: "target's password" }, "");
    await expect(blocked).rejects.toMatchObject({ status: 429, kind: "rate-limited" });
    await expect(login.signIn({ username: "target", password: "target's password" }, "")).rejects.toThrow(
      /Too many failed sign-ins: try again in 15 minutes/,
    );
    // Other users are not locked out by it.
    await expect(login.signIn({ username: "root.admin", password: "first admin password" }, "")).resolves.toMatchObject(
      { principal: { name: "Root.Admin", role: "admin" } },
    );
    const failures = await db.auditEvent.count({ where: { action: "session.login-failed" } });
    expect(failures).toBeGreaterThanOrEqual(7);
  });

  it("counts failures per client address behind a trusted proxy only", () => {
    const headers = new Headers({ "x-forwarded-for": "203.0.113.7, 10.0.0.1" });
    expect(login.clientAddress(headers, {})).toBe("");
    expect(login.clientAddress(headers, { WIRESPEED_TRUST_PROXY: "1" })).toBe("203.0.113.7");
    expect(login.clientAddress(new Headers({ "x-forwarded-for": "<script>" }), { WIRESPEED_TRUST_PROXY: "1" })).toBe(
      "",
    );
  });

  it("keeps one active admin: the last cannot be demoted, disabled or deleted", async () => {
    const admin = await db.user.findFirstOrThrow({ where: { role: "admin" } });
    await expect(users.updateUser(admin.id, { role: "viewer" }, system)).rejects.toThrow(/last active admin/);
    await expect(users.updateUser(admin.id, { disabled: true }, system)).rejects.toThrow(/last active admin/);
    await expect(users.deleteUser(admin.id, system)).rejects.toThrow(/last active admin/);
    const second = await users.createUser({ username: "second", password: "second admin pw", role: "admin" });
    await expect(
      users.deleteUser(second.id, { userId: second.id, name: "second", role: "admin", via: "session" }),
    ).rejects.toThrow(/your own account/);
    await users.updateUser(admin.id, { role: "operator" }, system);
    expect((await db.user.findUniqueOrThrow({ where: { id: admin.id } })).role).toBe("operator");
  });

  it("ends a user's sessions when their password changes or they are disabled", async () => {
    const user = await users.createUser({ username: "alice", password: "alice's password", role: "operator" });
    const { token } = await sessions.createSession(user.id);
    expect(await sessions.principalOfSession(token)).toMatchObject({
      userId: user.id,
      name: "alice",
      role: "operator",
      via: "session",
    });
    await users.updateUser(user.id, { password: "a new password" }, system);
    expect(await sessions.principalOfSession(token)).toBeNull();
    const again = await sessions.createSession(user.id);
    await users.updateUser(user.id, { disabled: true }, system);
    expect(await sessions.principalOfSession(again.token)).toBeNull();
    await expect(login.signIn({ username: "alice", password: "a new password" }, "")).rejects.toThrow(
      "Wrong username or password.",
    );
  });

  it("validates account input, naming the field", async () => {
    await expect(
      users.createUser({ username: "bad name; rm -rf /", password: "long enough pw", role: "viewer" }),
    ).rejects.toThrow(/username may contain letters/);
    await expect(users.createUser({ username: "bob", password: "x".repeat(73), role: "viewer" })).rejects.toThrow(
      /at most 72 bytes/,
    );
    await expect(users.createUser({ username: "bob", password: "long enough pw", role: "root" })).rejects.toThrow(
      /role must be one of admin, operator, viewer/,
    );
    await expect(users.createUser({ username: "ALICE", password: "long enough pw", role: "viewer" })).rejects.toThrow(
      /already exists/,
    );
  });

  it("marks cookies httpOnly and SameSite=Lax, Secure behind HTTPS", () => {
    const expires = new Date();
    expect(sessions.sessionCookieOptions(false, expires)).toEqual({
      httpOnly: true,
      sameSite: "lax",
      secure: false,
      path: "/",
      expires,
    });
    expect(sessions.isSecureRequest(new Headers({ "x-forwarded-proto": "https" }), {})).toBe(true);
    expect(sessions.isSecureRequest(new Headers(), {})).toBe(false);
    expect(sessions.isSecureRequest(new Headers(), { WIRESPEED_SECURE_COOKIES: "1" })).toBe(true);
  });
});
