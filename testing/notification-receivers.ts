import http from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// Test support only: real receivers on 127.0.0.1 for the notification channels. An HTTP
// server records what the webhook, ntfy, Discord, Slack and Gotify senders send; an SMTP server
// (smtp-server, in the test process) receives the email. Used by the unit tests of lib/notify,
// the alert lab test and the browser test.

/** One request as the HTTP receiver got it. */
export type Received = {
  method: string;
  /** Path and query string, as sent. */
  path: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The exact bytes of the body, as UTF-8 text (what a signature is computed over). */
  body: string;
  /** The body parsed as JSON, or null when it is not JSON. */
  json: unknown;
};

export type HttpReceiver = {
  /** http://127.0.0.1:<port> (no trailing slash). */
  url: string;
  requests: Received[];
  /** Resolves once `count` requests have arrived (default wait 5 s, then rejects saying how many came). */
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
  /**
   * Answers the next `times` requests (default: every one from now on) with `status`, or never
   * answers them ("hang", for a sender's timeout). Afterwards it answers 200 again.
   */
  respondWith: (status: number | "hang", times?: number) => void;
  close: () => Promise<void>;
};

type Waiter = { count: number; resolve: () => void };

function waitForCount<T>(items: T[], waiters: Waiter[], count: number, timeoutMs: number, what: string): Promise<T[]> {
  if (items.length >= count) return Promise.resolve(items);
  return new Promise((resolve, reject) => {
    const waiter: Waiter = {
      count,
      resolve: () => {
        clearTimeout(timer);
        resolve(items);
      },
    };
    const timer = setTimeout(() => {
      waiters.splice(waiters.indexOf(waiter), 1);
      reject(new Error(`expected ${count} ${what}, got ${items.length} within ${timeoutMs} ms`));
    }, timeoutMs);
    waiters.push(waiter);
  });
}

function wake(length: number, waiters: Waiter[]): void {
  for (const waiter of [...waiters]) {
    if (length < waiter.count) continue;
    waiters.splice(waiters.indexOf(waiter), 1);
    waiter.resolve();
  }
}

function headersOf(raw: http.IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** An HTTP server on 127.0.0.1 (a free port) that records every request and answers 200 `{"ok":true}` unless told otherwise. */
export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: Received[] = [];
  const waiters: Waiter[] = [];
  let planned: { status: number | "hang"; left: number } | null = null;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: headersOf(request.headers),
        body,
        json: parseJson(body),
      });
      let status: number | "hang" = 200;
      if (planned) {
        status = planned.status;
        planned.left -= 1;
        if (planned.left <= 0) planned = null;
      }
      wake(requests.length, waiters);
      if (status === "hang") return;
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(status < 300 ? { ok: true } : { error: `answered ${status} on purpose` }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitFor: (count, timeoutMs = 5000) => waitForCount(requests, waiters, count, timeoutMs, "requests"),
    respondWith(status, times = Number.POSITIVE_INFINITY) {
      planned = { status, left: times };
    },
    close: () =>
      new Promise<void>((resolve) => {
        // A hung request would keep close() waiting forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One email as the SMTP receiver got it. */
export type ReceivedMail = {
  /** The envelope's MAIL FROM and RCPT TO. */
  from: string;
  to: string[];
  /** Header names in lower case, unfolded. */
  headers: Record<string, string>;
  subject: string;
  /** The body, decoded from quoted-printable or base64 when the message says so. */
  text: string;
  raw: string;
  /** The login the client gave, if any (any login is accepted). */
  auth: { username: string; password: string } | null;
  /** The connection was encrypted (implicit TLS or after STARTTLS) when the mail was sent. */
  isSecure: boolean;
};

export type SmtpReceiver = {
  port: number;
  messages: ReceivedMail[];
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedMail[]>;
  close: () => Promise<void>;
};

export type SmtpReceiverOptions = {
  /** Implicit TLS from the first byte (what security "tls" connects to). */
  secure?: boolean;
  /** Offer STARTTLS, and then accept a login only after it (what security "starttls" needs). */
  starttls?: boolean;
};

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const joined = text.replace(/=\r?\n/g, "");
  for (let index = 0; index < joined.length; index += 1) {
    const hex = joined.slice(index + 1, index + 3);
    if (joined[index] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      index += 2;
    } else {
      bytes.push(...Buffer.from(joined[index]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

// =?UTF-8?Q?...?= and =?UTF-8?B?...?= in a header (nodemailer encodes a subject that is not plain ASCII).
function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_match, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

/** A message split at its first empty line into headers and body: enough for the plain text mail Wirespeed sends. */
export function parseMail(raw: string): { headers: Record<string, string>; subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const rest = split === -1 ? "" : raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const encoding = (headers["content-transfer-encoding"] ?? "").toLowerCase();
  let text = rest;
  if (encoding === "quoted-printable") text = decodeQuotedPrintable(rest);
  else if (encoding === "base64") text = Buffer.from(rest.replace(/\s+/g, ""), "base64").toString("utf8");
  return {
    headers,
    subject: decodeEncodedWords(headers.subject ?? ""),
    text: text.replace(/\r\n/g, "\n").replace(/\n$/, ""),
  };
}

/** An SMTP server on 127.0.0.1 (a free port) that accepts any login (or none) and records every mail; TLS uses smtp-server's built-in certificate. */
export async function startSmtpReceiver(options: SmtpReceiverOptions = {}): Promise<SmtpReceiver> {
  const messages: ReceivedMail[] = [];
  const waiters: Waiter[] = [];
  const logins = new Map<string, { username: string; password: string }>();
  const isStarttls = options.starttls === true && options.secure !== true;

  const server = new SMTPServer({
    secure: options.secure === true,
    hideSTARTTLS: !isStarttls,
    // Without STARTTLS on offer a plain login must work; with it, a login proves the upgrade happened.
    allowInsecureAuth: !isStarttls,
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, session, callback) {
      const login = { username: auth.username ?? "", password: auth.password ?? "" };
      logins.set(session.id, login);
      callback(null, { user: login.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const parsed = parseMail(raw);
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((address) => address.address),
          ...parsed,
          raw,
          auth: logins.get(session.id) ?? null,
          isSecure: session.secure,
        });
        wake(messages.length, waiters);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    port,
    messages,
    waitFor: (count, timeoutMs = 5000) => waitForCount(messages, waiters, count, timeoutMs, "emails"),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
