// FreeBSD: the Linux agent (POSIX sh) with BSD `ifconfig -a` for NICs (pkg installs iperf3 on PATH).
import { freebsdEnvironment } from "./environment-bsd";
import { bsdPing } from "./ping";
import { parseIfconfig } from "./ifconfig";
import { linuxAgent } from "./linux";
import { posixCommand, posixDetectCommands, posixParseDetect } from "./posix";
import type { PlatformAgent } from "./types";

export const freebsdAgent: PlatformAgent = {
  ...linuxAgent,
  platform: "freebsd",
  probeAnswer: /^FreeBSD\b/m,
  detectCommands: (iperf3Path?: string) =>
    posixDetectCommands(iperf3Path === undefined ? ["iperf3", "/usr/local/bin/iperf3"] : [iperf3Path]),
  parseDetect: (outputs) => posixParseDetect("freebsd", outputs),
  discoverNicsCommand: () => posixCommand(["ifconfig", "-a"]),
  parseNics: parseIfconfig,
  environment: freebsdEnvironment,
  ping: bsdPing,
};
