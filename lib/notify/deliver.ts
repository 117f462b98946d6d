import "server-only";
import { createHmac } from "node:crypto";
import dns, { type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import nodemailer from "nodemailer";
import { resolvePublicUrl } from "@/lib/config";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { type ChannelForDelivery, ChannelUnusableError, loadChannelForDelivery } from "@/lib/notify/channels";
import {
  type ChannelConfigOf,
  type ChannelType,
  type DeliveryResult,
  type NotificationMessage,
  SECRET_FIELDS,
  isLinkLocalAddress,
  splitAddresses,
} from "@/lib/notify/contract";

// Sending one message to one channel: a sender per type turns the channel's config (secrets
// opened) and the message into one request, and `deliverToChannel` tries it with retries,
// records the outcome as a `Notification` row and never throws for a delivery that failed.
//
// No error text kept here holds a secret or what the other end said: URLs are shown without
// their query string (and a Discord or Slack URL, itself a credential, by its origin only), an
// HTTP answer by its status code alone, a mail server's failure by its kind (auth, connection,
// timeout, protocol) in a fixed sentence. Whatever listens at a channel's address could
// otherwise be read through it (an SSH or HTTP banner). Every secret value is still cut out of
// an error before it is stored.
//
// Every address a delivery connects to is checked first: a link-local or cloud metadata
// address is refused even when a host name resolves to it, and the connection goes to the
// address that was checked.

/** Waits before the 2nd, 3rd and 4th attempt. */
export const DEFAULT_BACKOFF_MS = [1_000, 5_000, 25_000] as const;
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const DISCORD_MAX_CHARS = 2000;
const MAX_ERROR_CHARS = 500;
/** What is read of an HTTP answer before the connection is dropped: its body is never used. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
const USER_AGENT = "Wirespeed";

/** A failed attempt, with a message fit to store and show. */
export class DeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DeliveryError";
  }
}

/** What an HTTP sender sends. */
export type HttpRequest = { url: string; headers: Record<string, string>; body: string };

// ---------------------------------------------------------------- the senders

/** `{ event, alertId, link, rule, runIds, …, title, body, url }` as JSON, signed when the channel has a secret. */
export function webhookRequest(config: ChannelConfigOf["webhook"], message: NotificationMessage): HttpRequest {
  const body = JSON.stringify({
    event: message.event,
    alertId: message.alertId,
    link: message.link,
    rule: message.rule,
    runIds: message.runIds,
    receivedBitsPerSecond: message.receivedBitsPerSecond,
    baselineBitsPerSecond: message.baselineBitsPerSecond,
    lineRatePercent: message.lineRatePercent,
    at: message.at,
    title: message.title,
    body: message.body,
    url: message.url,
  });
  const headers: Record<string, string> = { "content-type": "application/json", "x-wirespeed-event": message.event };
  // Over the exact bytes sent, so that a receiver checks the raw body before parsing it.
  if (config.secret)
    headers["x-wirespeed-signature"] =
      `sha256=${createHmac("sha256", config.secret).update(body, "utf8").digest("hex")}`;
  return { url: config.url, headers, body };
}

// Header values are bytes: ntfy reads a non-ASCII value written as an RFC 2047 encoded word.
function headerText(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

const NTFY_TAGS: Record<NotificationMessage["event"], string> = {
  "alert.firing": "warning",
  "alert.resolved": "white_check_mark",
  test: "bell",
};

/** The body as plain text to the topic's URL; the title, click target and priority in ntfy's headers. */
export function ntfyRequest(config: ChannelConfigOf["ntfy"], message: NotificationMessage): HttpRequest {
  const headers: Record<string, string> = {
    "content-type": "text/plain; charset=utf-8",
    title: headerText(message.title),
    tags: NTFY_TAGS[message.event],
    priority: message.event === "alert.firing" ? "high" : "default",
  };
  if (message.url) headers.click = headerText(message.url);
  if (config.token) headers.authorization = `Bearer ${config.token}`;
  return { url: config.url, headers, body: message.body };
}

/** `{ content }`: title, body and link, the body cut to fit Discord's 2000 characters. */
export function discordRequest(config: ChannelConfigOf["discord"], message: NotificationMessage): HttpRequest {
  const head = `**${message.title}**\n`;
  const tail = message.url ? `\n${message.url}` : "";
  const room = DISCORD_MAX_CHARS - head.length - tail.length;
  const body = message.body.length <= room ? message.body : `${message.body.slice(0, Math.max(0, room - 1))}…`;
  // A link named "@everyone" must not ping a whole server.
  return {
    url: config.url,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      content: `${head}${body}${tail}`.slice(0, DISCORD_MAX_CHARS),
      allowed_mentions: { parse: [] },
    }),
  };
}

