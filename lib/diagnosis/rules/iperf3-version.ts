// iperf3 too old for the speed: before 3.16 one iperf3 process runs all its streams in one
// thread, and one core does not fill 40 Gbit/s; 3.16 gave each stream a thread of its own.
import type { Hint } from "@/lib/diagnosis/contract";
import { compareVersions, parseIperfVersion, type IperfVersion } from "@/lib/iperf/version";
import { fellShort, hint, listWords, ROLES, snapshotOf, whatTheRunGave, type Role } from "./shared";
import type { RunEvidence } from "./types";
import { formatLinkSpeed } from "@/lib/format";

export const IPERF3_TOO_OLD_TITLE = "iperf3 too old for the speed";
export const MULTI_THREADED_VERSION = "3.16";
/** From this line rate on, one thread is the limit. */
export const MULTI_THREADED_FROM_MBPS = 40_000;

/** "3.12", "iperf 3.12", "iperf 3.9+", "iperf3 version 3.1.3" → the version; null for anything else. */
export function versionOfText(text: string | null): IperfVersion | null {
  if (!text) return null;
  const bare = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  return parseIperfVersion(text) ?? (bare ? parseIperfVersion(`iperf ${bare[0]}`) : null);
}

export function iperf3VersionRule(run: RunEvidence): Hint | null {
  if (run.isChannel || run.linkSpeedMbps < MULTI_THREADED_FROM_MBPS) return null;
  const old = ROLES.flatMap((role): { role: Role; version: IperfVersion }[] => {
    const version = versionOfText(snapshotOf(run, role)?.iperf3Version ?? null);
    return version && compareVersions(version, MULTI_THREADED_VERSION) < 0 ? [{ role, version }] : [];
  });
  if (old.length === 0) return null;
  const short = fellShort(run);
  const ends = old.map(({ role, version }) => `${version.raw} on the ${role}`);
  const evidence =
    `iperf3 ${listWords(ends)}: before ${MULTI_THREADED_VERSION} an iperf3 runs every stream in one thread, ` +
    `and one core does not fill ${formatLinkSpeed(run.linkSpeedMbps)}` +
    (short ? `; ${whatTheRunGave(run)}` : "") +
    ".";
  const suggestion =
    `Upgrade iperf3 to ${MULTI_THREADED_VERSION} or later on ${listWords(old.map(({ role }) => `the ${role}`))}, ` +
    "or run channels: several iperf3 processes at once, each on a core of its own (a channels experiment).";
  return hint("iperf3-too-old", short ? "critical" : "warning", IPERF3_TOO_OLD_TITLE, evidence, suggestion);
}
