// Fills a migrated Wirespeed database, SQLite or Postgres, with SQL, fast (bench/fill-database.ts
// writes the rows, one transaction per day of runs; the ids are given here, so that both databases
// get the same rows): the hosts, NICs and links of a homelab, each link's schedules, and the runs
// those schedules start hour after hour, shaped as the engine stores them: options, signature,
// commands, iperf3 versions, summary figures, CPU, both raw outputs, both ends' environment
// snapshots, the ScheduleRun and the audit entry of each start, and one sample per second of the
// test (10 s unless told; per-stream values with -P > 1) for the runs young enough to keep them.
//
// What is simpler than life, and why it does not change what the benches measure: a link's
// outputs and snapshots are built once and reused with each run's own summary lines and times
// (the rows have the sizes real ones have; SQLite does not compress, Postgres compresses the long
// outputs it stores out of line); no experiments, imports or latency pings (LatencySample) are
// written; the thinned copy that retention keeps of a compacted run is not written.
import { signatureOf } from "../lib/runs/signature";
import type { FillDatabase } from "./fill-database";
import { randomFrom, sqliteTime } from "./timing";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

type Platform = "linux" | "esxi" | "windows" | "macos";
type HostSpec = {
  name: string;
  platform: Platform;
  os: string;
  kernel: string;
  cpu: string;
  cores: number;
  iperf3: string;
  virtualization: string;
};

const HOSTS: HostSpec[] = [
  ...[1, 2, 3, 4].map((n) => ({
    name: `pve-0${n}`,
    platform: "linux" as const,
    os: "Debian GNU/Linux 12 (bookworm)",
    kernel: "6.8.12-4-pve",
    cpu: "AMD EPYC 7302P 16-Core Processor",
    cores: 32,
    iperf3: "3.12",
    virtualization: "none",
  })),
  {
    name: "truenas",
    platform: "linux",
    os: "Debian GNU/Linux 12 (bookworm)",
    kernel: "6.6.44-production+truenas",
    cpu: "Intel(R) Xeon(R) Silver 4314 CPU @ 2.40GHz",
    cores: 32,
    iperf3: "3.12",
    virtualization: "none",
  },
  {
    name: "storage-01",
    platform: "linux",
    os: "Rocky Linux 9.4 (Blue Onyx)",
    kernel: "5.14.0-427.13.1.el9_4.x86_64",
    cpu: "AMD EPYC 7443P 24-Core Processor",
    cores: 48,
    iperf3: "3.9",
    virtualization: "none",
  },
  {
    name: "gpu-01",
    platform: "linux",
    os: "Ubuntu 24.04.1 LTS",
    kernel: "6.8.0-45-generic",
    cpu: "AMD Ryzen Threadripper PRO 5975WX 32-Cores",
    cores: 64,
    iperf3: "3.16",
    virtualization: "none",
  },
  ...[1, 2, 3, 4, 5, 6].map((n) => ({
    name: `k8s-0${n}`,
    platform: "linux" as const,
    os: "Ubuntu 24.04.1 LTS",
    kernel: "6.8.0-45-generic",
    cpu: "Intel(R) Core(TM) i5-12500",
    cores: 12,
    iperf3: "3.16",
    virtualization: "none",
  })),
  {
    name: "backup-01",
    platform: "linux",
    os: "Debian GNU/Linux 12 (bookworm)",
    kernel: "6.1.0-26-amd64",
    cpu: "Intel(R) Xeon(R) E-2236 CPU @ 3.40GHz",
    cores: 12,
    iperf3: "3.12",
    virtualization: "none",
  },
  {
    name: "docker-vm",
    platform: "linux",
    os: "Debian GNU/Linux 12 (bookworm)",
    kernel: "6.1.0-26-amd64",
    cpu: "AMD EPYC 7302P 16-Core Processor",
    cores: 8,
    iperf3: "3.12",
    virtualization: "kvm",
  },
  {
    name: "esxi-01",
    platform: "esxi",
    os: "VMware ESXi 8.0.2",
    kernel: "8.0.2",
    cpu: "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz",
    cores: 40,
    iperf3: "3.8.1",
    virtualization: "none",
  },
  {
    name: "esxi-02",
    platform: "esxi",
    os: "VMware ESXi 8.0.2",
    kernel: "8.0.2",
    cpu: "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz",
    cores: 40,
    iperf3: "3.8.1",
    virtualization: "none",
  },
  {
    name: "win-ws",
    platform: "windows",
    os: "Windows 11 Pro 23H2",
    kernel: "10.0.22631",
    cpu: "AMD Ryzen 9 7950X 16-Core Processor",
    cores: 32,
    iperf3: "3.17.1",
    virtualization: "none",
  },
  {
    name: "mac-studio",
    platform: "macos",
    os: "macOS 14.6.1",
    kernel: "23.6.0",
    cpu: "Apple M2 Max",
    cores: 12,
    iperf3: "3.17.1",
    virtualization: "none",
  },
];

