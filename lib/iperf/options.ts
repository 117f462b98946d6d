import { z } from "zod";

// iperf3's own limits: MAX_STREAMS 128, MAX_MSS 9216, MAX_BLOCKSIZE 1 MiB, MAX_TIME 86400 s, MIN_INTERVAL 0.1 s
export const IPERF_LIMITS = {
  parallel: { min: 1, max: 128 },
  duration: { min: 1, max: 86_400 },
  bytes: { min: 1, max: 2 ** 50 },
  bitrate: { min: 0, max: 1e13 },
  omit: { min: 0, max: 600 },
  window: { min: 1024, max: 2 ** 31 - 1 },
  mss: { min: 88, max: 9216 },
  length: { min: 1, max: 1024 * 1024 },
  interval: { min: 0.1, max: 60 },
  tos: { min: 0, max: 255 },
  port: { min: 1, max: 65_535 },
  /** seconds a run against a busy iperf3 server Wirespeed does not manage keeps trying (lib/runs/external-server.ts) */
  busyRetrySeconds: { min: 0, max: 600 },
  /** a CPU core for -A: Linux's CPU_SETSIZE is 1024 */
  affinityCore: { min: 0, max: 1023 },
} as const;

const CONGESTION_PATTERN = /^[a-z0-9_]{1,16}$/;
// the device or zone after % (eth0, vmk1, enp3s0f0.100): never a shell or option character
const ZONE_PATTERN = /^[A-Za-z0-9_.-]{1,32}$/;
// the longest IPv6 text zod's pattern takes (39 characters), "%" and a 32-character device
const MAX_ADDRESS_LENGTH = 39 + 1 + 32;
// -A n or n,m. No leading zeros: iperf3 reads n with strtol base 0, so "010" would be core 8
const AFFINITY_PATTERN = /^(0|[1-9]\d{0,3})(?:,(0|[1-9]\d{0,3}))?$/;
// a host name or address for -c: letters, digits, dots, colons, dashes, % zone; never starting with "-"
const HOST_PATTERN = /^(?!-)[A-Za-z0-9.:_%-]{1,253}$/;

/**
 * An IPv4 or IPv6 literal, optionally with a %zone or %device: what -B takes. Never a leading "-"
 * (argv would read it as an option). The length is checked first: a long run of ":" made the
 * earlier hand-written pattern backtrack for seconds, blocking the server.
 */
export function isSafeAddress(text: string): boolean {
  if (text.length > MAX_ADDRESS_LENGTH) return false;
  const percent = text.indexOf("%");
  const address = percent === -1 ? text : text.slice(0, percent);
  if (percent !== -1 && !ZONE_PATTERN.test(text.slice(percent + 1))) return false;
  return z.regexes.ipv4.test(address) || z.regexes.ipv6.test(address);
}

export function isSafeHost(text: string): boolean {
  return HOST_PATTERN.test(text);
}

/** "n" or "n,m" with every core from 0 to 1023: what -A takes. */
export function isAffinity(text: string): boolean {
  const match = AFFINITY_PATTERN.exec(text);
  if (match === null) return false;
  return [match[1], match[2]].every((core) => core === undefined || Number(core) <= IPERF_LIMITS.affinityCore.max);
}

function integerField(field: string, min: number, max: number, unit = "") {
  const allowed = `${field} must be a whole number from ${min} to ${max}${unit}`;
  return z.number({ error: allowed }).int({ error: allowed }).min(min, { error: allowed }).max(max, { error: allowed });
}

function booleanField(field: string) {
  return z.boolean({ error: `${field} must be true or false` });
}

const L = IPERF_LIMITS;
const BIND_MESSAGE = "bind must be an IPv4 or IPv6 address (optionally with %device)";
const AFFINITY_MESSAGE =
  'affinity must be "n" or "n,m": the CPU core of the client (n) and of the server (m), ' +
  `whole numbers from ${L.affinityCore.min} to ${L.affinityCore.max} without leading zeros, e.g. "2" or "2,3"`;

/**
 * Everything a user can ask of one iperf3 test; the REST API uses the same field names. Strict: an
 * unknown key (a typo such as "paralel", or an "args" hoping to reach the command line) is a 400
 * naming it, not silently dropped.
 */
