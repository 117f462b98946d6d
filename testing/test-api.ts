import { openTestDatabase } from "@/testing/database";

// Test support only (imported by *.test.ts): the REST routes (inventory and runs) on a fresh migrated database,
// called as Next.js calls them, with a Request and a `{ params }` promise.

export const TEST_API_TOKEN = "wirespeed-test-token-5c1f0e2a9b7d4c3e";

type Handler = (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST" | "PATCH" | "DELETE", Handler>>;

export type CallOptions = {
  /** Bearer token to send; null sends no Authorization header. Default: TEST_API_TOKEN. */
  token?: string | null;
  /** Raw body text instead of JSON.stringify(body). */
  rawBody?: string;
  headers?: Record<string, string>;
};

export type TestApi = {
  /** Calls the handler for `method path` and returns its response. */
  call: (method: string, path: string, body?: unknown, options?: CallOptions) => Promise<Response>;
  /** Like `call`, also parsing the JSON body; `text` is the raw body. */
  json: (
    method: string,
    path: string,
    body?: unknown,
    options?: CallOptions,
  ) => Promise<{ status: number; body: any; text: string }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  db: typeof import("@/lib/db").db;
  close: () => Promise<void>;
};

export type TestApiOptions = {
  /**
   * Load the routes as a built server has them: the services instrumentation.ts starts (the run
   * engine, the experiment runner, the scheduler, the alert watcher: one app, lib/app.ts)
   * from one copy of lib/, the route handlers from another, so that what the services throw is
   * not an instance of the routes' own classes.
   */
  separateServices?: boolean;
};

/** The Request Next.js would hand a route for `method path`, with a bearer token and a JSON body as `options` say. */
function routeRequest(method: string, path: string, body: unknown, options: CallOptions): Request {
  const token = options.token === undefined ? TEST_API_TOKEN : options.token;
  const headers: Record<string, string> = {
    ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    ...options.headers,
  };
  const text = options.rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
  if (text !== undefined) headers["content-type"] ??= "application/json";
  return new Request(new URL(path, "http://localhost"), { method, headers, body: text });
}

/**
 * Calls one route handler as Next.js does, with a Request for `method path` (as `call` builds it)
 * and `params` as a promise; its status, parsed JSON body (null when empty) and headers. For a
 * test of one route module, or of one openTestApi does not load.
 */
export async function callRoute<Params>(
  handler: ((request: Request, context: { params: Promise<Params> }) => Promise<Response>) | undefined,
  method: string,
  path: string,
  { body, params, ...options }: CallOptions & { body?: unknown; params?: Params } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
): Promise<{ status: number; body: any; headers: Headers }> {
  if (!handler) throw new Error(`no handler for ${method} ${path}`);
  const response = await handler(routeRequest(method, path, body, options), {
    params: Promise.resolve(params ?? ({} as Params)),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** Loads every inventory route against its own database; WIRESPEED_API_TOKEN is set to TEST_API_TOKEN. */
export async function openTestApi({ separateServices = false }: TestApiOptions = {}): Promise<TestApi> {
  process.env.WIRESPEED_API_TOKEN = TEST_API_TOKEN;
  const database = await openTestDatabase();
  if (separateServices) {
    // The app (its engine, runner and scheduler) was built by openTestDatabase from this copy.
    const { vi } = await import("vitest");
    vi.resetModules();
  }
  const [hosts, host, nics, nic, links, link] = await Promise.all([
    import("@/app/api/hosts/route"),
    import("@/app/api/hosts/[id]/route"),
    import("@/app/api/nics/route"),
    import("@/app/api/nics/[id]/route"),
    import("@/app/api/links/route"),
    import("@/app/api/links/[id]/route"),
  ]);
  const [hostCheck, hostDiscover, linkRuns, run, runSamples, runCancel, runRerun, runEvents] = await Promise.all([
    import("@/app/api/hosts/[id]/check/route"),
    import("@/app/api/hosts/[id]/discover/route"),
    import("@/app/api/links/[id]/runs/route"),
    import("@/app/api/runs/[id]/route"),
    import("@/app/api/runs/[id]/samples/route"),
    import("@/app/api/runs/[id]/cancel/route"),
    import("@/app/api/runs/[id]/rerun/route"),
    import("@/app/api/runs/[id]/events/route"),
  ]);
  const [experiments, experiment, experimentCancel, experimentRerun, experimentEvents] = await Promise.all([
    import("@/app/api/experiments/route"),
    import("@/app/api/experiments/[id]/route"),
    import("@/app/api/experiments/[id]/cancel/route"),
    import("@/app/api/experiments/[id]/rerun/route"),
    import("@/app/api/experiments/[id]/events/route"),
  ]);
  const [
    schedules,
    schedule,
    alertRules,
    alertRule,
    alerts,
    alert,
    alertAck,
    linkBaseline,
    channels,
    channel,
    channelTest,
  ] = await Promise.all([
    import("@/app/api/schedules/route"),
    import("@/app/api/schedules/[id]/route"),
    import("@/app/api/alert-rules/route"),
    import("@/app/api/alert-rules/[id]/route"),
    import("@/app/api/alerts/route"),
    import("@/app/api/alerts/[id]/route"),
    import("@/app/api/alerts/[id]/ack/route"),
    import("@/app/api/links/[id]/baseline/route"),
    import("@/app/api/channels/route"),
    import("@/app/api/channels/[id]/route"),
    import("@/app/api/channels/[id]/test/route"),
  ]);
  const [runLatency, linkHints, linkImports, linkHistory, runList, linkListen, shares] = await Promise.all([
    import("@/app/api/runs/[id]/latency/route"),
    import("@/app/api/links/[id]/hints/route"),
    import("@/app/api/links/[id]/imports/route"),
    import("@/app/api/links/[id]/history/route"),
    import("@/app/api/runs/route"),
    import("@/app/api/links/[id]/listen/route"),
    import("@/app/api/shares/route"),
  ]);
  const routes: Array<{ pattern: RegExp; module: RouteModule }> = [
    { pattern: /^\/api\/hosts$/, module: hosts },
    { pattern: /^\/api\/hosts\/(?<id>[^/]+)$/, module: host },
    { pattern: /^\/api\/nics$/, module: nics },
    { pattern: /^\/api\/nics\/(?<id>[^/]+)$/, module: nic },
    { pattern: /^\/api\/links$/, module: links },
    { pattern: /^\/api\/links\/(?<id>[^/]+)$/, module: link },
    { pattern: /^\/api\/hosts\/(?<id>[^/]+)\/check$/, module: hostCheck },
    { pattern: /^\/api\/hosts\/(?<id>[^/]+)\/discover$/, module: hostDiscover },
    { pattern: /^\/api\/links\/(?<id>[^/]+)\/runs$/, module: linkRuns },
    { pattern: /^\/api\/runs\/(?<id>[^/]+)$/, module: run },
    { pattern: /^\/api\/runs\/(?<id>[^/]+)\/samples$/, module: runSamples },
    { pattern: /^\/api\/runs\/(?<id>[^/]+)\/cancel$/, module: runCancel },
    { pattern: /^\/api\/runs\/(?<id>[^/]+)\/rerun$/, module: runRerun },
    { pattern: /^\/api\/runs\/(?<id>[^/]+)\/events$/, module: runEvents },
    { pattern: /^\/api\/experiments$/, module: experiments },
    { pattern: /^\/api\/experiments\/(?<id>[^/]+)$/, module: experiment },
    { pattern: /^\/api\/experiments\/(?<id>[^/]+)\/cancel$/, module: experimentCancel },
    { pattern: /^\/api\/experiments\/(?<id>[^/]+)\/rerun$/, module: experimentRerun },
    { pattern: /^\/api\/experiments\/(?<id>[^/]+)\/events$/, module: experimentEvents },
    { pattern: /^\/api\/schedules$/, module: schedules },
    { pattern: /^\/api\/schedules\/(?<id>[^/]+)$/, module: schedule },
    { pattern: /^\/api\/alert-rules$/, module: alertRules },
    { pattern: /^\/api\/alert-rules\/(?<id>[^/]+)$/, module: alertRule },
    { pattern: /^\/api\/alerts$/, module: alerts },
    { pattern: /^\/api\/alerts\/(?<id>[^/]+)$/, module: alert },
    { pattern: /^\/api\/alerts\/(?<id>[^/]+)\/ack$/, module: alertAck },
    { pattern: /^\/api\/links\/(?<id>[^/]+)\/baseline$/, module: linkBaseline },
    { pattern: /^\/api\/channels$/, module: channels },
    { pattern: /^\/api\/channels\/(?<id>[^/]+)$/, module: channel },
    { pattern: /^\/api\/channels\/(?<id>[^/]+)\/test$/, module: channelTest },
    { pattern: /^\/api\/runs\/(?<id>[^/]+)\/latency$/, module: runLatency },
    { pattern: /^\/api\/links\/(?<id>[^/]+)\/hints$/, module: linkHints },
    { pattern: /^\/api\/links\/(?<id>[^/]+)\/imports$/, module: linkImports },
    { pattern: /^\/api\/links\/(?<id>[^/]+)\/history$/, module: linkHistory },
    { pattern: /^\/api\/runs$/, module: runList },
    { pattern: /^\/api\/links\/(?<id>[^/]+)\/listen$/, module: linkListen },
    { pattern: /^\/api\/shares$/, module: shares },
  ];

  async function call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
    const { pathname } = new URL(path, "http://localhost");
    const route = routes.find((entry) => entry.pattern.test(pathname));
    const handler = route?.module[method as keyof RouteModule];
    if (!route || !handler) throw new Error(`no handler for ${method} ${pathname}`);
    const params = { id: route.pattern.exec(pathname)?.groups?.id ?? "" };
    return handler(routeRequest(method, path, body, options), { params: Promise.resolve(params) });
  }

  return {
    call,
    async json(method, path, body, options) {
      const response = await call(method, path, body, options);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null, text };
    },
    db: database.db,
    close: database.close,
  };
}

/** Format-valid private keys (not real ones): validation looks at the armour and the alphabet only. */
export const SAMPLE_KEYS = {
  openssh:
    "-----BEGIN OPENSSH PRIVATE KEY-----\n" +
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n" +
    "QyNTUxOQAAACDxV2lyZXNwZWVkVGVzdEtleU1hdGVyaWFsT25seQ==\n" +
    "-----END OPENSSH PRIVATE KEY-----\n",
  rsa: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n-----END RSA PRIVATE KEY-----",
  rsaEncrypted:
    "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89A1B5C3F2A1D5E6F7\n\n" +
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n-----END RSA PRIVATE KEY-----\n",
  ec: "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkWb3vA1gRp5mC9yQ0k5nE4rYzWl3v2oJ8aQ9tXj0qcoAoGCCqGSM49\n-----END EC PRIVATE KEY-----\n",
  pkcs8:
    "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIO6m0Yf3o5oHq0P4c9yY8l7u2XbQw1mJ7rTq2vW3Zx8y\n-----END PRIVATE KEY-----\n",
  pkcs8Encrypted:
    "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIGbMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAhYx6x9Q8L3VwICCAAw\n-----END ENCRYPTED PRIVATE KEY-----\n",
} as const;

/** Where the hostile strings would leave a file if anything ever ran them in a shell. */
export const HOSTILE_MARKER = `/tmp/wirespeed-hostile-${process.pid}`;

/** Shell metacharacters, quotes, newlines, a 10 KB string and unicode: each must be refused or kept verbatim. */
export const HOSTILE_STRINGS: ReadonlyArray<readonly [label: string, value: string]> = [
  ["command substitution", `$(touch ${HOSTILE_MARKER})`],
  ["backticks", `\`touch ${HOSTILE_MARKER}\``],
  ["semicolon", `eth0; touch ${HOSTILE_MARKER}`],
  ["quotes", `it's "quoted"`],
  ["newlines", "first line\nsecond line\r\n"],
  ["10 KB", "x".repeat(10 * 1024)],
  ["unicode", "Ethernet-Verbindung 名前 🚀 Ünïcødé"],
  ["pipes and redirections", "a && b | c > /dev/null < /etc/passwd"],
  ["path traversal", "../../etc/passwd"],
  ["format and variables", "${IFS}%s%n\\x00"],
  ["NUL byte", "nul\u0000byte"],
];
