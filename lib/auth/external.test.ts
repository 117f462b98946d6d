import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { groupRolesFromEnv, principalOfExternalUser, roleFromGroups } from "./external";
import { signIn } from "./login";
import { hashPassword } from "./password";
import { updateUser } from "./users";

// Users an external authority vouches for, on a real migrated database.

const mapping = { admin: ["wirespeed-admins"], operator: ["netops", "noc"], viewer: ["staff"] };

describe("roleFromGroups", () => {
  it("gives the highest role whose groups match, and null when none does", () => {
    expect(roleFromGroups(["staff", "noc"], mapping)).toBe("operator");
    expect(roleFromGroups(["staff", "wirespeed-admins", "noc"], mapping)).toBe("admin");
    expect(roleFromGroups(["staff"], mapping)).toBe("viewer");
    expect(roleFromGroups(["Staff", "others"], mapping)).toBeNull();
    expect(roleFromGroups([], mapping)).toBeNull();
    expect(roleFromGroups(["staff"], { admin: [], operator: [], viewer: [] })).toBeNull();
  });

  it("reads the lists from the environment, comma-separated, trimmed, without empty names", () => {
    expect(
      groupRolesFromEnv({
        WIRESPEED_OIDC_ADMIN_GROUPS: " wirespeed-admins ,",
        WIRESPEED_OIDC_OPERATOR_GROUPS: "netops,noc",
        WIRESPEED_OIDC_VIEWER_GROUPS: "",
      }),
    ).toEqual({ admin: ["wirespeed-admins"], operator: ["netops", "noc"], viewer: [] });
    expect(groupRolesFromEnv({})).toEqual({ admin: [], operator: [], viewer: [] });
  });
});

