// Who this app process is among the instances on one database: its id (WIRESPEED_INSTANCE, else the
// machine's host name, which a restart keeps, so that a restarted instance recovers its own runs at
// once) and its site (WIRESPEED_SITE: the instance then drives only hosts of that site or of none).
// Two instances on one machine need a WIRESPEED_INSTANCE each. Plain module: no database.
import os from "node:os";
import type { ConfigEnv } from "@/lib/config";

export type InstanceIdentity = { id: string; site: string | null };

/** Instance ids and site names: what fits a log line, a label and a URL without quoting. */
export const INSTANCE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

export class InstanceConfigError extends Error {}

function checked(variable: string, value: string): string {
  if (!INSTANCE_NAME_PATTERN.test(value)) {
    throw new InstanceConfigError(
      `${variable} must be 1 to 63 letters, digits, dots, dashes or underscores, starting with a letter or digit (got ${JSON.stringify(value.slice(0, 80))})`,
    );
  }
  return value;
}

export function resolveInstanceIdentity(env: ConfigEnv = process.env): InstanceIdentity {
  const named = env.WIRESPEED_INSTANCE?.trim();
  // A host name may hold characters an id may not (rare): those become dashes.
  const id = named
    ? checked("WIRESPEED_INSTANCE", named)
    : os
        .hostname()
        .replace(/[^A-Za-z0-9._-]/g, "-")
        .slice(0, 63) || "wirespeed";
  const site = env.WIRESPEED_SITE?.trim();
  return { id, site: site ? checked("WIRESPEED_SITE", site) : null };
}

/** How long an instance's heartbeat stays good (WIRESPEED_INSTANCE_LEASE_SECONDS, 10-3600, default 30). */
export function resolveLeaseMs(env: ConfigEnv = process.env): number {
  const text = env.WIRESPEED_INSTANCE_LEASE_SECONDS?.trim();
  if (!text) return 30_000;
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 3600) {
    throw new InstanceConfigError(
      `WIRESPEED_INSTANCE_LEASE_SECONDS must be a whole number of seconds from 1 to 3600 (got ${JSON.stringify(text.slice(0, 40))})`,
    );
  }
  return seconds * 1000;
}
