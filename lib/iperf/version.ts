export type IperfVersion = {
  major: number;
  minor: number;
  patch: number;
  /** As printed, e.g. `3.12`, `3.1.3`, `3.9+` (a `+` marks a build from git after that release). */
  raw: string;
};

const VERSION_PATTERN = /\biperf\s+(?:version\s+)?(\d+)\.(\d+)(?:\.(\d+))?(\+)?/i;

/**
 * Reads the version from `iperf3 -v` output (`iperf 3.12 (cJSON 1.7.15)\nLinux ...`) or from
 * the `"version": "iperf 3.12"` of `-J` output. Returns null when the text names no version.
 */
export function parseIperfVersion(text: string): IperfVersion | null {
  const match = VERSION_PATTERN.exec(text);
  if (!match) return null;
  const raw = match[0].replace(/^iperf\s+(?:version\s+)?/i, "");
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: match[3] === undefined ? 0 : Number(match[3]),
    raw,
  };
}

/** `"3.1.5"` → an IperfVersion; throws on text that is not a version number. */
export function versionFromString(text: string): IperfVersion {
  const parsed = parseIperfVersion(`iperf ${text}`);
  if (!parsed) throw new Error(`not an iperf3 version: "${text}"`);
  return parsed;
}

/** Negative when a < b, 0 when equal, positive when a > b (major, minor, patch; `+` ignored). */
export function compareVersions(a: IperfVersion | string, b: IperfVersion | string): number {
  const left = typeof a === "string" ? versionFromString(a) : a;
  const right = typeof b === "string" ? versionFromString(b) : b;
  return left.major - right.major || left.minor - right.minor || left.patch - right.patch;
}

export function isVersionAtLeast(version: IperfVersion, minimum: string): boolean {
  return compareVersions(version, minimum) >= 0;
}
