import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { clientAddress, fromTrustedProxy, parseTrustedProxies } from "./client";
import { createThrottle, throttleClientKey, waitAfter } from "./rate-limit";
import { can, PERMISSIONS, ROLES } from "./roles";

// Accounts, sign-in and its rate limit, on a real migrated database.

describe("roles", () => {
  it("grants admins everything, operators runs, inventory, monitoring and share links, viewers reading only", () => {
    const table = Object.fromEntries(
      ROLES.map((role) => [role, PERMISSIONS.filter((permission) => can(role, permission))]),
    );
    expect(table).toEqual({
      admin: ["read", "run", "inventory", "monitor", "share", "credentials", "users"],
      operator: ["read", "run", "inventory", "monitor", "share"],
      viewer: ["read"],
    });
    expect(can(null, "read")).toBe(false);
  });
});

describe("createThrottle", () => {
  const options = { free: 3, baseMs: 1000, maxMs: 8000, forgetMs: 60_000 };

  it("hears the free failures at once, then doubles the wait after each further one, up to the maximum", () => {
    expect([0, 3, 4, 5, 6, 7, 8, 40].map((failures) => waitAfter(failures, options))).toEqual([
      0, 0, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
    const throttle = createThrottle(options);
    for (const at of [0, 10, 20]) throttle.fail("k", at);
    expect(throttle.waitFor("k", 30)).toBe(0);
    throttle.fail("k", 30);
    expect(throttle.waitFor("k", 30)).toBe(1000);
    expect(throttle.waitFor("k", 1030)).toBe(0);
    throttle.fail("k", 1030);
    expect(throttle.waitFor("k", 1030)).toBe(2000);
    expect(throttle.waitFor("other", 1030)).toBe(0);
    throttle.reset("k");
    expect(throttle.waitFor("k", 1031)).toBe(0);
  });

  it("forgets a key after a quiet spell, and forgotten keys once it remembers more than 10,000", () => {
    const throttle = createThrottle(options);
    for (let attempt = 0; attempt < 6; attempt++) throttle.fail("k", attempt);
    expect(throttle.waitFor("k", 10)).toBeGreaterThan(0);
    expect(throttle.waitFor("k", 60_006)).toBe(0);
    for (let index = 0; index <= 10_000; index++) throttle.fail(`user:${index}`, 100_000);
    expect(throttle.keyCount()).toBe(10_001);
    throttle.fail("user:late", 200_000);
    expect(throttle.keyCount()).toBe(1);
  });
});

describe("throttleClientKey", () => {
  it("counts an IPv4 address as it is, an IPv6 one by its /64, and an IPv4-mapped one as its IPv4 address", () => {
    expect(
      [
        "198.51.100.9",
        "2001:db8:1:2::a",
        "2001:DB8:1:2:ffff:ffff:ffff:ffff",
        "[2001:db8:1:2::b]",
        "fe80::1%eth0",
        "2001:db8:1:3::a",
        "::1",
        "::ffff:192.0.2.1",
        "::FFFF:c000:201",
        "",
      ].map(throttleClientKey),
    ).toEqual([
      "198.51.100.9",
      "2001:db8:1:2::/64",
      "2001:db8:1:2::/64",
      "2001:db8:1:2::/64",
      "fe80:0:0:0::/64",
      "2001:db8:1:3::/64",
      "0:0:0:0::/64",
      "192.0.2.1",
      "192.0.2.1",
      "",
    ]);
  });
});

describe("password hashing", () => {
  it("runs at most MAX_HASHING hashes at once, queues the next ones and refuses past MAX_WAITING", async () => {
    const { createSemaphore, hashing, MAX_HASHING, verifyAgainstNothing } = await import("./password");
    const semaphore = createSemaphore(1, 1, () => new Error("busy"));
    const order: string[] = [];
    let release!: () => void;
    const first = semaphore.run(() =>
      new Promise<void>((resolve) => (release = resolve)).then(() => order.push("first")),
    );
    const second = semaphore.run(async () => order.push("second"));
    await expect(semaphore.run(async () => order.push("third"))).rejects.toThrow("busy");
    expect(semaphore.load()).toEqual({ running: 1, waiting: 1 });
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "second"]);
    expect(semaphore.load()).toEqual({ running: 0, waiting: 0 });

    await verifyAgainstNothing("warm the dummy hash");
    const checks = Array.from({ length: MAX_HASHING + 2 }, () => verifyAgainstNothing("a guess"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(hashing.load()).toEqual({ running: MAX_HASHING, waiting: 2 });
    await Promise.all(checks);
    expect(hashing.load()).toEqual({ running: 0, waiting: 0 });
  });
});

describe("sign-in settings at start", () => {
  it("names the variable of each setting the server cannot start with", async () => {
    const { authSettingsProblems } = await import("./settings");
    expect(authSettingsProblems({})).toEqual([]);
    expect(authSettingsProblems({ WIRESPEED_API_TOKEN: "" })).toEqual([]);
    expect(authSettingsProblems({ WIRESPEED_API_TOKEN: "a".repeat(32) })).toEqual([]);
    expect(
      authSettingsProblems({
        WIRESPEED_API_TOKEN: "short-token",
        WIRESPEED_TRUSTED_PROXIES: "10.0.0.0/40",
        WIRESPEED_AUTH_HEADER: "Remote User",
      }),
    ).toEqual([
      "WIRESPEED_API_TOKEN must be at least 32 characters without spaces (it has 11): make one with `openssl rand -hex 32`",
      'WIRESPEED_TRUSTED_PROXIES: "10.0.0.0/40" is not an address or a CIDR such as 10.0.0.5, 172.18.0.0/16 or fd00::/8',
      "WIRESPEED_AUTH_HEADER must be a header name such as Remote-User (letters, digits and '-')",
    ]);
    expect(authSettingsProblems({ WIRESPEED_AUTH_HEADER: "Remote-User" })).toEqual([
      "WIRESPEED_AUTH_HEADER needs WIRESPEED_TRUSTED_PROXIES: the addresses or CIDRs of the proxies allowed to name the user",
    ]);
    expect(authSettingsProblems({ WIRESPEED_AUTH_GROUPS_HEADER: "Remote-Groups" })).toEqual([
      "WIRESPEED_AUTH_GROUPS_HEADER is set without WIRESPEED_AUTH_HEADER",
    ]);
  });

  it("takes WIRESPEED_SESSION_MAX_DAYS as a whole number of days from 1 to 3650, 30 when unset", async () => {
    const { authSettingsProblems } = await import("./settings");
    const { resolveSessionMaxDays } = await import("@/lib/config");
    expect(resolveSessionMaxDays({})).toBe(30);
    expect(resolveSessionMaxDays({ WIRESPEED_SESSION_MAX_DAYS: " " })).toBe(30);
    expect(resolveSessionMaxDays({ WIRESPEED_SESSION_MAX_DAYS: "7" })).toBe(7);
    expect(resolveSessionMaxDays({ WIRESPEED_SESSION_MAX_DAYS: "3650" })).toBe(3650);
    for (const value of ["0", "3651", "1.5", "-1", "30d", "abc", "99999"]) {
      expect(authSettingsProblems({ WIRESPEED_SESSION_MAX_DAYS: value }), value).toEqual([
        `WIRESPEED_SESSION_MAX_DAYS must be a whole number of days from 1 to 3650 (default 30), got "${value}"`,
      ]);
    }
  });
});

describe("client addresses", () => {
  const PEER = "x-wirespeed-peer-0123456789abcdef";
  const env = (more: Record<string, string> = {}) => ({ WIRESPEED_PEER_HEADER: PEER, ...more });
  const from = (peer: string, forwarded?: string) =>
    new Headers({ [PEER]: peer, ...(forwarded ? { "x-forwarded-for": forwarded } : {}) });

  it("is the connection's address, whatever X-Forwarded-For a client sends", () => {
    expect(clientAddress(from("::ffff:192.0.2.10", "203.0.113.7"), env())).toBe("192.0.2.10");
    expect(clientAddress(from("2001:db8::5"), env())).toBe("2001:db8::5");
    // Without the server's header (next dev), nothing is known; another header of the same prefix is not it.
    expect(clientAddress(from("192.0.2.10"), {})).toBe("");
    expect(clientAddress(new Headers({ "x-wirespeed-peer-feedfeedfeedfeed": "192.0.2.10" }), env())).toBe("");
  });

  it("believes X-Forwarded-For from a trusted proxy only, up to the first address it does not trust", () => {
    const trusted = env({ WIRESPEED_TRUSTED_PROXIES: "10.0.0.0/8, fd00::/8" });
    expect(clientAddress(from("10.0.0.2", "203.0.113.7"), trusted)).toBe("203.0.113.7");
    // A client's own X-Forwarded-For entry sits left of what the proxy appended: it is not believed.
    expect(clientAddress(from("10.0.0.2", "198.51.100.1, 203.0.113.7, 10.0.0.3"), trusted)).toBe("203.0.113.7");
    expect(clientAddress(from("192.0.2.10", "203.0.113.7"), trusted)).toBe("192.0.2.10");
    expect(clientAddress(from("10.0.0.2", "<script>"), trusted)).toBe("10.0.0.2");
    expect(fromTrustedProxy(from("::ffff:10.1.2.3"), trusted)).toBe(true);
    expect(fromTrustedProxy(from("fd00::1"), trusted)).toBe(true);
    expect(fromTrustedProxy(from("192.0.2.10"), trusted)).toBe(false);
    // The older switch trusts every peer and the leftmost entry.
    expect(clientAddress(from("192.0.2.10", "203.0.113.7, 10.0.0.1"), env({ WIRESPEED_TRUST_PROXY: "1" }))).toBe(
      "203.0.113.7",
    );
  });

  it("refuses a malformed WIRESPEED_TRUSTED_PROXIES entry, naming it", () => {
    expect(parseTrustedProxies("10.0.0.0/8 192.168.1.1,fd00::/8").entries).toHaveLength(3);
    for (const bad of ["10.0.0.0/33", "10.0.0.0/", "proxy.lan", "10.0.0.0/8/1", "fd00::/129"]) {
      expect(() => parseTrustedProxies(bad)).toThrow(`WIRESPEED_TRUSTED_PROXIES: "${bad}" is not an address or a CIDR`);
    }
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
  }, 60_000);
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

  it("slows down a user's guesses from one address progressively, and never holds up the right password from another", async () => {
    await users.createUser({ username: "target", password: "target's password", role: "viewer" });
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2027-01-01T00:00:00Z") });
    try {
      // Five failures are heard at once; the sixth too, and from then on each doubles the wait.
      for (let attempt = 0; attempt < 6; attempt++) {
        await expect(
          login.signIn({ username: "target", password: `guess ${attempt}` }, "198.51.100.9"),
        ).rejects.toMatchObject({
          status: 401,
        });
      }
      const held = login.signIn({ username: "TARGET", password: "target's password" }, "198.51.100.9");
      await expect(held).rejects.toMatchObject({ status: 429, kind: "rate-limited", retryAfter: 5 });
      await expect(login.signIn({ username: "target", password: "x" }, "198.51.100.9")).rejects.toThrow(
        "Too many failed sign-ins: try again in 5 seconds.",
      );
      // Someone else's guesses do not lock the user out: the right password from another address gets in.
      await expect(
        login.signIn({ username: "target", password: "target's password" }, "192.0.2.44"),
      ).resolves.toMatchObject({ principal: { name: "target" } });
      vi.advanceTimersByTime(5000);
      await expect(login.signIn({ username: "target", password: "guess 6" }, "198.51.100.9")).rejects.toMatchObject({
        status: 401,
      });
      await expect(login.signIn({ username: "target", password: "x" }, "198.51.100.9")).rejects.toThrow(
        "try again in 10 seconds",
      );
      vi.advanceTimersByTime(10_000);
      // After the wait, the right password is heard, and it clears the slowdown.
      await expect(
        login.signIn({ username: "target", password: "target's password" }, "198.51.100.9"),
      ).resolves.toMatchObject({ principal: { name: "target" } });
      await expect(login.signIn({ username: "target", password: "guess 7" }, "198.51.100.9")).rejects.toMatchObject({
        status: 401,
      });
    } finally {
      vi.useRealTimers();
    }
    const failures = await db.auditEvent.count({ where: { action: "session.login-failed" } });
    expect(failures).toBeGreaterThanOrEqual(8);
  });

  // Each failure costs a password hash: the pair's throttle (5 free) shows the counting with the fewest.
  it("counts an IPv6 client by its /64, and an IPv4-mapped one as its IPv4 address", { timeout: 120_000 }, async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2027-03-01T00:00:00Z") });
    try {
      // One user's password guessed from ever new addresses of one /64 is slowed down as from one address.
      for (let attempt = 0; attempt < 6; attempt++) {
        await expect(
          login.signIn({ username: "root.admin", password: `guess ${attempt}` }, `2001:db8:5:5::${attempt + 1}`),
        ).rejects.toMatchObject({ status: 401 });
      }
      await expect(
        login.signIn({ username: "root.admin", password: "first admin password" }, "2001:db8:5:5:abcd:1234:5678:9abc"),
      ).rejects.toMatchObject({ status: 429, kind: "rate-limited" });
      // Another /64 is another client.
      await expect(
        login.signIn({ username: "root.admin", password: "first admin password" }, "2001:db8:5:6::1"),
      ).resolves.toMatchObject({ principal: { name: "Root.Admin" } });
      // 203.0.113.77 and ::ffff:cb00:714d are one client.
      for (let attempt = 0; attempt < 6; attempt++) {
        const client = attempt % 2 === 0 ? "203.0.113.77" : "::ffff:cb00:714d";
        await expect(
          login.signIn({ username: "root.admin", password: `mapped ${attempt}` }, client),
        ).rejects.toMatchObject({ status: 401 });
      }
      await expect(
        login.signIn({ username: "root.admin", password: "first admin password" }, "::ffff:203.0.113.77"),
      ).rejects.toMatchObject({ status: 429 });
    } finally {
      vi.useRealTimers();
    }
  });

  // 22 password hashes: on a busy machine that outlasts the default 20 s.
  it("slows down an address that tries many user names, past 20 failures", { timeout: 120_000 }, async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2027-02-01T00:00:00Z") });
    try {
      for (let attempt = 0; attempt < 21; attempt++) {
        await expect(
          login.signIn({ username: `guess${attempt}`, password: "x" }, "203.0.113.99"),
        ).rejects.toMatchObject({
          status: 401,
        });
      }
      await expect(login.signIn({ username: "someone-new", password: "x" }, "203.0.113.99")).rejects.toMatchObject({
        status: 429,
      });
      await expect(login.signIn({ username: "someone-new", password: "x" }, "203.0.113.100")).rejects.toMatchObject({
        status: 401,
      });
    } finally {
      vi.useRealTimers();
    }
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

  it("ends a session WIRESPEED_SESSION_MAX_DAYS after its sign-in however often it is used, and its open streams with it", async () => {
    const { accessEnded } = await import("@/lib/api/stream-access");
    const user = await users.createUser({ username: "daily", password: "daily user's password", role: "viewer" });
    const start = new Date("2028-01-01T00:00:00Z");
    const DAY = 24 * 3600_000;
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    try {
      const { token, expiresAt } = await sessions.createSession(user.id);
      expect(expiresAt).toEqual(new Date(start.getTime() + 14 * DAY));
      // Used every day: each use moves the idle expiry on, never past 30 days from the sign-in.
      let principal = null;
      for (let day = 1; day <= 29; day++) {
        vi.setSystemTime(start.getTime() + day * DAY);
        principal = await sessions.principalOfSession(token);
        expect(principal, `day ${day}`).toMatchObject({ userId: user.id, via: "session" });
      }
      const row = await db.session.findFirstOrThrow({ where: { id: principal!.credentialId } });
      expect(row.expiresAt).toEqual(new Date(start.getTime() + 30 * DAY));
      expect(await accessEnded(principal!, "read")).toBeNull();
      vi.setSystemTime(start.getTime() + 30 * DAY);
      expect(await sessions.principalOfSession(token)).toBeNull();
      expect(await accessEnded(principal!, "read")).toMatchObject({ kind: "unauthorized" });

      // A session stored before the limit, whose expiry lies further out, ends by its sign-in too.
      vi.setSystemTime(start);
      const older = await sessions.createSession(user.id);
      const olderRow = await db.session.findFirstOrThrow({ orderBy: { id: "desc" } });
      await db.session.update({
        where: { id: olderRow.id },
        data: { expiresAt: new Date(start.getTime() + 60 * DAY) },
      });
      vi.setSystemTime(start.getTime() + 31 * DAY);
      expect(await sessions.principalOfSession(older.token)).toBeNull();
      expect(
        await accessEnded(
          { userId: user.id, name: "daily", role: "viewer", via: "session", credentialId: olderRow.id },
          "read",
        ),
      ).toMatchObject({ kind: "unauthorized" });

      // A shorter limit bounds the first expiry as well.
      process.env.WIRESPEED_SESSION_MAX_DAYS = "3";
      const short = await sessions.createSession(user.id);
      expect(short.expiresAt).toEqual(new Date(start.getTime() + 34 * DAY));
      vi.setSystemTime(start.getTime() + 33 * DAY);
      expect(await sessions.principalOfSession(short.token)).toMatchObject({ userId: user.id });
      vi.setSystemTime(start.getTime() + 34 * DAY);
      expect(await sessions.principalOfSession(short.token)).toBeNull();
    } finally {
      delete process.env.WIRESPEED_SESSION_MAX_DAYS;
      vi.useRealTimers();
    }
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