type NicKind = {
  speedMbps: number;
  label: string;
  model: string;
  driver: string;
  firmware: string;
  linuxBase: string;
  pcie: [number, number];
};
const NIC_KINDS: NicKind[] = [
  {
    speedMbps: 1000,
    label: "1G",
    model: "Intel I210 Gigabit Network Connection",
    driver: "igb",
    firmware: "3.25, 0x800005d0",
    linuxBase: "eno",
    pcie: [2.5, 1],
  },
  {
    speedMbps: 2500,
    label: "2.5G",
    model: "Intel Ethernet Controller I226-V",
    driver: "igc",
    firmware: "2017:888d",
    linuxBase: "enp4s",
    pcie: [5, 1],
  },
  {
    speedMbps: 10_000,
    label: "10G",
    model: "Intel Ethernet Controller X710 for 10GbE SFP+",
    driver: "i40e",
    firmware: "9.20 0x8000d95e 1.3353.0",
    linuxBase: "enp65s0f",
    pcie: [8, 8],
  },
  {
    speedMbps: 25_000,
    label: "25G",
    model: "Mellanox MT27710 Family [ConnectX-4 Lx]",
    driver: "mlx5_core",
    firmware: "14.32.1010 (MT_2420110034)",
    linuxBase: "enp129s0f",
    pcie: [8, 8],
  },
  {
    speedMbps: 40_000,
    label: "40G",
    model: "Intel Ethernet Controller XL710 for 40GbE QSFP+",
    driver: "i40e",
    firmware: "9.20 0x8000d95e 1.3353.0",
    linuxBase: "ens2f",
    pcie: [8, 8],
  },
  {
    speedMbps: 100_000,
    label: "100G",
    model: "Mellanox MT28800 Family [ConnectX-5 Ex]",
    driver: "mlx5_core",
    firmware: "16.35.3006 (MT_0000000013)",
    linuxBase: "enp193s0f",
    pcie: [16, 16],
  },
];

/** 50 links: mostly 10G, then 25G and 2.5G, a few 1G, 40G and 100G. */
const SPEED_PLAN = [
  10_000, 2500, 25_000, 10_000, 1000, 10_000, 25_000, 2500, 10_000, 100_000, 10_000, 2500, 25_000, 10_000, 1000, 40_000,
  10_000, 25_000, 2500, 10_000, 100_000, 10_000, 2500, 25_000, 1000,
];

type TestSpec = {
  name: string;
  options: Record<string, unknown>;
  clientSide: "a" | "b";
  direction: "a-to-b" | "b-to-a" | "bidir";
};

export type LinkSpec = {
  id: number;
  name: string;
  speedMbps: number;
  a: { host: HostSpec; nic: string; address: string };
  b: { host: HostSpec; nic: string; address: string };
  /** How well the link does against its nominal speed (a few links fall short). */
  efficiency: number;
  schedules: Array<{ id: number; test: TestSpec; signature: string; texts: Texts; environment: string[] }>;
};

export type Lab = { links: LinkSpec[]; ruleId: number; hosts: number };

function testsOf(index: number, speedMbps: number, seconds: number): TestSpec[] {
  const parallel = speedMbps >= 100_000 ? 8 : speedMbps >= 10_000 ? 4 : 1;
  const tcp = (reverse: boolean, bidir = false): TestSpec => ({
    name: `${bidir ? "both ways" : reverse ? "B to A" : "A to B"}, TCP ×${parallel}`,
    options: { protocol: "tcp", duration: seconds, parallel, reverse, bidir, zerocopy: false, interval: 1 },
    clientSide: "a",
    direction: bidir ? "bidir" : reverse ? "b-to-a" : "a-to-b",
  });
  const kind = index % 10;
  if (kind <= 5) return [tcp(false)];
  if (kind <= 7) return [tcp(false), tcp(true)];
  if (kind === 8) {
    const bitrate = Math.min(speedMbps, 10_000) * 1e6 * 0.5;
    const udp: TestSpec = {
      name: `A to B, UDP at ${bitrate / 1e6} Mbit/s`,
      options: {
        protocol: "udp",
        duration: seconds,
        parallel: 1,
        reverse: false,
        bidir: false,
        zerocopy: false,
        interval: 1,
        bitrate,
      },
      clientSide: "a",
      direction: "a-to-b",
    };
    return [tcp(false), tcp(false, true), udp];
  }
  const latency = tcp(false);
  return [{ ...latency, name: `${latency.name} with latency`, options: { ...latency.options, latency: true } }];
}

// ---------------------------------------------------------------- iperf3's text, as the engine keeps it

function formatRate(bitsPerSecond: number): string {
  const [value, unit] = bitsPerSecond >= 1e9 ? [bitsPerSecond / 1e9, "Gbits/sec"] : [bitsPerSecond / 1e6, "Mbits/sec"];
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${unit}`;
}

function formatBytes(bytes: number): string {
  const [value, unit] = bytes >= 2 ** 30 ? [bytes / 2 ** 30, "GBytes"] : [bytes / 2 ** 20, "MBytes"];
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${unit}`;
}

