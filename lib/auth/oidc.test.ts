import { beforeAll, describe, expect, it } from "vitest";
import { resolveOidc, SignInConfigError } from "@/lib/config";

// The OpenID Connect settings, checked at start; the user name and groups read from the claims; the
// sealed cookie between the two legs of a sign-in. The whole sign-in runs in e2e/oidc.spec.ts.

let oidc: typeof import("./oidc");
beforeAll(async () => {
  process.env.WIRESPEED_SECRET = "a test key of at least thirty-two characters";
  oidc = await import("./oidc");
});

const complete = {
  WIRESPEED_OIDC_ISSUER: "https://auth.example.com/application/o/wirespeed/",
  WIRESPEED_OIDC_CLIENT_ID: "wirespeed",
  WIRESPEED_OIDC_CLIENT_SECRET: "s3cret-value-never-shown",
  WIRESPEED_PUBLIC_URL: "https://wirespeed.lab.example/",
  WIRESPEED_OIDC_ADMIN_GROUPS: "wirespeed-admins",
};

function refusal(env: Record<string, string | undefined>): string {
  try {
    resolveOidc(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SignInConfigError);
    expect((error as Error).message).not.toContain("s3cret");
    return (error as Error).message;
  }
  throw new Error("the settings were accepted");
}

describe("resolveOidc", () => {
  it("is off when no variable is set, and reads complete settings with their defaults", () => {
    expect(resolveOidc({})).toBeNull();
    expect(resolveOidc(complete)).toEqual({
      issuer: new URL("https://auth.example.com/application/o/wirespeed/"),
      clientId: "wirespeed",
      clientSecret: "s3cret-value-never-shown",
      redirectUri: "https://wirespeed.lab.example/api/auth/oidc/callback",
      name: "single sign-on",
      roleClaim: "groups",
      allowHttp: false,
      only: false,
    });
    expect(
      resolveOidc({
        ...complete,
        WIRESPEED_OIDC_NAME: "Authentik",
        WIRESPEED_OIDC_ROLE_CLAIM: "roles",
        WIRESPEED_OIDC_ONLY: "1",
      }),
    ).toMatchObject({ name: "Authentik", roleClaim: "roles", only: true });
  });

  it("refuses settings half set, naming what is missing", () => {
    expect(refusal({ WIRESPEED_OIDC_ISSUER: complete.WIRESPEED_OIDC_ISSUER })).toBe(
      "WIRESPEED_OIDC_CLIENT_ID and WIRESPEED_OIDC_CLIENT_SECRET are not set: sign-in through an identity provider needs WIRESPEED_OIDC_ISSUER, WIRESPEED_OIDC_CLIENT_ID, WIRESPEED_OIDC_CLIENT_SECRET",
    );
    expect(refusal({ ...complete, WIRESPEED_OIDC_CLIENT_ID: " " })).toMatch(/^WIRESPEED_OIDC_CLIENT_ID is not set/);
    expect(refusal({ ...complete, WIRESPEED_OIDC_ISSUER: undefined })).toMatch(/^WIRESPEED_OIDC_ISSUER is not set/);
    expect(refusal({ ...complete, WIRESPEED_PUBLIC_URL: undefined })).toMatch(/^WIRESPEED_PUBLIC_URL must be set/);
    expect(refusal({ ...complete, WIRESPEED_OIDC_ADMIN_GROUPS: " , " })).toMatch(
      /^WIRESPEED_OIDC_ADMIN_GROUPS, WIRESPEED_OIDC_OPERATOR_GROUPS, WIRESPEED_OIDC_VIEWER_GROUPS: set at least one/,
    );
    expect(refusal({ WIRESPEED_OIDC_ONLY: "1" })).toMatch(/^WIRESPEED_OIDC_ONLY=1 needs an identity provider/);
    expect(refusal({ ...complete, WIRESPEED_OIDC_ONLY: "yes" })).toBe(
      "WIRESPEED_OIDC_ONLY must be 1 (on) or 0 (off), got something else",
    );
  });

  it("allows an http:// issuer on a loopback address or with WIRESPEED_OIDC_ALLOW_HTTP=1 only", () => {
    for (const issuer of ["http://127.0.0.1:3563", "http://localhost:9000/realms/lab", "http://[::1]:8080/"]) {
      expect(resolveOidc({ ...complete, WIRESPEED_OIDC_ISSUER: issuer })?.allowHttp).toBe(true);
    }
    expect(refusal({ ...complete, WIRESPEED_OIDC_ISSUER: "http://auth.lan:9000/" })).toMatch(
      /^WIRESPEED_OIDC_ISSUER must be an https:\/\/ URL: http:\/\/ is allowed for a loopback address only, or with WIRESPEED_OIDC_ALLOW_HTTP=1/,
    );
    expect(
      resolveOidc({ ...complete, WIRESPEED_OIDC_ISSUER: "http://auth.lan:9000/", WIRESPEED_OIDC_ALLOW_HTTP: "1" })
        ?.allowHttp,
    ).toBe(true);
    expect(refusal({ ...complete, WIRESPEED_OIDC_ISSUER: "auth.example.com" })).toMatch(
      /^WIRESPEED_OIDC_ISSUER must be the provider's issuer URL/,
    );
    expect(refusal({ ...complete, WIRESPEED_OIDC_ISSUER: "ftp://auth.example.com/" })).toMatch(
      /^WIRESPEED_OIDC_ISSUER must be an https:\/\/ URL \(got a ftp: URL\)/,
    );
  });
});