export const IperfOptionsSchema = z
  .strictObject({
    protocol: z.enum(["tcp", "udp"], { error: 'protocol must be "tcp" or "udp"' }).default("tcp"),
    /** seconds (-t); exclusive with bytes; 10 when neither is given */
    duration: integerField("duration", L.duration.min, L.duration.max, " seconds").optional(),
    /** bytes to send (-n) instead of a duration */
    bytes: integerField("bytes", L.bytes.min, L.bytes.max, " bytes").optional(),
    parallel: integerField("parallel", L.parallel.min, L.parallel.max, " streams").default(1),
    reverse: booleanField("reverse").default(false),
    bidir: booleanField("bidir").default(false),
    /** bits/s (-b); required for UDP (iperf3 would send 1 Mbit/s); 0 = unlimited */
    bitrate: integerField("bitrate", L.bitrate.min, L.bitrate.max, " bits/s (0 = unlimited)").optional(),
    /** seconds of warm-up left out of the result (-O) */
    omit: integerField("omit", L.omit.min, L.omit.max, " seconds").optional(),
    /** socket buffer in bytes (-w) */
    window: integerField("window", L.window.min, L.window.max, " bytes").optional(),
    /** TCP maximum segment size in bytes (-M) */
    mss: integerField("mss", L.mss.min, L.mss.max, " bytes").optional(),
    /** read/write buffer length in bytes (-l) */
    length: integerField("length", L.length.min, L.length.max, " bytes").optional(),
    zerocopy: booleanField("zerocopy").default(false),
    /** not an iperf3 flag: ping the server from the client host, 5 s idle first, then under load (lib/diagnosis) */
    latency: booleanField("latency").optional(),
    /**
     * not an iperf3 flag: against an iperf3 server Wirespeed does not manage, how long a run keeps
     * trying the server's ports while it answers "busy" (60 when left out; 0: each port once)
     */
    busyRetrySeconds: integerField(
      "busyRetrySeconds",
      L.busyRetrySeconds.min,
      L.busyRetrySeconds.max,
      " seconds",
    ).optional(),
    /** TCP congestion control algorithm (-C), e.g. cubic, bbr */
    congestion: z
      .string({ error: "congestion must be 1 to 16 characters of a-z, 0-9 and _ (e.g. cubic, bbr)" })
      .regex(CONGESTION_PATTERN, { error: "congestion must be 1 to 16 characters of a-z, 0-9 and _ (e.g. cubic, bbr)" })
      .optional(),
    /** seconds between interval reports (-i) */
    interval: z
      .number({ error: `interval must be a number of seconds from ${L.interval.min} to ${L.interval.max}` })
      .min(L.interval.min, {
        error: `interval must be a number of seconds from ${L.interval.min} to ${L.interval.max}`,
      })
      .max(L.interval.max, {
        error: `interval must be a number of seconds from ${L.interval.min} to ${L.interval.max}`,
      })
      .default(1),
    /** IP type of service byte (-S) */
    tos: integerField("tos", L.tos.min, L.tos.max).optional(),
    port: integerField("port", L.port.min, L.port.max).optional(),
    /** local address to bind (-B): an IPv4 or IPv6 literal, optionally with %device */
    bind: z.string({ error: BIND_MESSAGE }).refine(isSafeAddress, { error: BIND_MESSAGE }).optional(),
    /** pins iperf3 to a CPU core (-A n[,m]): n on the client, m on the server for this test */
    affinity: z.string({ error: AFFINITY_MESSAGE }).refine(isAffinity, { error: AFFINITY_MESSAGE }).optional(),
  })
  .superRefine((options, context) => {
    if (options.duration !== undefined && options.bytes !== undefined) {
      context.addIssue({ code: "custom", path: ["bytes"], message: "bytes and duration exclude each other: give one" });
    }
    if (options.reverse && options.bidir) {
      context.addIssue({ code: "custom", path: ["bidir"], message: "bidir and reverse exclude each other: give one" });
    }
    if (options.protocol === "udp" && options.bitrate === undefined) {
      context.addIssue({
        code: "custom",
        path: ["bitrate"],
        message: "bitrate is required for udp (bits/s; 0 = unlimited): without it iperf3 sends 1 Mbit/s",
      });
    }
    if (options.protocol === "udp") {
      for (const field of ["congestion", "mss"] as const) {
        if (options[field] !== undefined) {
          context.addIssue({ code: "custom", path: [field], message: `${field} applies to tcp only` });
        }
      }
    }
    const seconds = options.bytes === undefined ? (options.duration ?? 10) : undefined;
    if (options.omit !== undefined && seconds !== undefined && options.omit >= seconds) {
      context.addIssue({ code: "custom", path: ["omit"], message: "omit must be shorter than duration" });
    }
  })
  // duration defaults to 10 s only when no byte count is given
  .transform((options) =>
    options.bytes === undefined && options.duration === undefined ? { ...options, duration: 10 } : options,
  );

export type IperfOptions = z.output<typeof IperfOptionsSchema>;
export type IperfOptionsInput = z.input<typeof IperfOptionsSchema>;