describe("principalOfExternalUser", () => {
  let database: TestDatabase;
  let db: TestDatabase["db"];
  beforeAll(async () => {
    database = await openTestDatabase();
    ({ db } = database);
  });
  afterEach(() => database.reset());
  afterAll(() => database?.close());

  const alice = { username: "alice", subject: "https://id.example|1234", source: "oidc", client: "" } as const;

  it("creates the user at the first sign-in, without a password, marked with its source, and audits it", async () => {
    const principal = await principalOfExternalUser({ ...alice, role: "viewer", client: "198.51.100.7" });
    expect(principal).toMatchObject({ name: "alice", role: "viewer", via: "session" });
    const row = await db.user.findFirstOrThrow();
    expect(row).toMatchObject({
      id: principal.userId,
      username: "alice",
      usernameKey: "alice",
      passwordHash: "",
      source: "oidc",
      subject: "https://id.example|1234",
      role: "viewer",
    });
    expect(row.lastLoginAt).not.toBeNull();
    const audit = await db.auditEvent.findFirstOrThrow();
    expect(audit).toMatchObject({ action: "user.create", actorName: "alice" });
    expect(audit.detail).toContain("198.51.100.7");
  });

  it("sets the role again at every sign-in and follows a renamed user by its subject", async () => {
    const first = await principalOfExternalUser({ ...alice, role: "admin" });
    const again = await principalOfExternalUser({ ...alice, username: "Alice.Smith", role: "viewer" });
    expect(again).toMatchObject({ userId: first.userId, name: "Alice.Smith", role: "viewer" });
    expect(await db.user.count()).toBe(1);
    expect(await db.user.findFirstOrThrow()).toMatchObject({ usernameKey: "alice.smith", role: "viewer" });
    expect((await db.auditEvent.findFirstOrThrow({ where: { action: "user.update" } })).detail).toBe(
      "Alice.Smith: renamed from alice, role admin → viewer by the identity provider",
    );
  });

  it("refuses a disabled user and a user with no role, and creates nobody for the latter", async () => {
    await principalOfExternalUser({ ...alice, role: "operator" });
    await db.user.updateMany({ data: { disabledAt: new Date() } });
    await expect(principalOfExternalUser({ ...alice, role: "operator" })).rejects.toMatchObject({
      kind: "forbidden",
      message: "The account alice is disabled: ask an admin.",
    });
    await expect(
      principalOfExternalUser({ ...alice, username: "bob", subject: "https://id.example|bob", role: null }),
    ).rejects.toMatchObject({ kind: "forbidden", message: expect.stringMatching(/no role/) });
    expect(await db.user.count()).toBe(1);
  });

  it("never takes over a local account of the same name, whatever its case", async () => {
    await db.user.create({
      data: { username: "Alice", usernameKey: "alice", passwordHash: "$2b$12$x", role: "admin" },
    });
    await expect(principalOfExternalUser({ ...alice, role: "admin" })).rejects.toMatchObject({
      kind: "forbidden",
      message: expect.stringMatching(/^A local account named Alice exists: it is not handed to the identity provider/),
    });
    const rows = await db.user.findMany();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: "local", subject: null, passwordHash: "$2b$12$x" });
  });

  it("keeps the same name of another source or another identity apart", async () => {
    await principalOfExternalUser({ ...alice, role: "viewer" });
    await expect(
      principalOfExternalUser({ ...alice, subject: "https://other.example|1234", role: "viewer" }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^Another account named alice exists \(another identity\)/),
    });
    await expect(
      principalOfExternalUser({ ...alice, subject: "alice", source: "proxy", role: "viewer" }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/signed in by the identity provider/) });
    // The proxy's principal is vouched for on each request, not by a session.
    await db.user.deleteMany();
    expect(
      await principalOfExternalUser({ ...alice, subject: "alice", source: "proxy", role: "viewer" }),
    ).toMatchObject({
      via: "proxy",
    });
  });

  it("gives an external user no password, even from an admin", async () => {
    const principal = await principalOfExternalUser({ ...alice, role: "viewer" });
    const admin = { userId: null, name: "WIRESPEED_API_TOKEN", role: "admin", via: "env-token" } as const;
    await expect(updateUser(principal.userId!, { password: "a long enough password" }, admin)).rejects.toMatchObject({
      kind: "conflict",
      message: "alice signs in through the identity provider: it has no password here.",
    });
    expect((await db.user.findFirstOrThrow()).passwordHash).toBe("");
  });

  it("stops the start on sign-in settings half set, naming the variables", async () => {
    const { authSettingsProblems } = await import("./settings");
    expect(authSettingsProblems({ WIRESPEED_OIDC_ISSUER: "https://id.example" })).toEqual([
      expect.stringMatching(/^WIRESPEED_OIDC_CLIENT_ID and WIRESPEED_OIDC_CLIENT_SECRET are not set/),
    ]);
  });

  it("refuses password sign-in for an external user as a wrong password", async () => {
    await principalOfExternalUser({ ...alice, role: "admin" });
    await expect(signIn({ username: "alice", password: "x" }, "")).rejects.toMatchObject({
      kind: "unauthorized",
      message: "Wrong username or password.",
    });
    expect(await db.session.count()).toBe(0);
    expect(await db.auditEvent.count({ where: { action: "session.login-failed" } })).toBe(1);
  });

  it("refuses every password sign-in with WIRESPEED_OIDC_ONLY=1, saying to use the identity provider", async () => {
    await db.user.create({
      data: {
        username: "root",
        usernameKey: "root",
        passwordHash: await hashPassword("root password!"),
        role: "admin",
      },
    });
    const saved = { ...process.env };
    Object.assign(process.env, {
      WIRESPEED_OIDC_ISSUER: "https://id.example/",
      WIRESPEED_OIDC_CLIENT_ID: "wirespeed",
      WIRESPEED_OIDC_CLIENT_SECRET: "secret",
      WIRESPEED_PUBLIC_URL: "https://wirespeed.example",
      WIRESPEED_OIDC_VIEWER_GROUPS: "staff",
      WIRESPEED_OIDC_NAME: "Pocket ID",
    });
    try {
      expect((await signIn({ username: "root", password: "root password!" }, "")).principal.name).toBe("root");
      process.env.WIRESPEED_OIDC_ONLY = "1";
      await expect(signIn({ username: "root", password: "root password!" }, "")).rejects.toMatchObject({
        kind: "forbidden",
        message: "Password sign-in is turned off here: sign in with Pocket ID instead.",
      });
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    }
  });
});