const pad = (text: string, width: number) => text.padStart(width);
const streamIds = (parallel: number) => Array.from({ length: parallel }, (_, index) => 5 + index * 2);
const separator = "- - - - - - - - - - - - - - - - - - - - - - - - -";

/** A link test's outputs but for the summary: the interval lines, built once per schedule. */
type Texts = {
  clientHead: string;
  serverHead: string;
  summary: (received: number, retransmits: number, cpu: [number, number]) => { client: string; server: string };
};

function textsOf(link: Omit<LinkSpec, "schedules" | "id">, test: TestSpec, random: () => number): Texts {
  const options = test.options as {
    protocol: string;
    parallel: number;
    bitrate?: number;
    reverse: boolean;
    bidir: boolean;
    duration: number;
  };
  const seconds = options.duration;
  const udp = options.protocol === "udp";
  const ids = streamIds(options.parallel);
  const rate = udp ? options.bitrate! : link.speedMbps * 1e6 * link.efficiency;
  const [client, server] = [link.a, link.b];
  const intervalLine = (id: string, from: number, bps: number, sender: boolean) => {
    const interval = `${pad(from.toFixed(2), 6)}-${(from + 1).toFixed(2).padEnd(6)} sec`;
    const figures = `${pad(formatBytes(bps / 8), 10)}  ${pad(formatRate(bps), 15)}`;
    if (udp) {
      const datagrams = Math.round(bps / 8 / 1448);
      const tail = sender ? pad(String(datagrams), 6) : `  0.00${Math.floor(random() * 9)} ms  0/${datagrams} (0%)`;
      return `[${id}] ${interval} ${figures}  ${tail}  `;
    }
    return sender
      ? `[${id}] ${interval} ${figures}  ${pad(String(Math.floor(random() ** 4 * 30)), 4)}   ${pad((1 + random() * 2).toFixed(2), 5)} MBytes       `
      : `[${id}] ${interval} ${figures}                  `;
  };
  const intervals = (sender: boolean) => {
    const lines: string[] = [];
    for (let second = 0; second < seconds; second += 1) {
      const total = rate * (0.97 + random() * 0.06);
      for (const id of ids) lines.push(intervalLine(pad(String(id), 3), second, total / ids.length, sender));
      if (ids.length > 1) lines.push(intervalLine("SUM", second, total, sender), separator);
    }
    return lines;
  };
  const connected = (local: typeof client, remote: typeof client, port: number) =>
    ids.map(
      (id, index) =>
        `[${pad(String(id), 3)}] local ${local.address.split("/")[0]} port ${local === client ? port + index : 5201} ` +
        `connected to ${remote.address.split("/")[0]} port ${local === client ? 5201 : port + index}`,
    );
  const clientSends = !options.reverse;
  const header = udp
    ? "[ ID] Interval           Transfer     Bitrate         Total Datagrams"
    : clientSends
      ? "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd"
      : "[ ID] Interval           Transfer     Bitrate";
  const clientHead = [
    `iperf ${client.host.iperf3}`,
    `Linux ${client.host.name} ${client.host.kernel} #1 SMP PREEMPT_DYNAMIC x86_64`,
    "Control connection MSS 8948",
    "Time: __TIME__",
    `Connecting to host ${server.address.split("/")[0]}, port 5201`,
    ...(options.reverse ? ["Reverse mode, remote host " + server.address.split("/")[0] + " is sending"] : []),
    "      Cookie: 5xq3yhm3xg6zj2l7n2g4a4ofbf5yfv2xxqzp",
    ...(udp ? ["      Target Bitrate: " + formatRate(options.bitrate!)] : ["      TCP MSS: 8948 (default)"]),
    ...connected(client, server, 43_312),
    `Starting Test: protocol: ${udp ? "UDP" : "TCP"}, ${ids.length} streams, ` +
      `${udp ? 8948 : 131_072} byte blocks, omitting 0 seconds, ${seconds} second test, tos 0`,
    header,
    ...intervals(clientSends),
    "Test Complete. Summary Results:",
  ].join("\n");
  const serverHead = [
    "-----------------------------------------------------------",
    "Server listening on 5201 (test #1)",
    "-----------------------------------------------------------",
    `Accepted connection from ${client.address.split("/")[0]}, port 43300`,
    ...connected(server, client, 43_312),
    header,
    ...intervals(!clientSends),
  ].join("\n");
  const summary = (received: number, retransmits: number, cpu: [number, number]) => {
    const bytes = (received * seconds) / 8;
    const interval = `0.00-${seconds.toFixed(2).padEnd(6)}`;
    const lines = (role: "sender" | "receiver", share: number) =>
      ids.map(
        (id) =>
          `[${pad(String(id), 3)}]   ${interval} sec  ${pad(formatBytes((bytes * share) / ids.length), 10)}  ` +
          `${pad(formatRate((received * share) / ids.length), 15)}  ` +
          `${role === "sender" && !udp ? pad(String(Math.round(retransmits / ids.length)), 4) : "    "}             ${role}`,
      );
    const sums = (role: "sender" | "receiver", share: number) =>
      ids.length > 1
        ? [
            `[SUM]   ${interval} sec  ${pad(formatBytes(bytes * share), 10)}  ${pad(formatRate(received * share), 15)}  ` +
              `${role === "sender" && !udp ? pad(String(retransmits), 4) : "    "}             ${role}`,
          ]
        : [];
    const block = [
      "[ ID] Interval           Transfer     Bitrate         Retr",
      ...lines("sender", 1.0004),
      ...lines("receiver", 1),
      ...sums("sender", 1.0004),
      ...sums("receiver", 1),
    ];
    return {
      client: [
        ...block,
        `CPU Utilization: local/${clientSends ? "sender" : "receiver"} ${cpu[0].toFixed(1)}% (0.9%u/${(cpu[0] - 0.9).toFixed(1)}%s), ` +
          `remote/${clientSends ? "receiver" : "sender"} ${cpu[1].toFixed(1)}% (4.1%u/${(cpu[1] - 4.1).toFixed(1)}%s)`,
        "snd_tcp_congestion cubic",
        "rcv_tcp_congestion cubic",
        "",
        "iperf Done.",
        "",
      ].join("\n"),
      server: [separator, ...block, ""].join("\n"),
    };
  };
  return { clientHead, serverHead, summary };
}