// Slack reads &, < and > as markup in text.
function slackEscape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** `{ text }` for an incoming webhook. */
export function slackRequest(config: ChannelConfigOf["slack"], message: NotificationMessage): HttpRequest {
  const lines = [`*${slackEscape(message.title)}*`, slackEscape(message.body)];
  if (message.url) lines.push(`<${slackEscape(message.url)}>`);
  return {
    url: config.url,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text: lines.join("\n") }),
  };
}

const GOTIFY_PRIORITY: Record<NotificationMessage["event"], number> = {
  "alert.firing": 8,
  "alert.resolved": 5,
  test: 5,
};

/** `<server>/message` with the application token in X-Gotify-Key. */
export function gotifyRequest(config: ChannelConfigOf["gotify"], message: NotificationMessage): HttpRequest {
  const url = new URL(config.url);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/message`;
  const payload: Record<string, unknown> = {
    title: message.title,
    message: message.url ? `${message.body}\n\n${message.url}` : message.body,
    priority: GOTIFY_PRIORITY[message.event],
  };
  if (message.url) payload.extras = { "client::notification": { click: { url: message.url } } };
  return {
    url: url.href,
    headers: { "content-type": "application/json", "x-gotify-key": config.token },
    body: JSON.stringify(payload),
  };
}

/** The URL as an error may show it: no query string (tokens hide there), and only the origin when the URL is the credential. */
export function describeUrl(url: string, isSecret = false): string {
  try {
    const parsed = new URL(url);
    return isSecret ? `${parsed.origin}/…` : `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(the channel's URL)";
  }
}

function errorCode(error: unknown): string | undefined {
  const own = (error as { code?: unknown } | null)?.code;
  if (typeof own === "string") return own;
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: "the connection was refused",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name could not be resolved now",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  UND_ERR_SOCKET: "the connection closed before an answer",
  DEPTH_ZERO_SELF_SIGNED_CERT: "its certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "its certificate is signed by an unknown authority",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "its certificate cannot be verified",
  CERT_HAS_EXPIRED: "its certificate has expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "its certificate is for another name",
};

/** A fixed sentence for a network error's code: the code names what happened, never what the other end sent. */
function networkReason(code: string | undefined): string {
  if (!code) return "the request failed";
  // node's HTTP parser: whatever answered was not an HTTP server (its bytes are not repeated).
  if (code.startsWith("HPE_")) return "the answer was not HTTP";
  return NETWORK_REASONS[code] ?? code;
}

const CERTIFICATE_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

/** Refused before any connection: the host is, or resolves to, a link-local or cloud metadata address. */
export const LINK_LOCAL_DELIVERY_REFUSAL =
  "refused: the host is or resolves to a link-local or cloud metadata address (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200), which channels may not reach";

/** A destination refused before any connection. */
class LinkLocalRefusal extends DeliveryError {}

/** The system's resolver: every address of a name, in the order it gives them. */
const systemLookup = (name: string): Promise<LookupAddress[]> =>
  dns.promises.lookup(name, { all: true, verbatim: true });

/**
 * The addresses of `host` (an IP address as it is, a name through the system's resolver),
 * every one checked: throws DeliveryError `${where} ${LINK_LOCAL_DELIVERY_REFUSAL}` when any is
 * link-local, so that a name with one good and one bad address is refused too. The lookup counts
 * against the attempt's time (`signal`): a resolver that never answers fails the attempt in time,
 * as a server that never answers does.
 */
