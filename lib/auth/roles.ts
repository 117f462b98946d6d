// Roles and what each may do. Plain module: the browser imports it too, to hide what a
// role cannot use; the server enforces the same table through lib/auth/guard.ts.

export const ROLES = ["admin", "operator", "viewer"] as const;
export type Role = (typeof ROLES)[number];

/**
 * - read: hosts, NICs, links, runs, history, charts, exports (never a secret: nothing can read one)
 * - run: start, re-run and cancel tests
 * - inventory: edit hosts' settings, check hosts, discover and edit NICs, create, edit and delete links
 * - credentials: add and delete hosts, set their SSH credentials and iperf3 path, trust (pin) their host keys
 * - monitor: create, change and delete schedules, alert rules and notification channels; acknowledge alerts
 * - share: make, list and revoke share links of runs, experiments and links' histories
 * - users: manage accounts and everyone's API tokens, read the audit log
 */
export const PERMISSIONS = ["read", "run", "inventory", "monitor", "share", "credentials", "users"] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, readonly Permission[]> = {
  admin: PERMISSIONS,
  operator: ["read", "run", "inventory", "monitor", "share"],
  viewer: ["read"],
};

export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role ? GRANTS[role].includes(permission) : false;
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: "Everything: users, hosts and their credentials, tests.",
  operator:
    "Runs tests; edits hosts' settings, NICs and links, schedules, alert rules and channels. Never sees or sets credentials.",
  viewer: "Sees hosts, links, runs, history, charts, schedules and alerts. Starts and changes nothing.",
};

/** What a permission lets one do, for "you cannot" messages. */
export const PERMISSION_NEEDS: Record<Permission, string> = {
  read: "viewing the lab",
  run: "starting or cancelling tests (operator or admin)",
  inventory: "changing hosts, NICs and links (operator or admin)",
  monitor: "changing schedules, alert rules and notification channels (operator or admin)",
  share: "sharing results through links anyone can open (operator or admin)",
  credentials: "adding or deleting hosts, setting credentials or the iperf3 path and trusting host keys (admin)",
  users: "managing users and reading the audit log (admin)",
};