/** Both ends' snapshots as the engine stores them, split where each run's own time goes. */
function environmentOf(link: Omit<LinkSpec, "schedules" | "id">, test: TestSpec): string[] {
  const kind = NIC_KINDS.find((entry) => entry.speedMbps === link.speedMbps)!;
  const snapshot = (end: LinkSpec["a"]) => ({
    platform: end.host.platform,
    readAt: "__READ_AT__",
    os: end.host.os,
    kernel: end.host.kernel,
    iperf3Version: end.host.iperf3,
    virtualization: end.host.virtualization,
    cpu: { model: end.host.cpu, cores: end.host.cores, governor: end.host.platform === "linux" ? "performance" : null },
    tcp:
      end.host.platform === "linux"
        ? {
            congestionControl: "cubic",
            rmemMax: 212_992,
            wmemMax: 212_992,
            tcpRmem: [4096, 131_072, 6_291_456],
            tcpWmem: [4096, 16_384, 4_194_304],
          }
        : { congestionControl: null, rmemMax: null, wmemMax: null, tcpRmem: null, tcpWmem: null },
    nic: {
      name: end.nic,
      driver: kind.driver,
      driverVersion: end.host.platform === "linux" ? end.host.kernel : "1.2.3.0",
      firmware: kind.firmware,
      speedMbps: link.speedMbps,
      duplex: "full",
      mtu: link.speedMbps >= 10_000 ? 9000 : 1500,
      pcie: {
        address: "0000:41:00.0",
        speedGTs: kind.pcie[0],
        width: kind.pcie[1],
        maxSpeedGTs: kind.pcie[0],
        maxWidth: kind.pcie[1],
      },
      siblingPorts: link.speedMbps >= 10_000 ? [{ name: `${end.nic.slice(0, -1)}1`, speedMbps: link.speedMbps }] : [],
      offloads: { tso: true, gso: true, gro: true, lro: false },
      rings: { rx: 1024, tx: 1024, rxMax: 4096, txMax: 4096 },
    },
    missing: end.host.platform === "linux" ? [] : ["ring sizes: not reported on this platform"],
  });
  const [client, server] = test.clientSide === "a" ? [link.a, link.b] : [link.b, link.a];
  return JSON.stringify({ client: snapshot(client), server: snapshot(server) }).split("__READ_AT__");
}

// ---------------------------------------------------------------- the lab