export async function checkedAddresses(
  host: string,
  where: string,
  { signal, resolve = systemLookup }: { signal?: AbortSignal; resolve?: typeof systemLookup } = {},
): Promise<LookupAddress[]> {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const family = net.isIP(bare);
  let addresses: LookupAddress[];
  if (family !== 0) {
    addresses = [{ address: bare, family }];
  } else {
    try {
      addresses = await untilAborted(resolve(bare), signal);
    } catch (error) {
      if (signal?.aborted) throw new DeliveryError(`could not reach ${where}: the host name did not resolve in time`);
      throw new DeliveryError(`could not reach ${where}: ${networkReason(errorCode(error) ?? "ENOTFOUND")}`);
    }
  }
  if (addresses.length === 0) throw new DeliveryError(`could not reach ${where}: the host name does not resolve`);
  if (addresses.some((entry) => isLinkLocalAddress(entry.address)))
    throw new LinkLocalRefusal(`${where} ${LINK_LOCAL_DELIVERY_REFUSAL}`);
  return addresses;
}

/** `work`, or a rejection as soon as `signal` aborts (the work itself cannot be stopped: it is left to end). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A `lookup` for node's sockets that answers only the addresses already checked. */
function lookupFrom(addresses: LookupAddress[]): net.LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const fitting = wanted === 0 ? addresses : addresses.filter((entry) => entry.family === wanted);
    const answer = fitting.length > 0 ? fitting : addresses;
    if (options.all) (callback as (error: null, addresses: LookupAddress[]) => void)(null, answer);
    else callback(null, answer[0]!.address, answer[0]!.family);
  };
}

/** The status of the answer; at most MAX_RESPONSE_BYTES of its body are read, then the connection is dropped. */
function postOnce(request: HttpRequest, url: URL, addresses: LookupAddress[], signal: AbortSignal): Promise<number> {
  const body = Buffer.from(request.body, "utf8");
  const send = url.protocol === "https:" ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    const outgoing = send(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers: { "user-agent": USER_AGENT, ...request.headers, "content-length": String(body.length) },
        // Its own connection, to the address checked; a redirect is never followed (node does not), so no
        // token header travels on.
        agent: false,
        lookup: lookupFrom(addresses),
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        let read = 0;
        const done = () => resolve(status);
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          // What it says is not kept (it may quote the request): enough to see that it answered.
          if (read >= MAX_RESPONSE_BYTES) {
            response.destroy();
            done();
          }
        });
        response.on("end", done);
        response.on("close", done);
        response.on("error", (error) => (read >= MAX_RESPONSE_BYTES ? done() : reject(error)));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

async function sendHttp(request: HttpRequest, timeoutMs: number, isUrlSecret: boolean): Promise<void> {
  const where = describeUrl(request.url, isUrlSecret);
  const url = new URL(request.url);
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  try {
    const addresses = await checkedAddresses(url.hostname, where, { signal });
    status = await postOnce(request, url, addresses, signal);
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    if (signal.aborted || (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))) {
      throw new DeliveryError(`no answer from ${where} within ${timeoutMs / 1000} s`);
    }
    throw new DeliveryError(`could not reach ${where}: ${networkReason(errorCode(error))}`);
  }
  if (status >= 300 && status < 400) {
    throw new DeliveryError(`HTTP ${status} from ${where}: redirects are not followed, set the URL it points to`);
  }
  if (status < 200 || status >= 300) throw new DeliveryError(`HTTP ${status} from ${where}`);
}

export const EMAIL_FAILURE_KINDS = ["auth", "connection", "timeout", "protocol"] as const;
export type EmailFailureKind = (typeof EMAIL_FAILURE_KINDS)[number];

/** One fixed sentence per kind: the server's own words never reach an answer (they may be any service's banner). */
const EMAIL_FAILURE_SENTENCES: Record<EmailFailureKind, string> = {
  auth: "the server refused the login: check the user name and password",
  connection: "could not connect to the server, or the connection broke",
  timeout: "the server did not answer in time",
  protocol: "the server did not answer as an SMTP server accepting this mail would (its reply is in the server log)",
};

