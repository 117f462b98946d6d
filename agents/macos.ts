// macOS: the Linux agent (POSIX sh) with BSD `ifconfig -a` for NICs; detect also looks where Homebrew
// installs iperf3, because a non-login SSH shell often lacks /opt/homebrew/bin on PATH.
import { macosEnvironment } from "./environment-bsd";
import { bsdPing } from "./ping";
import { parseIfconfig } from "./ifconfig";
import { bsdCounters } from "./freebsd";
import { linuxAgent } from "./linux";
import { posixDetectCommands, posixParseDetect, posixCommand, posixStartCommand } from "./posix";
import type { PlatformAgent } from "./types";

// Homebrew on Apple silicon, then on Intel: where `brew install iperf3` puts it.
const HOMEBREW_PATHS = ["/opt/homebrew/bin/iperf3", "/usr/local/bin/iperf3"];

export const macosAgent: PlatformAgent = {
  ...linuxAgent,
  platform: "macos",
  // No /proc/net/tcp to watch the server listen: its settle time decides.
  serverCommand: posixStartCommand,
  probeAnswer: /^Darwin\b/m,
  detectCommands: (iperf3Path?: string) =>
    posixDetectCommands(iperf3Path === undefined ? ["iperf3", ...HOMEBREW_PATHS] : [iperf3Path]),
  parseDetect: (outputs) => posixParseDetect("macos", outputs),
  discoverNicsCommand: () => posixCommand(["ifconfig", "-a"]),
  parseNics: parseIfconfig,
  environment: macosEnvironment,
  ping: bsdPing,
  counters: bsdCounters,
};