/** Hosts, NICs, `links` links with their schedules, and the default alert rule. */
export async function seedLab(
  db: FillDatabase,
  {
    links: linkCount,
    createdAt,
    seed = 15,
    seconds = 10,
  }: { links: number; createdAt: number; seed?: number; seconds?: number },
): Promise<Lab> {
  const random = randomFrom(seed);
  const now = sqliteTime(createdAt);
  const stamps = { createdAt: now, updatedAt: now };
  const ids = {
    host: await db.nextId("Host"),
    nic: await db.nextId("Nic"),
    link: await db.nextId("Link"),
    schedule: await db.nextId("Schedule"),
    rule: await db.nextId("AlertRule"),
  };
  const hostIds = new Map<string, number>();
  const nicCounts = new Map<string, number>();
  for (const [index, host] of HOSTS.entries()) {
    const path =
      host.platform === "esxi"
        ? "/usr/lib/vmware/vsan/bin/iperf3"
        : host.platform === "windows"
          ? "C:\\iperf3\\iperf3.exe"
          : "/usr/bin/iperf3";
    const id = ids.host++;
    hostIds.set(host.name, id);
    db.insert("Host", {
      id,
      name: host.name,
      address: `192.168.10.${index + 10}`,
      authMethod: "key",
      platform: host.platform,
      iperf3Path: path,
      iperf3Version: host.iperf3,
      hostKeyFingerprint: `SHA256:${Buffer.from(host.name.padEnd(32, "k")).toString("base64").slice(0, 43)}`,
      reachable: true,
      checkedAt: now,
      lastSeenAt: now,
      ...stamps,
    });
  }
  const nicName = (host: HostSpec, kind: NicKind) => {
    const count = nicCounts.get(host.name) ?? 0;
    nicCounts.set(host.name, count + 1);
    if (host.platform === "esxi") return `vmnic${count + 2}`;
    if (host.platform === "windows") return `Ethernet ${count + 2}`;
    if (host.platform === "macos") return `en${count + 8}`;
    return kind.speedMbps <= 1000
      ? `eno${count + 1}`
      : `${kind.linuxBase}${count}${kind.speedMbps >= 25_000 ? `np${count}` : ""}`;
  };
  const names = new Set<string>();
  const links: LinkSpec[] = [];
  for (let index = 0; index < linkCount; index += 1) {
    const speedMbps = SPEED_PLAN[index % SPEED_PLAN.length]!;
    const kind = NIC_KINDS.find((entry) => entry.speedMbps === speedMbps)!;
    // Fast links join the big Linux machines; desktops and hypervisors have the slower ones.
    const candidates = HOSTS.filter((host) =>
      speedMbps >= 25_000 ? host.platform === "linux" && host.cores >= 12 : true,
    );
    const a = candidates[index % candidates.length]!;
    let b = candidates[(index * 5 + 3 + Math.floor(index / candidates.length)) % candidates.length]!;
    if (b === a) b = candidates[(index + 1) % candidates.length]!;
    const ends = [a, b].map((host, side) => {
      const nic = nicName(host, kind);
      const address = `10.${10 + (speedMbps >= 10_000 ? 1 : 0)}.${index}.${side + 1}/24`;
      const nicId = ids.nic++;
      db.insert("Nic", {
        id: nicId,
        hostId: hostIds.get(host.name)!,
        name: nic,
        model: kind.model,
        driver: kind.driver,
        speedMbps,
        mtu: speedMbps >= 10_000 ? 9000 : 1500,
        mac: `3c:fd:fe:${index.toString(16).padStart(2, "0")}:0${side}:1${side}`,
        addresses: JSON.stringify([address]),
        pcieLinkSpeed: `${kind.pcie[0]} GT/s PCIe`,
        pcieLinkWidth: kind.pcie[1],
        ...stamps,
      });
      return { host, nic, address, nicId };
    });
    let name = `${a.name} ⇄ ${b.name} ${kind.label}`;
    if (names.has(name)) name = `${name} #${index}`;
    names.add(name);
    const id = ids.link++;
    db.insert("Link", { id, name, aNicId: ends[0]!.nicId, bNicId: ends[1]!.nicId, speedMbps, ...stamps });
    // Most links give what they should; one in seven falls well short (a switch, a bad cable, a PCIe slot).
    const efficiency = index % 7 === 6 ? 0.4 + random() * 0.3 : 0.88 + random() * 0.09;
    const base = { name, speedMbps, a: ends[0]!, b: ends[1]!, efficiency };
    const tests = testsOf(index, speedMbps, seconds);
    const schedules = tests.map((test) => {
      const scheduleId = ids.schedule++;
      db.insert("Schedule", {
        id: scheduleId,
        name: test.name,
        linkId: id,
        options: JSON.stringify({ ...test.options, reverse: undefined, bidir: undefined }),
        direction: test.direction,
        clientSide: test.clientSide,
        everyMinutes: 60 * tests.length,
        timezone: "UTC",
        slipSeconds: 120,
        enabled: true,
        nextRunAt: now,
        ...stamps,
      });
      return {
        id: scheduleId,
        test,
        signature: signatureOf(test.options, test.clientSide),
        texts: textsOf(base, test, random),
        environment: environmentOf(base, test),
      };
    });
    links.push({ id, ...base, schedules });
  }
  const ruleId = ids.rule;
  db.insert("AlertRule", {
    id: ruleId,
    name: "Below 80% of the baseline",
    belowBaselinePercent: 80,
    m: 2,
    n: 3,
    ...stamps,
  });
  await db.flush();
  return { links, ruleId, hosts: HOSTS.length };
}

// ---------------------------------------------------------------- runs