describe("the claims", () => {
  it("names the user from preferred_username, else the email, else sub, in the characters user names allow", () => {
    expect(oidc.usernameOf({ preferred_username: "alice", email: "a@x.example", sub: "1" })).toBe("alice");
    expect(oidc.usernameOf({ email: "Mail.User@lab.example", sub: "1" })).toBe("Mail.User-lab.example");
    expect(oidc.usernameOf({ preferred_username: "  José Müller ", sub: "1" })).toBe("Jose-Muller");
    expect(oidc.usernameOf({ preferred_username: "__", email: 7, sub: "248289761001" })).toBe("248289761001");
    expect(oidc.usernameOf({ preferred_username: "x".repeat(80) + "!" }).length).toBe(64);
    expect(() => oidc.usernameOf({ preferred_username: "!!!" })).toThrow(/named no user/);
  });

  it("reads groups as a list or one name, by name or by a dotted path", () => {
    expect(oidc.groupsOf({ groups: ["a", 3, "b"] }, "groups")).toEqual(["a", "b"]);
    expect(oidc.groupsOf({ groups: "a" }, "groups")).toEqual(["a"]);
    expect(oidc.groupsOf({}, "groups")).toEqual([]);
    expect(oidc.groupsOf({ realm_access: { roles: ["netops"] } }, "realm_access.roles")).toEqual(["netops"]);
    expect(oidc.groupsOf({ "https://lab.example/groups": ["x"] }, "https://lab.example/groups")).toEqual(["x"]);
  });

  it("explains a refusal by the claim and the groups needed, never by the user's groups", () => {
    const settings = resolveOidc({ ...complete, WIRESPEED_OIDC_NAME: "Lab ID" })!;
    const mapping = { admin: ["wirespeed-admins"], operator: [], viewer: ["staff", "guests"] };
    expect(oidc.noRoleMessage(settings, mapping, "bob", true)).toBe(
      'the "groups" claim of bob names none of the groups that give a role here. One of these groups is needed ' +
        "(admin: wirespeed-admins; viewer: staff, guests): ask the admin of Lab ID to add you to one.",
    );
    expect(oidc.noRoleMessage(settings, mapping, "bob", false)).toMatch(/^Lab ID sent no "groups" claim for bob\./);
  });
});

describe("the sealed cookie", () => {
  const pending = {
    purpose: "oidc-pending",
    verifier: "v",
    state: "s",
    nonce: "n",
    next: "/links/3",
    expiresAt: Date.now() + 60_000,
  } as const;

  it("opens what it sealed, for its purpose and until it expires", () => {
    const cookie = oidc.sealCookie(pending);
    expect(cookie).not.toContain("verifier");
    expect(oidc.openCookie(cookie, "oidc-pending")).toEqual(pending);
    expect(oidc.openCookie(cookie, "oidc-notice")).toBeNull();
    expect(oidc.openCookie(cookie, "oidc-pending", pending.expiresAt)).toBeNull();
  });

  it("refuses a cookie altered, written in plain JSON, or missing", () => {
    const cookie = oidc.sealCookie(pending);
    const bytes = Buffer.from(cookie, "base64url");
    bytes[bytes.length - 1]! ^= 1;
    expect(oidc.openCookie(bytes.toString("base64url"), "oidc-pending")).toBeNull();
    // Plain JSON is what a host secret of an older version looks like: never taken for a sealed cookie.
    expect(oidc.openCookie(Buffer.from(JSON.stringify(pending)).toString("base64url"), "oidc-pending")).toBeNull();
    expect(oidc.openCookie(undefined, "oidc-pending")).toBeNull();
    expect(oidc.openCookie("not base64 at all %%%", "oidc-pending")).toBeNull();
  });
});

describe("discovery", () => {
  it("says so when the provider cannot be reached, and asks again at the next sign-in", async () => {
    const { createServer } = await import("node:net");
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const saved = { ...process.env };
    Object.assign(process.env, {
      ...complete,
      WIRESPEED_OIDC_ISSUER: `http://127.0.0.1:${port}`,
      WIRESPEED_OIDC_NAME: "Lab ID",
    });
    try {
      await expect(oidc.beginOidcSignIn()).rejects.toMatchObject({
        page: "login",
        message: `Lab ID cannot be reached (http://127.0.0.1:${port}/): try again later, or ask an admin to check WIRESPEED_OIDC_ISSUER.`,
      });
      // The provider comes up: the failure was not kept.
      const { createProvider } = await import("@/testing/oidc/provider.mjs");
      const { provider } = createProvider({
        port,
        redirectUri: "https://wirespeed.lab.example/api/auth/oidc/callback",
        clientId: complete.WIRESPEED_OIDC_CLIENT_ID,
        clientSecret: complete.WIRESPEED_OIDC_CLIENT_SECRET,
      });
      const server = await new Promise<import("node:http").Server>((resolve) => {
        const listening = provider.listen(port, "127.0.0.1", () => resolve(listening));
      });
      try {
        const { url, pending } = await oidc.beginOidcSignIn();
        expect(url.origin).toBe(`http://127.0.0.1:${port}`);
        expect(Object.fromEntries(url.searchParams)).toMatchObject({
          client_id: "wirespeed",
          redirect_uri: "https://wirespeed.lab.example/api/auth/oidc/callback",
          response_type: "code",
          code_challenge_method: "S256",
        });
        const sealed = oidc.openCookie<import("./oidc").Pending>(pending, "oidc-pending");
        expect(url.searchParams.get("state")).toBe(sealed?.state);
        expect(url.searchParams.get("nonce")).toBe(sealed?.nonce);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});
