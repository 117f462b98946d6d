import { describe, expect, it } from "vitest";
import { resolveOidc, SignInConfigError } from "@/lib/config";

// The OpenID Connect settings, checked at start.

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
