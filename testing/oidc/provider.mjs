#!/usr/bin/env node
// A real OpenID Connect provider for the browser tests of "Sign in with …" (e2e/oidc.spec.ts): oidc-provider,
// the certified Node implementation, on 127.0.0.1 with one static client (the e2e server's) and test users
// whose `groups` claim the server maps to roles. Its development login page (devInteractions) takes any
// password; the tests sign in as the users below. Prints "listening on <issuer>" once it serves.
//
// The client's id and secret come from testing/oidc/settings.ts, through the environment:
//   OIDC_PORT=3563 OIDC_REDIRECT_URI=http://localhost:3463/api/auth/oidc/callback \
//   OIDC_CLIENT_ID=wirespeed-e2e OIDC_CLIENT_SECRET=… node testing/oidc/provider.mjs
import Provider from "oidc-provider";

/** The test users: login name → claims. */
export const OIDC_TEST_USERS = {
  "oidc-admin": {
    preferred_username: "oidc-admin",
    email: "admin@lab.example",
    groups: ["wirespeed-admins", "wirespeed-viewers"],
  },
  "oidc-viewer": { preferred_username: "oidc-viewer", email: "viewer@lab.example", groups: ["wirespeed-viewers"] },
  "oidc-nogroup": { preferred_username: "oidc-nogroup", email: "nogroup@lab.example", groups: ["contractors"] },
  // No preferred_username: the user name comes from the email.
  "oidc-mail": { email: "Mail.User@lab.example", groups: ["wirespeed-operators"] },
};

export function createProvider({ port, redirectUri, clientId, clientSecret }) {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    scopes: ["openid", "profile", "email", "groups"],
    claims: { openid: ["sub"], profile: ["preferred_username"], email: ["email"], groups: ["groups"] },
    async findAccount(_ctx, id) {
      const claims = OIDC_TEST_USERS[id];
      if (!claims) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...claims }) };
    },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ["e2e-provider-cookie-key-not-for-production"] },
  });
  return { provider, issuer };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.OIDC_PORT ?? 3563);
  const { OIDC_REDIRECT_URI: redirectUri, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = process.env;
  if (!redirectUri || !clientId || !clientSecret) {
    console.error("OIDC_REDIRECT_URI, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET must be set (testing/oidc/settings.ts)");
    process.exit(2);
  }
  const { provider, issuer } = createProvider({ port, redirectUri, clientId, clientSecret });
  const server = provider.listen(port, "127.0.0.1", () => console.log(`listening on ${issuer}`));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
