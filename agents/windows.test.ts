/**
 * Windows agent: cmd.exe quoting and command building, checked against a model of how cmd.exe and
 * the C runtime parse a command line (no Windows host here). All outputs below are hand-written in the
 * format of Windows 10/11 PowerShell 5.1 and cmd.exe.
 */
import { describe, expect, it } from "vitest";
import { throughCmd, unquotedSpecials } from "@/testing/cmd-exe";
import {
  cmdQuote,
  cmdQuoteArg,
  parseWindowsNics,
  UnquotableArgumentError,
  windowsAgent,
  windowsLinkSpeedMbps,
} from "./windows";

describe("cmdQuote", () => {
  it("leaves plain words bare and quotes the rest", () => {
    expect(cmdQuote(["C:\\iperf3\\iperf3.exe", "-c", "10.0.0.2", "-p", "5201"])).toBe(
      "C:\\iperf3\\iperf3.exe -c 10.0.0.2 -p 5201",
    );
    expect(cmdQuoteArg("C:\\Program Files\\iperf3\\iperf3.exe")).toBe('"C:\\Program Files\\iperf3\\iperf3.exe"');
    expect(cmdQuoteArg("")).toBe('""');
    expect(cmdQuoteArg('say "hi"')).toBe('"say ""hi"""');
    expect(cmdQuoteArg("100%")).toBe('"100%%cd:~,%"');
    expect(cmdQuoteArg("a,b")).toBe('"a,b"');
  });

  it("passes hostile strings through cmd.exe and the C runtime unchanged, interpreting nothing", () => {
    const hostile = [
      "a & calc.exe",
      "a | more",
      "a > C:\\x.txt",
      "a < C:\\x.txt",
      "a ^& b",
      "%PATH%",
      "%USERNAME%%cd%",
      "%",
      "%%",
      '"',
      '""',
      '" & calc & "',
      "C:\\dir with space\\",
      "trailing\\\\",
      'a\\"b',
      "(echo x)",
      "(touch x) ; z ' \u00e9",
      "",
      "-c",
    ];
    for (const arg of hostile) {
      expect(throughCmd(["iperf3.exe", arg, "end"]), JSON.stringify(arg)).toEqual(["iperf3.exe", arg, "end"]);
      // a quoted program path first: the line starts with a quote, which cmd /c strips
      expect(throughCmd(["C:\\Program Files\\iperf3\\iperf3.exe", arg]), JSON.stringify(arg)).toEqual([
        "C:\\Program Files\\iperf3\\iperf3.exe",
        arg,
      ]);
    }
  });

  it("refuses what cmd.exe cannot pass safely (line breaks, NUL, ! for delayed expansion) and what PowerShell would run", () => {
    for (const arg of [
      "a\nb",
      "a\rb",
      "a\0b",
      "wow!",
      "!PATH!",
      "$(calc)",
      "$env:TEMP",
      "a`b",
      "a\u201D; calc; \u201C",
      "\u2018x\u2019",
    ]) {
      expect(() => cmdQuoteArg(arg), JSON.stringify(arg)).toThrow(UnquotableArgumentError);
    }
  });
});