/** The kind of a nodemailer failure, from its code alone. */
export function emailFailureKind(error: unknown): EmailFailureKind {
  const code = errorCode(error) ?? "";
  if (code === "EAUTH" || code === "ENOAUTH") return "auth";
  if (code === "ETIMEDOUT") return "timeout";
  if (["ECONNECTION", "ESOCKET", "EDNS", "ETLS", "ECONNREFUSED", "ECONNRESET"].includes(code)) return "connection";
  return "protocol";
}

async function sendEmail(
  config: ChannelConfigOf["email"],
  message: NotificationMessage,
  timeoutMs: number,
): Promise<void> {
  const where = `${config.host}:${config.port}`;
  let address: LookupAddress | undefined;
  try {
    [address] = await checkedAddresses(config.host, `email via ${where}`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if (error instanceof LinkLocalRefusal) throw error;
    const reason = /in time$/.test((error as Error).message) ? "did not resolve in time" : "does not resolve";
    throw new DeliveryError(`email via ${where} failed (connection): the host name ${reason}`);
  }
  const transport = nodemailer.createTransport({
    // The address checked; the certificate is still checked against the name.
    host: address!.address,
    servername: net.isIP(config.host) === 0 ? config.host : undefined,
    port: config.port,
    secure: config.security === "tls",
    requireTLS: config.security === "starttls",
    ignoreTLS: config.security === "none",
    auth: config.username ? { user: config.username, pass: config.password ?? "" } : undefined,
    tls: { rejectUnauthorized: !config.insecureTls },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    await transport.sendMail({
      from: config.from,
      to: splitAddresses(config.to),
      subject: message.title,
      text: message.url ? `${message.body}\n\n${message.url}` : message.body,
    });
  } catch (error) {
    const kind = emailFailureKind(error);
    const original = (error as { originalCode?: unknown }).originalCode;
    const isCertificate = typeof original === "string" && CERTIFICATE_CODES.has(original);
    // The server's words go to the log only, without the channel's secrets (a reply may quote the login).
    const detail = safeErrorText(
      new DeliveryError(error instanceof Error ? error.message : String(error)),
      secretValues("email", config),
    );
    console.error(`[wirespeed] email via ${where} failed (${kind}): ${detail}`);
    const sentence = isCertificate
      ? `the server's certificate was not accepted${config.insecureTls ? "" : " (set insecureTls to accept a self-signed certificate)"}`
      : EMAIL_FAILURE_SENTENCES[kind];
    throw new DeliveryError(`email via ${where} failed (${kind}): ${sentence}`);
  } finally {
    transport.close();
  }
}

/** One attempt at sending `message` to `channel`; throws DeliveryError when it did not arrive. */
export async function sendToChannel(
  channel: ChannelForDelivery,
  message: NotificationMessage,
  timeoutMs = ATTEMPT_TIMEOUT_MS,
): Promise<void> {
  switch (channel.type) {
    case "webhook":
      return sendHttp(webhookRequest(channel.config, message), timeoutMs, false);
    case "ntfy":
      return sendHttp(ntfyRequest(channel.config, message), timeoutMs, false);
    case "discord":
      return sendHttp(discordRequest(channel.config, message), timeoutMs, true);
    case "slack":
      return sendHttp(slackRequest(channel.config, message), timeoutMs, true);
    case "gotify":
      return sendHttp(gotifyRequest(channel.config, message), timeoutMs, false);
    case "email":
      return sendEmail(channel.config, message, timeoutMs);
  }
}

// ---------------------------------------------------------------- delivery

/** The secret values of a channel's config, longest first (so that a secret inside another is cut as part of it). */
function secretValues(type: ChannelType, config: Record<string, unknown>): string[] {
  return SECRET_FIELDS[type]
    .map((name) => config[name])
    .filter((value): value is string => typeof value === "string" && value.length >= 3)
    .sort((a, b) => b.length - a.length);
}

/** The error as it may be stored: every secret cut out, one line, at most 500 characters. */
export function safeErrorText(error: unknown, secrets: readonly string[]): string {
  let text =
    error instanceof DeliveryError || error instanceof ChannelUnusableError
      ? error.message
      : "the notification could not be sent";
  for (const secret of secrets) text = text.split(secret).join("[secret]");
  text = text.replace(/\s+/g, " ").trim();
  return text.length > MAX_ERROR_CHARS ? `${text.slice(0, MAX_ERROR_CHARS - 1)}…` : text;
}

export type DeliverOptions = {
  /** The alert the Notification row belongs to; default: the message's. */
  alertId?: number | null;
  /** Waits between attempts; its length is the number of retries. Default 1 s, 5 s, 25 s. */
  backoffMs?: readonly number[];
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends `message` to one channel: one attempt and a retry after each wait of `backoffMs`, each
 * attempt within `timeoutMs`. Records one Notification row and returns the result; a delivery
 * that fails is a result with status "failed", never a throw.
 */
export async function deliverToChannel(
  channelId: number,
  message: NotificationMessage,
  options: DeliverOptions = {},
): Promise<DeliveryResult> {
  const backoff = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
  const alertId = options.alertId === undefined ? message.alertId : options.alertId;

  let channel: ChannelForDelivery | null = null;
  let attempts = 0;
  let error: string | null = null;
  try {
    channel = await loadChannelForDelivery(channelId);
  } catch (problem) {
    if (!(problem instanceof ChannelUnusableError)) throw problem;
    error = safeErrorText(problem, []);
  }
  if (channel) {
    const secrets = secretValues(channel.type, channel.config);
    for (;;) {
      attempts += 1;
      try {
        await sendToChannel(channel, message, timeoutMs);
        error = null;
        break;
      } catch (problem) {
        error = safeErrorText(problem, secrets);
      }
      if (attempts > backoff.length) break;
      await sleep(backoff[attempts - 1]!);
    }
  } else if (error === null) {
    error = "the channel no longer exists";
  }

  const channelName =
    channel?.name ??
    (await db.notificationChannel.findUnique({ where: { id: channelId }, select: { name: true } }))?.name ??
    `channel ${channelId}`;
  const status = error === null ? "sent" : "failed";
  // A channel deleted meanwhile is no row to point at; its name still says where it went.
  const exists = channel !== null || (await db.notificationChannel.count({ where: { id: channelId } })) > 0;
  await db.notification.create({
    data: { alertId, channelId: exists ? channelId : null, channelName, event: message.event, status, attempts, error },
  });
  return { channelId, channelName, status, attempts, error };
}

/** `message` to every channel at once (each with its retries); one result per channel. */
export async function notifyChannels(
  channelIds: readonly number[],
  message: NotificationMessage,
  options: DeliverOptions = {},
): Promise<DeliveryResult[]> {
  return Promise.all([...new Set(channelIds)].map((id) => deliverToChannel(id, message, options)));
}

/** The message of "Send test". */
export function testMessage(channelName: string, publicUrl = resolvePublicUrl()): NotificationMessage {
  return {
    event: "test",
    title: "Wirespeed test notification",
    body: `This is a test from Wirespeed: the channel "${channelName}" works.`,
    url: publicUrl,
    alertId: null,
    link: null,
    rule: null,
    runIds: [],
    receivedBitsPerSecond: null,
    baselineBitsPerSecond: null,
    lineRatePercent: null,
    at: new Date().toISOString(),
  };
}

/** "Send test": one attempt, so that the user has the answer at once; `not-found` when the channel does not exist. */
export async function sendTestNotification(
  channelId: number,
  options: Pick<DeliverOptions, "timeoutMs"> = {},
): Promise<DeliveryResult> {
  const channel = await db.notificationChannel.findUnique({ where: { id: channelId }, select: { name: true } });
  if (!channel) throw new AppError("not-found", `Notification channel ${channelId} does not exist.`);
  return deliverToChannel(channelId, testMessage(channel.name), { backoffMs: [], timeoutMs: options.timeoutMs });
}