const ERRORS = [
  {
    kind: "connection-refused",
    message:
      "iperf3: error - unable to connect to server - server may have stopped running or use a different port, firewall issue, etc.: Connection refused",
    hint: "Nothing listens on the server's port: the server did not start, or a firewall rejects the connection.",
  },
  {
    kind: "timeout",
    message: "The test did not finish within 45 s (10 s test + 35 s).",
    hint: "A host stopped answering during the test: check the link and both hosts' load.",
  },
  {
    kind: "ssh",
    message: "SSH to the server host failed: connect ETIMEDOUT 192.168.10.14:22",
    hint: "The host did not answer on its SSH port: is it up, and is the address right?",
  },
  {
    kind: "server-busy",
    message: "iperf3: error - the server is busy running a test. try again later",
    hint: "Another iperf3 client was testing against this server: a test run outside Wirespeed?",
  },
];

export type FillRange = {
  /** The first hour's start and the end (exclusive), in ms. */
  from: number;
  to: number;
  /** Runs created from this time on keep their samples (younger than the retention). */
  samplesFrom: number;
  seed: number;
  /** Time between two runs of a link: an hour unless told. */
  everyMs?: number;
};

export type FillResult = {
  runs: number;
  samples: number;
  skipped: number;
  firstRunId: number | null;
  lastRunId: number | null;
};

/**
 * Every link's scheduled runs, one an hour (or every `everyMs`), from `from` to `to`: mostly succeeded, a few failed,
 * interrupted or cancelled, a few starts skipped (the link was busy). One transaction per day.
 */