describe("windows commands", () => {
  it("runs iperf3.exe in the foreground of its channel, without a PID line", () => {
    const server = windowsAgent.serverCommand({
      iperf3Path: "C:\\iperf3\\iperf3.exe",
      args: ["-s", "-1", "-B", "10.0.0.2", "-p", "5201"],
    });
    expect(server.quote(server.argv)).toBe("C:\\iperf3\\iperf3.exe -s -1 -B 10.0.0.2 -p 5201");
    expect(windowsAgent.printsPid).toBe(false);
    expect(server.keepStdinOpen).toBeUndefined();
    const client = windowsAgent.clientCommand({
      iperf3Path: "D:\\tools\\iperf 3.1.3\\iperf3.exe",
      args: ["-c", "10.0.0.2"],
    });
    // the extra outer pair is for cmd /c, which strips the first and last quote of a line starting with one
    expect(client.quote(client.argv)).toBe('""D:\\tools\\iperf 3.1.3\\iperf3.exe" -c 10.0.0.2"');
  });

  it("stops with taskkill whatever the signal, and reads tasklist's CSV", () => {
    for (const signal of ["INT", "TERM", "KILL"] as const) {
      const stop = windowsAgent.stopCommand(4242, signal);
      expect(stop.quote(stop.argv)).toBe("taskkill /PID 4242 /T /F");
    }
    const check = windowsAgent.isRunningCommand(4242);
    expect(check.quote(check.argv)).toBe('tasklist /FI "PID eq 4242" /NH /FO CSV');
    // hand-written: tasklist /FI "PID eq 4242" /NH /FO CSV
    expect(
      windowsAgent.parseIsRunning(
        { exitCode: 0, stdout: '"iperf3.exe","4242","Console","1","4,120 K"', stderr: "" },
        4242,
      ),
    ).toBe(true);
    expect(
      windowsAgent.parseIsRunning(
        { exitCode: 0, stdout: "INFO: No tasks are running which match the specified criteria.", stderr: "" },
        4242,
      ),
    ).toBe(false);
  });

  it("detects with ver and iperf3 -v, and knows a missing iperf3.exe", () => {
    const commands = windowsAgent.detectCommands("C:\\iperf3\\iperf3.exe");
    expect(commands.map((c) => c.quote(c.argv))).toEqual(["ver", "C:\\iperf3\\iperf3.exe -v"]);
    // hand-written: cmd.exe `ver` and the 3.1.3 Cygwin build's `-v`
    const ver = { exitCode: 0, stdout: "\r\nMicrosoft Windows [Version 10.0.19045.3803]\r\n", stderr: "" };
    const found = windowsAgent.parseDetect(
      [
        ver,
        {
          exitCode: 1,
          stdout:
            "iperf 3.1.3\r\nCYGWIN_NT-10.0 WIN10 2.5.1(0.297/5/3) 2016-04-21 22:14 x86_64\r\nOptional features available: CPU affinity setting\r\n",
          stderr: "",
        },
      ],
      "C:\\iperf3\\iperf3.exe",
    );
    expect(found).toMatchObject({
      platform: "windows",
      os: "Microsoft Windows [Version 10.0.19045.3803]",
      iperf3Path: "C:\\iperf3\\iperf3.exe",
    });
    expect(found.version).toMatchObject({ major: 3, minor: 1, patch: 3 });
    const missing = windowsAgent.parseDetect(
      [
        ver,
        {
          exitCode: 1,
          stdout: "",
          stderr:
            "'C:\\iperf3\\iperf3.exe' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n",
        },
      ],
      "C:\\iperf3\\iperf3.exe",
    );
    expect(missing).toMatchObject({ iperf3Path: null, version: null, versionText: null });
  });

  it("asks PowerShell for adapters and addresses as JSON through cmd quoting", () => {
    const command = windowsAgent.discoverNicsCommand();
    expect(command.argv.slice(0, 4)).toEqual(["powershell", "-NoProfile", "-NonInteractive", "-Command"]);
    const line = command.quote(command.argv);
    expect(line).toMatch(
      /^powershell -NoProfile -NonInteractive -Command "Write-Output wirespeed-adapters; Get-NetAdapter \| Select-Object .*ConvertTo-Json -Compress.*"$/,
    );
    expect(unquotedSpecials(line)).toEqual([]);
  });
});

