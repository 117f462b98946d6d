import { ESXI_IPERF3_PATH, installHint, type HostPlatform } from "../platforms";
import type { IperfError, IperfErrorKind } from "./model";

/** The platform of the host that printed a message: it picks the install hint of a `not-found`. */
export type IperfPlatform = HostPlatform;

const HINTS: Record<Exclude<IperfErrorKind, "not-found" | "listener-failed">, string> = {
  "connection-refused":
    "Nothing listens on that address and port: the iperf3 server did not start or already exited, the port is wrong, " +
    "or a firewall rejects it (ESXi: `esxcli network firewall set --enabled false`, restore it afterwards).",
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

const ESXI_LISTENER_HINT =
  "ESXi refuses to let its bundled iperf3 listen: copy it and run the copy " +
  `(\`cp ${ESXI_IPERF3_PATH} ${ESXI_IPERF3_PATH}.copy\`, then \`${ESXI_IPERF3_PATH}.copy -s ...\`); ` +
  "the copy lives on a RAM disk and is gone after a reboot.";
const ADDRESS_IN_USE_HINT =
  "Another process already listens on that port (often an iperf3 server left running): pick another port or stop that process.";
const LISTENER_HINT = "iperf3 could not listen on that address and port: check that the address belongs to this host.";

// What iperf3 and the OS say when the other side went away mid-test: one alternative a line.
const CONTROL_SOCKET_CLOSED = new RegExp(
  [
    "control socket has closed",
    "broken pipe",
    "connection reset by peer",
    "unable to (read|write|receive|send) (from|to) (the )?(control|stream) socket",
    "unable to receive (control message|cookie)",
  ].join("|"),
);

function classifyKind(message: string): IperfErrorKind {
  const text = message.toLowerCase();
  if (/command not found|: not found|is not recognized as an internal or external command/.test(text))
    return "not-found";
  // the shell's message for a wrong path (iperf3's own "No such file" errors are about -F files)
  if (text.includes("no such file or directory") && !text.startsWith("iperf3")) return "not-found";
  if (text.includes("interrupt") || /the (client|server) has terminated/.test(text)) return "interrupted";
  if (text.includes("parameter error")) return "parameter";
  if (text.includes("server is busy")) return "server-busy";
  if (text.includes("unable to start listener")) return "listener-failed";
  if (text.includes("connection refused")) return "connection-refused";
  if (/timed out|timeout/.test(text)) return "timeout";
  if (CONTROL_SOCKET_CLOSED.test(text)) return "control-socket-closed";
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