export async function fillRuns(db: FillDatabase, lab: Lab, range: FillRange): Promise<FillResult> {
  const random = randomFrom(range.seed);
  let nextRunId = await db.nextId("Run");
  const result: FillResult = { runs: 0, samples: 0, skipped: 0, firstRunId: null, lastRunId: null };
  const every = range.everyMs ?? HOUR_MS;
  const start = Math.floor(range.from / every) * every;
  const day = (dayStart: number) => {
    for (let hour = dayStart; hour < Math.min(dayStart + DAY_MS, range.to); hour += every) {
      const slot = Math.round(hour / every);
      for (const link of lab.links) {
        const schedule = link.schedules[slot % link.schedules.length]!;
        const due = hour + Math.floor(random() * Math.min(120_000, every / 4));
        const roll = random();
        if (roll < 0.005) {
          // A start skipped: the link was still busy with a test started by hand.
          db.insert("ScheduleRun", {
            scheduleId: schedule.id,
            dueAt: sqliteTime(due),
            at: sqliteTime(due + 40),
            outcome: "skipped",
            reason: `link busy: run ${result.lastRunId ?? 1} is running`,
            runId: null,
          });
          result.skipped += 1;
          continue;
        }
        const status =
          roll < 0.975 ? "succeeded" : roll < 0.995 ? "failed" : roll < 0.998 ? "interrupted" : "cancelled";
        const options = schedule.test.options as {
          protocol: string;
          parallel: number;
          bidir: boolean;
          reverse: boolean;
          bitrate?: number;
          latency?: boolean;
          duration: number;
        };
        const udp = options.protocol === "udp";
        const created = due + 30 + Math.floor(random() * 200);
        const started = created + 600 + Math.floor(random() * 900);
        const ended =
          status === "succeeded"
            ? started + options.duration * 1000 + 300 + Math.floor(random() * 700)
            : started + 200 + Math.floor(random() * 20_000);
        const ok = status === "succeeded";
        // Some days are worse than others: a dip now and then, and slow drift over the months.
        const dip = random() < 0.02 ? 0.5 + random() * 0.3 : 1;
        const drift = 1 + 0.02 * Math.sin(hour / (DAY_MS * 40) + link.id);
        const received = ok
          ? udp
            ? options.bitrate! * (0.985 + random() * 0.015)
            : link.speedMbps * 1e6 * link.efficiency * drift * dip * (0.97 + random() * 0.04)
          : null;
        const retransmits = ok && !udp ? Math.floor(random() ** 3 * 400) : null;
        const cpu: [number, number] = [5 + random() * 50, 10 + random() * 60];
        const packets = ok && udp ? Math.round((received! * options.duration) / 8 / 1448) : null;
        const lost = packets === null ? null : Math.floor(packets * random() * 0.001);
        const error = status === "failed" ? ERRORS[Math.floor(random() * ERRORS.length)]! : null;
        const summary = ok ? schedule.texts.summary(received!, retransmits ?? 0, cpu) : null;
        const time = new Date(started).toUTCString();
        const clientOutput = ok
          ? schedule.texts.clientHead.replace("__TIME__", time) + "\n" + summary!.client
          : status === "failed"
            ? error!.message + "\n"
            : schedule.texts.clientHead.replace("__TIME__", time).slice(0, 1200);
        const serverOutput = ok
          ? schedule.texts.serverHead + "\n" + summary!.server
          : schedule.texts.serverHead.slice(0, 400);
        const clientAddress = (schedule.test.clientSide === "a" ? link.a : link.b).address.split("/")[0];
        const serverAddress = (schedule.test.clientSide === "a" ? link.b : link.a).address.split("/")[0];
        const bidirRate = ok && options.bidir ? received! * (0.9 + random() * 0.08) : null;
        const latency =
          ok && options.latency
            ? [0.1 + random() * 0.2, 0.3 + random() * 0.3, 1 + random() * 6, 3 + random() * 10]
            : null;
        const runId = nextRunId++;
        // Property order is evaluation order: the random() calls come as they always did.
        db.insert("Run", {
          id: runId,
          linkId: link.id,
          status,
          clientSide: schedule.test.clientSide,
          options: JSON.stringify(schedule.test.options),
          port: 5201,
          serverCommand: `iperf3 -s -1 -B ${serverAddress} -p 5201 --idle-timeout 35 --forceflush`,
          clientCommand:
            `iperf3 -c ${serverAddress} -p 5201 -t ${options.duration} ${options.parallel > 1 ? `-P ${options.parallel} ` : ""}` +
            `${options.reverse ? "-R " : ""}${options.bidir ? "--bidir " : ""}${udp ? `-u -b ${options.bitrate} ` : ""}` +
            `-B ${clientAddress} -V -f k --forceflush`,
          serverIperfVersion: link.b.host.iperf3,
          clientIperfVersion: link.a.host.iperf3,
          createdAt: sqliteTime(created),
          startedAt: sqliteTime(started),
          endedAt: sqliteTime(ended),
          sentBytes: ok ? (received! * options.duration * 1.0004) / 8 : null,
          sentBitsPerSecond: ok ? received! * 1.0004 : null,
          receivedBytes: ok ? (received! * options.duration) / 8 : null,
          receivedBitsPerSecond: received,
          retransmits,
          jitterMs: ok && udp ? 0.003 + random() * 0.02 : null,
          lostPackets: lost,
          packets,
          lostPercent: packets ? (lost! / packets) * 100 : null,
          reverseSentBytes: bidirRate === null ? null : (bidirRate * options.duration * 1.0004) / 8,
          reverseSentBitsPerSecond: bidirRate === null ? null : bidirRate * 1.0004,
          reverseReceivedBytes: bidirRate === null ? null : (bidirRate * options.duration) / 8,
          reverseReceivedBitsPerSecond: bidirRate,
          reverseRetransmits: bidirRate === null ? null : Math.floor(random() ** 3 * 400),
          clientCpuPercent: ok ? cpu[0] : null,
          serverCpuPercent: ok ? cpu[1] : null,
          signature: schedule.signature,
          errorKind: error?.kind ?? (status === "interrupted" ? "interrupted" : null),
          errorMessage:
            error?.message ??
            (status === "interrupted"
              ? "Wirespeed stopped during the run."
              : status === "cancelled"
                ? "Cancelled by admin."
                : null),
          errorHint: error?.hint ?? null,
          serverOutput,
          clientOutput,
          environment: schedule.environment.join(sqliteTime(created + 300)),
          latencyIdleMedianMs: latency?.[0] ?? null,
          latencyIdleP95Ms: latency?.[1] ?? null,
          latencyLoadedMedianMs: latency?.[2] ?? null,
          latencyLoadedP95Ms: latency?.[3] ?? null,
          latencyGrade: latency ? (latency[2]! < 5 ? "A" : "B") : null,
          latencySent: latency ? 100 : null,
          latencyLost: latency ? 0 : null,
        });
        result.firstRunId ??= runId;
        result.lastRunId = runId;
        result.runs += 1;
        db.insert("ScheduleRun", {
          scheduleId: schedule.id,
          dueAt: sqliteTime(due),
          at: sqliteTime(created),
          outcome: "started",
          reason: null,
          runId,
        });
        db.insert("AuditEvent", {
          at: sqliteTime(created),
          actorName: "system",
          action: "run.start",
          target: "run",
          targetId: runId,
          detail: `${link.name}, client on ${schedule.test.clientSide}: ${JSON.stringify(schedule.test.options)}`,
        });
        if (created >= range.samplesFrom && status !== "failed") {
          const seconds = ok ? options.duration : Math.min(3, options.duration);
          const rate = received ?? link.speedMbps * 1e6 * link.efficiency;
          let seq = 0;
          for (const [direction, directionRate] of options.bidir
            ? ([
                ["forward", rate],
                ["reverse", bidirRate ?? rate],
              ] as const)
            : ([["forward", rate]] as const)) {
            for (let second = 0; second < seconds; second += 1) {
              const bps = directionRate * (0.97 + random() * 0.06);
              const streams =
                options.parallel > 1
                  ? JSON.stringify(
                      streamIds(options.parallel).map((id) => ({
                        id,
                        bytes: bps / 8 / options.parallel,
                        bitsPerSecond: bps / options.parallel,
                        ...(udp ? {} : { retransmits: 0, cwndBytes: 1_572_864 }),
                      })),
                    )
                  : null;
              db.insert("Sample", {
                runId,
                seq,
                start: second,
                end: second + 1,
                direction,
                bytes: bps / 8,
                bitsPerSecond: bps,
                retransmits: udp ? null : Math.floor(random() ** 4 * 30),
                cwndBytes: udp ? null : 1_572_864,
                jitterMs: udp ? 0.004 : null,
                lostPackets: udp ? 0 : null,
                packets: udp ? Math.round(bps / 8 / 1448) : null,
                omitted: false,
                streams,
              });
              result.samples += 1;
              seq += 1;
            }
          }
        }
      }
      // About one alert per link in two months, resolved by the next runs.
      for (const link of lab.links) {
        if (random() < every / (60 * DAY_MS)) {
          const baseline = link.speedMbps * 1e6 * link.efficiency;
          db.insert("Alert", {
            ruleId: lab.ruleId,
            linkId: link.id,
            status: "resolved",
            title: `${link.name}: below 80% of its baseline`,
            body: "2 of the last 3 runs were below 80% of the baseline.",
            runIds: JSON.stringify([result.lastRunId]),
            receivedBitsPerSecond: baseline * 0.6,
            baselineBitsPerSecond: baseline,
            openedAt: sqliteTime(hour),
            resolvedAt: sqliteTime(hour + 3 * HOUR_MS),
          });
        }
      }
    }
  };
  // One transaction a day.
  for (let dayStart = start; dayStart < range.to; dayStart += DAY_MS) {
    day(dayStart);
    await db.flush();
  }
  return result;
}