describe("parseWindowsNics", () => {
  // hand-written in the shape of `Get-NetAdapter | Select-Object ... | ConvertTo-Json -Compress` (PowerShell 5.1)
  const adapters = JSON.stringify([
    {
      Name: "Ethernet",
      InterfaceDescription: "Intel(R) Ethernet Controller X550",
      ifIndex: 12,
      MacAddress: "3C-EC-EF-12-34-56",
      LinkSpeed: "10 Gbps",
      ReceiveLinkSpeed: 10000000000,
      TransmitLinkSpeed: 10000000000,
      MtuSize: 9000,
      Status: "Up",
      FullDuplex: true,
      DriverName: "\\SystemRoot\\System32\\drivers\\ixi65x64.sys",
    },
    {
      Name: "Ethernet 2",
      InterfaceDescription: "Realtek PCIe 2.5GbE Family Controller",
      ifIndex: 7,
      MacAddress: "04-42-1A-AA-BB-CC",
      LinkSpeed: "0 bps",
      ReceiveLinkSpeed: 0,
      TransmitLinkSpeed: 0,
      MtuSize: 1500,
      Status: "Disconnected",
      FullDuplex: false,
      DriverName: "\\SystemRoot\\System32\\drivers\\rt25cx21x64.sys",
    },
  ]);
  // hand-written: `Get-NetIPAddress | Select-Object ... | ConvertTo-Json -Compress`; AddressFamily 2 = IPv4, 23 = IPv6
  const addresses = JSON.stringify([
    {
      InterfaceAlias: "Ethernet",
      InterfaceIndex: 12,
      IPAddress: "fe80::1c2d:3e4f:5a6b:7c8d%12",
      PrefixLength: 64,
      AddressFamily: 23,
    },
    { InterfaceAlias: "Ethernet", InterfaceIndex: 12, IPAddress: "10.10.10.30", PrefixLength: 24, AddressFamily: 2 },
    { InterfaceAlias: "Ethernet", InterfaceIndex: 12, IPAddress: "2001:db8::30", PrefixLength: 64, AddressFamily: 23 },
    {
      InterfaceAlias: "Loopback Pseudo-Interface 1",
      InterfaceIndex: 1,
      IPAddress: "127.0.0.1",
      PrefixLength: 8,
      AddressFamily: 2,
    },
  ]);

  it("joins adapters with their addresses by interface index", () => {
    const nics = parseWindowsNics(
      `wirespeed-adapters\r\n${adapters}\r\nwirespeed-addresses\r\n${addresses}\r\nwirespeed-end\r\n`,
    );
    expect(nics).toEqual([
      {
        name: "Ethernet",
        mac: "3c:ec:ef:12:34:56",
        mtu: 9000,
        speedMbps: 10000,
        duplex: "full",
        isUp: true,
        addresses: [
          { address: "10.10.10.30", prefixLength: 24, family: "ipv4" },
          { address: "2001:db8::30", prefixLength: 64, family: "ipv6" },
        ],
        driver: "ixi65x64.sys",
        pcieLinkSpeed: null,
        pcieLinkWidth: null,
        description: "Intel(R) Ethernet Controller X550",
      },
      expect.objectContaining({ name: "Ethernet 2", speedMbps: null, duplex: null, isUp: false, addresses: [] }),
    ]);
  });

  it("accepts the single object ConvertTo-Json prints for one adapter, and PowerShell 7's enum names", () => {
    const one = JSON.stringify({
      Name: "Ethernet",
      ifIndex: 3,
      MacAddress: "00-15-5D-01-02-03",
      LinkSpeed: "2.5 Gbps",
      MtuSize: 1500,
      Status: "Up",
      FullDuplex: true,
    });
    const ip = JSON.stringify({
      InterfaceAlias: "Ethernet",
      InterfaceIndex: 3,
      IPAddress: "192.168.1.30",
      PrefixLength: 24,
      AddressFamily: "IPv4",
    });
    const [nic] = parseWindowsNics(`wirespeed-adapters\n${one}\nwirespeed-addresses\n${ip}\nwirespeed-end\n`);
    expect(nic).toMatchObject({
      name: "Ethernet",
      speedMbps: 2500,
      addresses: [{ address: "192.168.1.30", prefixLength: 24, family: "ipv4" }],
    });
  });

  it("reads LinkSpeed text when the bit rate is missing", () => {
    expect(windowsLinkSpeedMbps("1 Gbps", undefined)).toBe(1000);
    expect(windowsLinkSpeedMbps("100 Mbps", undefined)).toBe(100);
    expect(windowsLinkSpeedMbps("2.5 Gbps", 2_500_000_000)).toBe(2500);
    expect(windowsLinkSpeedMbps("0 bps", 0)).toBeNull();
  });
});
