// The OpenID Connect provider of the browser tests (testing/oidc/provider.mjs) and what the e2e server is
// told of it (playwright.config.ts): one place for both. The provider listens 100 ports above the server.

export const OIDC_TEST_CLIENT = { id: "wirespeed-e2e", secret: "e2e-client-secret-not-for-production" };
export const OIDC_TEST_NAME = "Lab ID";

export function oidcTestPort(serverPort: number): number {
  return serverPort + 100;
}

/** The e2e server's WIRESPEED_OIDC_* and WIRESPEED_PUBLIC_URL. */
export function oidcServerEnv(serverPort: number): Record<string, string> {
  return {
    WIRESPEED_PUBLIC_URL: `http://localhost:${serverPort}`,
    WIRESPEED_OIDC_ISSUER: `http://127.0.0.1:${oidcTestPort(serverPort)}`,
    WIRESPEED_OIDC_CLIENT_ID: OIDC_TEST_CLIENT.id,
    WIRESPEED_OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.secret,
    WIRESPEED_OIDC_NAME: OIDC_TEST_NAME,
    WIRESPEED_OIDC_ADMIN_GROUPS: "wirespeed-admins",
    WIRESPEED_OIDC_OPERATOR_GROUPS: "wirespeed-operators",
    WIRESPEED_OIDC_VIEWER_GROUPS: "wirespeed-viewers",
  };
}
