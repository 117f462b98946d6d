// Pure (no I/O, no imports): the one list of host platforms, and what code that has no agent at hand
// (forms, lib/iperf, start-up) knows of each. The agent registry (agents/index.ts), the zod enum of
// lib/inventory and lib/iperf's platform type all derive from PLATFORM_FACTS.

/** Where ESXi ships iperf3: the vSAN directory, which is not on PATH. */
export const ESXI_IPERF3_PATH = "/usr/lib/vmware/vsan/bin/iperf3";

type PlatformFacts = {
  /** the name users see */
  label: string;
  /** how to get iperf3 onto a host of this platform: the hint of a `not-found` */
  installHint: string;
  /** Node's `process.platform` on such a machine, to name the host Wirespeed runs on; null where it cannot run */
  nodePlatform: NodeJS.Platform | null;
};

// One entry per platform; its agent goes into AGENTS (agents/index.ts), which the compiler checks against this.
const PLATFORM_FACTS = {
  linux: {
    label: "Linux",
    installHint:
      "Install iperf3 from the distribution: `sudo apt install iperf3` (Debian, Ubuntu), " +
      "`sudo dnf install iperf3` (Fedora, RHEL), `sudo pacman -S iperf3` (Arch) or `apk add iperf3` (Alpine).",
    nodePlatform: "linux",
  },
  esxi: {
    label: "ESXi",
    installHint:
      `ESXi ships iperf3 at ${ESXI_IPERF3_PATH}, which is not on PATH: use that path. To run it as a server, ` +
      `copy it first (\`cp ${ESXI_IPERF3_PATH} ${ESXI_IPERF3_PATH}.copy\`); the copy is gone after a reboot.`,
    nodePlatform: null,
  },
  windows: {
    label: "Windows",
    installHint:
      "Download iperf3 for Windows (https://iperf.fr/iperf-download.php or https://github.com/ar51an/iperf3-win-builds), " +
      "unpack iperf3.exe (and cygwin1.dll, for the Cygwin builds) into a folder on the PATH of the SSH user, then reconnect.",
    nodePlatform: "win32",
  },
  macos: {
    label: "macOS",
    installHint:
      "Install iperf3 with Homebrew: `brew install iperf3` (it lands in /opt/homebrew/bin, which a non-login SSH shell may not have on PATH).",
    nodePlatform: "darwin",
  },
  freebsd: {
    label: "FreeBSD / TrueNAS",
    installHint: "Install iperf3 with `pkg install iperf3`.",
    nodePlatform: "freebsd",
  },
} as const satisfies Record<string, PlatformFacts>;

/** A platform Wirespeed has an agent for. */
export type Platform = keyof typeof PLATFORM_FACTS;
export const PLATFORMS = Object.keys(PLATFORM_FACTS) as [Platform, ...Platform[]];

/** What a host's platform is until it has been detected or set. */
export const UNKNOWN_PLATFORM = "unknown";
/** The platform a host row stores. */
export type HostPlatform = Platform | typeof UNKNOWN_PLATFORM;
export const HOST_PLATFORMS: readonly [HostPlatform, ...HostPlatform[]] = [...PLATFORMS, UNKNOWN_PLATFORM];

const UNKNOWN_INSTALL_HINT =
  "iperf3 is not installed on this host or not on the PATH of the SSH user: install iperf3 (package `iperf3` on most systems) or give its full path.";

export function isPlatform(value: string): value is Platform {
  return Object.hasOwn(PLATFORM_FACTS, value);
}

/** The name users see; a value that is no platform is shown as it is. */
export function platformLabel(platform: string): string {
  if (isPlatform(platform)) return PLATFORM_FACTS[platform].label;
  return platform === UNKNOWN_PLATFORM ? "Unknown" : platform;
}

/** How to get iperf3 onto a host of this platform, for the `not-found` hint. */
export function installHint(platform: HostPlatform): string {
  return isPlatform(platform) ? PLATFORM_FACTS[platform].installHint : UNKNOWN_INSTALL_HINT;
}

/** The platform of a machine with this Node `process.platform` (the one Wirespeed runs on). */
export function platformOfNode(nodePlatform: NodeJS.Platform): HostPlatform {
  return PLATFORMS.find((platform) => PLATFORM_FACTS[platform].nodePlatform === nodePlatform) ?? UNKNOWN_PLATFORM;
}
