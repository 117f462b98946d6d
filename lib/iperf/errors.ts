import type { IperfError, IperfErrorKind } from "./model";

export type IperfPlatform = "linux" | "esxi" | "windows" | "macos" | "freebsd" | "unknown";

const ESXI_IPERF = "/usr/lib/vmware/vsan/bin/iperf3";

/** How to get iperf3 onto a host of this platform, for the `not-found` hint. */
export function installHint(platform: IperfPlatform): string {
  switch (platform) {
    case "linux":
      return "Install iperf3 from the distribution: `sudo apt install iperf3` (Debian, Ubuntu), `sudo dnf install iperf3` (Fedora, RHEL), `sudo pacman -S iperf3` (Arch) or `apk add iperf3` (Alpine).";
    case "esxi":
      return `ESXi ships iperf3 at ${ESXI_IPERF}, which is not on PATH: use that path. To run it as a server, copy it first (\`cp ${ESXI_IPERF} ${ESXI_IPERF}.copy\`); the copy is gone after a reboot.`;
    case "windows":
      return "Download iperf3 for Windows (https://iperf.fr/iperf-download.php or https://github.com/ar51an/iperf3-win-builds), unpack iperf3.exe (and cygwin1.dll, for the Cygwin builds) into a folder on the PATH of the SSH user, then reconnect.";
    case "macos":
      return "Install iperf3 with Homebrew: `brew install iperf3` (it lands in /opt/homebrew/bin, which a non-login SSH shell may not have on PATH).";
    case "freebsd":
      return "Install iperf3 with `pkg install iperf3`.";
    case "unknown":
      return "iperf3 is not installed on this host or not on the PATH of the SSH user: install iperf3 (package `iperf3` on most systems) or give its full path.";
  }
}

const HINTS: Record<Exclude<IperfErrorKind, "not-found" | "listener-failed">, string> = {
  "connection-refused":
    "Nothing listens on that address and port: the iperf3 server did not start or already exited, the port is wrong, or a firewall rejects it (ESXi: `esxcli network firewall set --enabled false`, restore it afterwards).",
  "server-busy":
    "That iperf3 server runs another test; one server process serves one test at a time. Wait for it, or run each concurrent test on its own port.",
  "control-socket-closed":
    "The other side went away during the test: its iperf3 was killed or crashed, or the link dropped. Check the server host and run the test again.",
  parameter: "iperf3 refused an option: check the test settings against the iperf3 version of the host.",
  interrupted: "The test was stopped before its end (cancelled or interrupted); the numbers cover the part that ran.",
  timeout:
    "No answer in time: the server host is unreachable, a firewall drops the packets, or the other side stopped sending.",
  unknown: "iperf3 failed; the message above is its own.",
};

const ESXI_LISTENER_HINT = `ESXi refuses to let its bundled iperf3 listen: copy it and run the copy (\`cp ${ESXI_IPERF} ${ESXI_IPERF}.copy\`, then \`${ESXI_IPERF}.copy -s ...\`); the copy lives on a RAM disk and is gone after a reboot.`;
const ADDRESS_IN_USE_HINT =
  "Another process already listens on that port (often an iperf3 server left running): pick another port or stop that process.";
const LISTENER_HINT = "iperf3 could not listen on that address and port: check that the address belongs to this host.";

function classifyKind(message: string): IperfErrorKind {
  const text = message.toLowerCase();
  if (/command not found|: not found|is not recognized as an internal or external command/.test(text)) return "not-found";
  // the shell's message for a wrong path (iperf3's own "No such file" errors are about -F files)
  if (text.includes("no such file or directory") && !text.startsWith("iperf3")) return "not-found";
  if (text.includes("interrupt") || /the (client|server) has terminated/.test(text)) return "interrupted";
  if (text.includes("parameter error")) return "parameter";
  if (text.includes("server is busy")) return "server-busy";
  if (text.includes("unable to start listener")) return "listener-failed";
  if (text.includes("connection refused")) return "connection-refused";
  if (/timed out|timeout/.test(text)) return "timeout";
  if (
    /control socket has closed|broken pipe|connection reset by peer|unable to (read|write|receive|send) (from|to) (the )?(control|stream) socket|unable to receive (control message|cookie)/.test(
      text,
    )
  ) {
    return "control-socket-closed";
  }
  return "unknown";
}

/** Sorts an iperf3 (or shell) error message into a kind, keeping the message and adding a hint. */
export function classifyIperfError(message: string, platform: IperfPlatform = "unknown"): IperfError {
  const trimmed = message.trim();
  const kind = classifyKind(trimmed);
  let hint: string;
  if (kind === "not-found") hint = installHint(platform);
  else if (kind === "listener-failed") {
    if (/operation not permitted/i.test(trimmed)) hint = ESXI_LISTENER_HINT;
    else if (/address already in use/i.test(trimmed)) hint = ADDRESS_IN_USE_HINT;
    else hint = LISTENER_HINT;
  } else hint = HINTS[kind];
  return { kind, message: trimmed, hint };
}

/** iperf3 lines on stderr that are not failures: ESXi's per-interval TCP_INFO complaint, the farewell after an error. */
export function isNoiseLine(line: string): boolean {
  return /^iperf3: (getsockopt - Function not implemented|exiting)\s*$/.test(line.trim());
}

/** Whether a line is an error message of iperf3 or of the shell that should have run it. */
export function isErrorLine(line: string): boolean {
  const trimmed = line.trim();
  if (isNoiseLine(trimmed)) return false;
  if (/^iperf3(\.exe)?: /.test(trimmed)) return true;
  return /iperf3(\.exe)?'?: (command )?not found|'iperf3(\.exe)?' is not recognized/.test(trimmed);
}