/**
 * What a lab looks like at the moment a page is read: a test running on the first link, one
 * queued behind a test on the second, an alert firing on the fourth. `settle` ends them, as
 * time would, before more runs are added.
 */
export async function addActivity(db: FillDatabase, lab: Lab, at: number): Promise<{ settle: () => Promise<void> }> {
  let nextRunId = await db.nextId("Run");
  const ids = lab.links.slice(0, 2).map((link, index) => {
    const schedule = link.schedules[0]!;
    const id = nextRunId++;
    db.insert("Run", {
      id,
      linkId: link.id,
      status: index === 0 ? "running" : "queued",
      clientSide: "a",
      options: JSON.stringify(schedule.test.options),
      signature: schedule.signature,
      createdAt: sqliteTime(at - 5_000),
      startedAt: index === 0 ? sqliteTime(at - 4_000) : null,
    });
    return id;
  });
  const alerted = lab.links[3 % lab.links.length]!;
  const alertId = await db.nextId("Alert");
  db.insert("Alert", {
    id: alertId,
    ruleId: lab.ruleId,
    linkId: alerted.id,
    status: "firing",
    title: `${alerted.name}: below 80% of its baseline`,
    body: "2 of the last 3 runs were below 80% of the baseline.",
    openedAt: sqliteTime(at - HOUR_MS),
  });
  await db.flush();
  return {
    settle: async () => {
      await db.run(
        `UPDATE "Run" SET "status" = 'cancelled', "endedAt" = ?, "errorMessage" = 'Cancelled by admin.' WHERE "id" IN (?, ?)`,
        [sqliteTime(at), ids[0], ids[1] ?? ids[0]],
      );
      await db.run(`UPDATE "Alert" SET "status" = 'resolved', "resolvedAt" = ? WHERE "id" = ?`, [
        sqliteTime(at + HOUR_MS),
        alertId,
      ]);
    },
  };
}

/** Retention: the samples of runs created before `before` are deleted (their run keeps its summary and outputs). */
export async function compactSamples(db: FillDatabase, before: number): Promise<number> {
  const lastId = await db.value<number>(`SELECT MAX("id") FROM "Run" WHERE "createdAt" < ?`, [sqliteTime(before)]);
  if (lastId === null) return 0;
  return db.run(`DELETE FROM "Sample" WHERE "runId" <= ?`, [lastId]);
}

/**
 * --without-new-indexes: the database as the indexes were before migration
 * 20270102000000_growth_indexes, to show what that migration is worth (the queries stay as they are).
 * SQLite's migration only.
 */
export async function withoutGrowthIndexes(db: FillDatabase): Promise<void> {
  if (db.kind !== "sqlite") throw new Error("--without-new-indexes: SQLite only (it undoes a SQLite migration)");
  for (const name of [
    "Run_linkId_status_createdAt_idx",
    "Run_status_createdAt_idx",
    "Run_signature_status_createdAt_idx",
    "Run_endedAt_startedAt_idx",
    "ScheduleRun_scheduleId_id_idx",
    "Run_signature_results_idx",
  ])
    await db.run(`DROP INDEX IF EXISTS "${name}"`);
  await db.run(`CREATE INDEX "Run_status_idx" ON "Run"("status")`);
  await db.run(
    `CREATE INDEX "Run_signature_results_idx" ON "Run"("linkId", "signature", "status", "createdAt", "id", "experimentId", ` +
      `"source", "receivedBitsPerSecond", "retransmits", "jitterMs", "lostPercent", "lostPackets", "packets")`,
  );
}
