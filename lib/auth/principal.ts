import type { Role } from "./roles";

/**
 * Who is asking: a signed-in user (a session, whether opened by a password or an identity provider), an API
 * token's user, the environment's admin token, a user a trusted proxy's header vouches for on each request,
 * an anonymous public visitor, or Wirespeed itself acting for a service outside (Home Assistant's button: "system").
 */
export type Principal = {
  userId: number | null;
  name: string;
  role: Role;
  via: "session" | "token" | "env-token" | "proxy" | "public" | "system";
  /** The session's or token's row, so that signing out or revoking can find it. */
  credentialId?: number;
};

/** What the browser may know of the principal: no ids of credentials. */
export type Viewer = { name: string; role: Role; via: Principal["via"] };

export function viewerOf(principal: Principal): Viewer {
  return { name: principal.name, role: principal.role, via: principal.via };
}
