import { createHmac } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { openTestDatabase } from "@/testing/database";
import {
  type HttpReceiver,
  type SmtpReceiver,
  startHttpReceiver,
  startSmtpReceiver,
} from "@/testing/notification-receivers";
import { createChannel } from "@/lib/notify/channels";
import { sealText, generateSecretKey } from "@/lib/secrets/envelope";

// Every channel type against real receivers on loopback: an HTTP server that records each
// request's exact bytes, and an SMTP server in this process. Retries, timeouts and refusals are
// real too (a receiver that answers 500, one that never answers, a closed port).

const database = await openTestDatabase();
const { db } = database;
const {
  deliverToChannel,
  notifyChannels,
  sendTestNotification,
  safeErrorText,
  DeliveryError,
  DISCORD_MAX_CHARS,
  MAX_RESPONSE_BYTES,
  checkedAddresses,
} = await import("@/lib/notify/deliver");
type Message = import("@/lib/notify/contract").NotificationMessage;

let receiver: HttpReceiver;
const FAST = { backoffMs: [1, 1, 1] };

beforeAll(async () => {
  receiver = await startHttpReceiver();
});
afterEach(async () => {
  receiver.requests.length = 0;
  receiver.respondWith(200, 0);
  await database.reset();
});
afterAll(async () => {
  await receiver.close();
  await database.close();
});

function firing(overrides: Partial<Message> = {}): Message {
  return {
    event: "alert.firing",
    title: "nas-10g is below its baseline",
    body: "nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)",
    url: "http://wirespeed.lan:3000/runs/14",
    alertId: null,
    link: { id: 3, name: "nas-10g" },
    rule: { id: 2, name: "below baseline" },
    runIds: [12, 14],
    receivedBitsPerSecond: 4.1e9,
    baselineBitsPerSecond: 9.4e9,
    lineRatePercent: 41,
    at: "2025-01-02T03:04:05.000Z",
    ...overrides,
  };
}

async function channel(type: string, config: Record<string, unknown>, name = `${type} channel`): Promise<number> {
  return (await createChannel({ name, type, config })).id;
}

/** A TCP server on 127.0.0.1 that writes `greeting` to whoever connects (an SSH server's banner, say), or nothing. */
async function rawServer(greeting: string | null): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
    if (greeting !== null) socket.write(greeting);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("webhook", () => {
  it("posts the structured fields as JSON, signed with HMAC-SHA256 of the exact body", async () => {
    const id = await channel("webhook", { url: `${receiver.url}/hooks/wirespeed`, secret: "shared hmac secret" });
    const result = await deliverToChannel(id, firing());
    expect(result).toEqual({ channelId: id, channelName: "webhook channel", status: "sent", attempts: 1, error: null });

    const [request] = await receiver.waitFor(1);
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/hooks/wirespeed");
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["x-wirespeed-event"]).toBe("alert.firing");
    const expected = createHmac("sha256", "shared hmac secret").update(request!.body).digest("hex");
    expect(request!.headers["x-wirespeed-signature"]).toBe(`sha256=${expected}`);
    // Signed under another secret, the same body would not match.
    expect(request!.headers["x-wirespeed-signature"]).not.toBe(
      `sha256=${createHmac("sha256", "other").update(request!.body).digest("hex")}`,
    );
    expect(request!.json).toEqual({
      event: "alert.firing",
      alertId: null,
      link: { id: 3, name: "nas-10g" },
      rule: { id: 2, name: "below baseline" },
      runIds: [12, 14],
      receivedBitsPerSecond: 4.1e9,
      baselineBitsPerSecond: 9.4e9,
      lineRatePercent: 41,
      at: "2025-01-02T03:04:05.000Z",
      title: "nas-10g is below its baseline",
      body: "nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)",
      url: "http://wirespeed.lan:3000/runs/14",
    });
    expect(request!.body).not.toContain("shared hmac secret");
  });

  it("sends no signature without a secret", async () => {
    const id = await channel("webhook", { url: receiver.url });
    expect((await deliverToChannel(id, firing({ event: "alert.resolved" }))).status).toBe("sent");
    const [request] = await receiver.waitFor(1);
    expect(request!.headers["x-wirespeed-signature"]).toBeUndefined();
    expect(request!.json).toMatchObject({ event: "alert.resolved" });
  });
});

describe("ntfy", () => {
  it("posts the body as text to the topic, with title, click, tags, priority and the token", async () => {
    const id = await channel("ntfy", { url: `${receiver.url}/wirespeed-alerts`, token: "tk_ntfy-access-token" });
    expect((await deliverToChannel(id, firing())).status).toBe("sent");
    const [request] = await receiver.waitFor(1);
    expect(request!.path).toBe("/wirespeed-alerts");
    expect(request!.body).toBe("nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)");
    expect(request!.headers).toMatchObject({
      title: "nas-10g is below its baseline",
      click: "http://wirespeed.lan:3000/runs/14",
      tags: "warning",
      priority: "high",
      authorization: "Bearer tk_ntfy-access-token",
    });
  });

  it("sends a title that is not ASCII as an RFC 2047 word, no click without a URL, and no token when none is set", async () => {
    const id = await channel("ntfy", { url: `${receiver.url}/t` });
    expect(
      (await deliverToChannel(id, firing({ event: "alert.resolved", title: "Küche–NAS is back", url: null }))).status,
    ).toBe("sent");
    const [request] = await receiver.waitFor(1);
    const encoded = /^=\?UTF-8\?B\?([A-Za-z0-9+/=]+)\?=$/.exec(request!.headers.title!);
    expect(Buffer.from(encoded![1]!, "base64").toString("utf8")).toBe("Küche–NAS is back");
    expect(request!.headers.priority).toBe("default");
    expect(request!.headers.tags).toBe("white_check_mark");
    expect(request!.headers.click).toBeUndefined();
    expect(request!.headers.authorization).toBeUndefined();
  });
});

describe("discord and slack", () => {
  it("posts { content } to Discord with title, body and link, within 2000 characters and no mentions", async () => {
    const id = await channel("discord", { url: `${receiver.url}/api/webhooks/123/discord-webhook-token` });
    expect((await deliverToChannel(id, firing())).status).toBe("sent");
    expect((await deliverToChannel(id, firing({ body: "x".repeat(5000) }))).status).toBe("sent");
    const [short, long] = await receiver.waitFor(2);
    expect(short!.json).toEqual({
      content:
        "**nas-10g is below its baseline**\nnas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)\nhttp://wirespeed.lan:3000/runs/14",
      allowed_mentions: { parse: [] },
    });
    const content = (long!.json as { content: string }).content;
    expect(content.length).toBeLessThanOrEqual(DISCORD_MAX_CHARS);
    expect(content.startsWith("**nas-10g is below its baseline**\nxxx")).toBe(true);
    expect(content.endsWith("…\nhttp://wirespeed.lan:3000/runs/14")).toBe(true);
  });

  it("posts { text } to Slack, with &, < and > escaped", async () => {
    const id = await channel("slack", { url: `${receiver.url}/services/T0/B0/slack-secret` });
    expect((await deliverToChannel(id, firing({ body: "a < b & c" }))).status).toBe("sent");
    const [request] = await receiver.waitFor(1);
    expect(request!.json).toEqual({
      text: "*nas-10g is below its baseline*\na &lt; b &amp; c\n<http://wirespeed.lan:3000/runs/14>",
    });
  });
});

describe("gotify", () => {
  it("posts to <server>/message with X-Gotify-Key, the priority and the click URL", async () => {
    const id = await channel("gotify", { url: `${receiver.url}/gotify/`, token: "AgotifyAppToken" });
    expect((await deliverToChannel(id, firing())).status).toBe("sent");
    const [request] = await receiver.waitFor(1);
    expect(request!.path).toBe("/gotify/message");
    expect(request!.headers["x-gotify-key"]).toBe("AgotifyAppToken");
    expect(request!.json).toEqual({
      title: "nas-10g is below its baseline",
      message: "nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)\n\nhttp://wirespeed.lan:3000/runs/14",
      priority: 8,
      extras: { "client::notification": { click: { url: "http://wirespeed.lan:3000/runs/14" } } },
    });
  });
});

describe("email", () => {
  let smtp: SmtpReceiver | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });

  it("sends over plain SMTP (security none) with a login, to every address", async () => {
    smtp = await startSmtpReceiver();
    const id = await channel("email", {
      host: "127.0.0.1",
      port: smtp.port,
      security: "none",
      username: "wirespeed",
      password: "smtp pass word",
      from: "wirespeed@nas.lan",
      to: "admin@nas.lan, ops@lab.lan",
    });
    expect(await deliverToChannel(id, firing())).toMatchObject({ status: "sent", attempts: 1 });
    const [mail] = await smtp.waitFor(1);
    expect(mail!.from).toBe("wirespeed@nas.lan");
    expect(mail!.to).toEqual(["admin@nas.lan", "ops@lab.lan"]);
    expect(mail!.subject).toBe("nas-10g is below its baseline");
    expect(mail!.text).toBe(
      "nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)\n\nhttp://wirespeed.lan:3000/runs/14",
    );
    expect(mail!.auth).toEqual({ username: "wirespeed", password: "smtp pass word" });
    expect(mail!.isSecure).toBe(false);
  });

  it("upgrades with STARTTLS, accepting the self-signed certificate only when insecureTls is set", async () => {
    smtp = await startSmtpReceiver({ starttls: true });
    const config = {
      host: "127.0.0.1",
      port: smtp.port,
      security: "starttls",
      username: "u",
      password: "starttls-password",
      from: "ws@nas.lan",
      to: "admin@nas.lan",
    };
    const trusting = await channel("email", { ...config, insecureTls: true }, "trusting");
    expect(await deliverToChannel(trusting, firing())).toMatchObject({ status: "sent", attempts: 1 });
    const [mail] = await smtp.waitFor(1);
    expect(mail!.isSecure).toBe(true);
    expect(mail!.auth).toEqual({ username: "u", password: "starttls-password" });

    const strict = await channel("email", config, "strict");
    const refused = await deliverToChannel(strict, firing(), FAST);
    expect(refused).toMatchObject({ status: "failed", attempts: 4 });
    expect(refused.error).toBe(
      `email via 127.0.0.1:${smtp.port} failed (connection): the server's certificate was not accepted (set insecureTls to accept a self-signed certificate)`,
    );
    expect(smtp.messages).toHaveLength(1);
  });

  it("sends over implicit TLS (security tls)", async () => {
    smtp = await startSmtpReceiver({ secure: true });
    const id = await channel("email", {
      host: "127.0.0.1",
      port: smtp.port,
      security: "tls",
      from: "ws@nas.lan",
      to: "admin@nas.lan",
      insecureTls: true,
    });
    expect((await deliverToChannel(id, firing({ url: null }))).status).toBe("sent");
    const [mail] = await smtp.waitFor(1);
    expect(mail!.isSecure).toBe(true);
    expect(mail!.auth).toBeNull();
    expect(mail!.text).toBe("nas-10g: 4.1 Gbit/s, 44% of its 9.4 Gbit/s baseline (2 of 3 runs)");
  });

  it("fails on a closed port, naming the server and not the password", async () => {
    const port = await closedPort();
    const id = await channel("email", {
      host: "127.0.0.1",
      port,
      security: "none",
      username: "u",
      password: "never-shown-pw",
      from: "ws@nas.lan",
      to: "a@nas.lan",
    });
    const result = await deliverToChannel(id, firing(), { backoffMs: [] });
    expect(result).toMatchObject({
      status: "failed",
      attempts: 1,
      error: `email via 127.0.0.1:${port} failed (connection): could not connect to the server, or the connection broke`,
    });
  });

  describe("reports a failure by its kind, never in the server's words", () => {
    const config = { security: "none", username: "u", password: "kind-test-pw", from: "ws@nas.lan", to: "a@nas.lan" };
    let logged: string[] = [];
    let raw: { port: number; close: () => Promise<void> } | undefined;
    let strictSmtp: SMTPServer | undefined;
    const spies: Array<{ mockRestore: () => void }> = [];
    beforeAll(() => {
      const spy = vi.spyOn(console, "error").mockImplementation((...parts: unknown[]) => {
        logged.push(parts.map(String).join(" "));
      });
      spies.push(spy);
    });
    afterEach(async () => {
      logged = [];
      await raw?.close();
      raw = undefined;
      await new Promise<void>((resolve) => (strictSmtp ? strictSmtp.close(() => resolve()) : resolve()));
      strictSmtp = undefined;
    });
    afterAll(() => spies.forEach((spy) => spy.mockRestore()));

    it("protocol: an SSH server's banner is not echoed (the log has it, without the password)", async () => {
      raw = await rawServer("SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5 banner-marker\r\n");
      const id = await channel("email", { ...config, host: "127.0.0.1", port: raw.port });
      const result = await deliverToChannel(id, firing(), { backoffMs: [] });
      expect(result).toMatchObject({
        status: "failed",
        error: `email via 127.0.0.1:${raw.port} failed (protocol): the server did not answer as an SMTP server accepting this mail would (its reply is in the server log)`,
      });
      const stored = JSON.stringify(await db.notification.findMany());
      expect(stored).not.toMatch(/SSH-2\.0|OpenSSH|banner-marker/);
      expect(logged.join("\n")).toContain("banner-marker");
      expect(logged.join("\n")).not.toContain("kind-test-pw");
    });

    it("auth: a refused login says so without the server's reply", async () => {
      strictSmtp = new SMTPServer({
        authOptional: false,
        allowInsecureAuth: true,
        hideSTARTTLS: true,
        disableReverseLookup: true,
        logger: false,
        onAuth: (_auth, _session, callback) => callback(new Error("no such mailbox reply-marker kind-test-pw")),
      });
      await new Promise<void>((resolve) => strictSmtp!.listen(0, "127.0.0.1", () => resolve()));
      const port = (strictSmtp.server.address() as net.AddressInfo).port;
      const id = await channel("email", { ...config, host: "127.0.0.1", port });
      const result = await deliverToChannel(id, firing(), { backoffMs: [] });
      expect(result.error).toBe(
        `email via 127.0.0.1:${port} failed (auth): the server refused the login: check the user name and password`,
      );
      // The server quoted the password: the log cuts it out.
      expect(logged.join("\n")).toContain("reply-marker [secret]");
      expect(logged.join("\n")).not.toContain("kind-test-pw");
    });

    it("timeout: a server that never greets", async () => {
      raw = await rawServer(null);
      const id = await channel("email", { ...config, host: "127.0.0.1", port: raw.port });
      const result = await deliverToChannel(id, firing(), { backoffMs: [], timeoutMs: 200 });
      expect(result.error).toBe(`email via 127.0.0.1:${raw.port} failed (timeout): the server did not answer in time`);
    });

    it("an HTTP channel pointed at the same banner reports no byte of it", async () => {
      raw = await rawServer("SSH-2.0-OpenSSH_9.6p1 banner-marker\r\n");
      const id = await channel("webhook", { url: `http://127.0.0.1:${raw.port}/hook` });
      const result = await deliverToChannel(id, firing(), { backoffMs: [], timeoutMs: 2000 });
      expect(result.status).toBe("failed");
      expect(result.error).toMatch(new RegExp(`^could not reach http://127\\.0\\.0\\.1:${raw.port}/hook: `));
      expect(result.error).not.toMatch(/SSH|banner-marker/);
    });
  });
});

describe("retries and the record of each delivery", () => {
  it("is sent on the 3rd attempt after two 500s, and records one row", async () => {
    const id = await channel("webhook", { url: `${receiver.url}/flaky` });
    receiver.respondWith(500, 2);
    const result = await deliverToChannel(id, firing(), FAST);
    expect(result).toEqual({ channelId: id, channelName: "webhook channel", status: "sent", attempts: 3, error: null });
    expect(receiver.requests).toHaveLength(3);
    // Every attempt sends the same bytes (a receiver may de-duplicate on them).
    expect(new Set(receiver.requests.map((request) => request.body)).size).toBe(1);
    expect(
      await db.notification.findMany({
        select: { channelId: true, channelName: true, event: true, status: true, attempts: true, error: true },
      }),
    ).toEqual([
      {
        channelId: id,
        channelName: "webhook channel",
        event: "alert.firing",
        status: "sent",
        attempts: 3,
        error: null,
      },
    ]);
  });

  it("fails after 1 attempt and 3 retries when every answer is a 500, and records the error without the query string", async () => {
    const id = await channel("webhook", { url: `${receiver.url}/always-down?token=query-token-123` });
    receiver.respondWith(500);
    const result = await deliverToChannel(id, firing(), FAST);
    const path = `${receiver.url}/always-down`;
    expect(result).toEqual({
      channelId: id,
      channelName: "webhook channel",
      status: "failed",
      attempts: 4,
      error: `HTTP 500 from ${path}`,
    });
    expect(receiver.requests).toHaveLength(4);
    const [row] = await db.notification.findMany();
    expect(row).toMatchObject({ status: "failed", attempts: 4, error: `HTTP 500 from ${path}` });
    expect(row!.error).not.toContain("query-token-123");
  });

  it("waits the given backoff between attempts and gives up after its length", async () => {
    const id = await channel("webhook", { url: receiver.url });
    receiver.respondWith(503);
    expect(await deliverToChannel(id, firing(), { backoffMs: [1] })).toMatchObject({
      status: "failed",
      attempts: 2,
      error: `HTTP 503 from ${receiver.url}/`,
    });
    expect(receiver.requests).toHaveLength(2);
  });

  it("counts an attempt that gets no answer within the timeout as failed", async () => {
    const id = await channel("ntfy", { url: `${receiver.url}/slow-topic` });
    receiver.respondWith("hang");
    const result = await deliverToChannel(id, firing(), { backoffMs: [], timeoutMs: 200 });
    expect(result).toMatchObject({
      status: "failed",
      attempts: 1,
      error: `no answer from ${receiver.url}/slow-topic within 0.2 s`,
    });
  });

  it("does not follow a redirect, which would carry the token elsewhere", async () => {
    const id = await channel("gotify", { url: receiver.url, token: "redirected-token" });
    receiver.respondWith(302, 1);
    const result = await deliverToChannel(id, firing(), { backoffMs: [] });
    expect(result).toMatchObject({ status: "failed", attempts: 1 });
    expect(result.error).toBe(
      `HTTP 302 from ${receiver.url}/message: redirects are not followed, set the URL it points to`,
    );
    expect(receiver.requests).toHaveLength(1);
  });

  it("names a refused connection", async () => {
    const port = await closedPort();
    const id = await channel("webhook", { url: `http://127.0.0.1:${port}/hook` });
    expect(await deliverToChannel(id, firing(), { backoffMs: [] })).toMatchObject({
      status: "failed",
      error: `could not reach http://127.0.0.1:${port}/hook: the connection was refused`,
    });
  });

  it("records a channel that no longer exists, and one whose secrets no key opens, without an attempt", async () => {
    expect(await deliverToChannel(4242, firing())).toEqual({
      channelId: 4242,
      channelName: "channel 4242",
      status: "failed",
      attempts: 0,
      error: "the channel no longer exists",
    });
    const lost = await db.notificationChannel.create({
      data: {
        name: "lost",
        type: "gotify",
        config: { url: receiver.url },
        secret: sealText(JSON.stringify({ token: "sealed-elsewhere" }), generateSecretKey()),
      },
    });
    const result = await deliverToChannel(lost.id, firing());
    expect(result).toMatchObject({ channelName: "lost", status: "failed", attempts: 0 });
    expect(result.error).toBe(
      "the channel's stored secrets cannot be opened (they were sealed with another key than this server's): set them again",
    );
    expect(receiver.requests).toHaveLength(0);
    expect(
      await db.notification.findMany({ orderBy: { id: "asc" }, select: { channelId: true, channelName: true } }),
    ).toEqual([
      { channelId: null, channelName: "channel 4242" },
      { channelId: lost.id, channelName: "lost" },
    ]);
  });
});

describe("secrets never reach an error", () => {
  it("keeps tokens, the HMAC secret and webhook URLs out of every stored error", async () => {
    const secrets = [
      "discord-path-token-xyz",
      "slack-path-token-xyz",
      "gotify-key-xyz",
      "ntfy-token-xyz",
      "hmac-secret-xyz",
    ];
    const ids = [
      await channel("discord", { url: `${receiver.url}/api/webhooks/1/discord-path-token-xyz` }),
      await channel("slack", { url: `${receiver.url}/services/slack-path-token-xyz` }),
      await channel("gotify", { url: `${receiver.url}/?token=gotify-key-xyz`, token: "gotify-key-xyz" }),
      await channel("ntfy", { url: `${receiver.url}/topic`, token: "ntfy-token-xyz" }),
      await channel("webhook", { url: `${receiver.url}/hook`, secret: "hmac-secret-xyz" }),
    ];
    receiver.respondWith(401);
    const results = await notifyChannels(ids, firing(), FAST);
    expect(results.map((result) => result.status)).toEqual(["failed", "failed", "failed", "failed", "failed"]);
    expect(results[0]!.error).toBe(`HTTP 401 from ${receiver.url}/…`);
    expect(results[1]!.error).toBe(`HTTP 401 from ${receiver.url}/…`);
    expect(results[2]!.error).toBe(`HTTP 401 from ${receiver.url}/message`);
    const stored = JSON.stringify(await db.notification.findMany()) + JSON.stringify(results);
    for (const secret of secrets) expect(stored).not.toContain(secret);
  });

  it("cuts a secret out of what a server answered (an SMTP reply may quote the login), and keeps nothing of an unexpected error", () => {
    const echoed = new DeliveryError(
      "email via mail.lan:587 failed (EAUTH): Invalid login: 535 no user for pw hunter2-long and hunter2-long-x",
    );
    expect(safeErrorText(echoed, ["hunter2-long-x", "hunter2-long"])).toBe(
      "email via mail.lan:587 failed (EAUTH): Invalid login: 535 no user for pw [secret] and [secret]",
    );
    expect(safeErrorText(new TypeError("Invalid header value: Bearer hunter2-long"), ["hunter2-long"])).toBe(
      "the notification could not be sent",
    );
    expect(safeErrorText(new DeliveryError(`line\n${"y".repeat(600)}`), [])).toHaveLength(500);
  });
});

describe("link-local and metadata addresses", () => {
  const refused =
    "refused: the host is or resolves to a link-local or cloud metadata address (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200), which channels may not reach";

  it("refuses a host that is one, or that the system's resolver turns into one, checking every address", async () => {
    for (const host of [
      "169.254.169.254",
      "[fe80::1]",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:169.254.1.1",
      "100.100.100.200",
    ]) {
      await expect(checkedAddresses(host, "there"), host).rejects.toThrow(`there ${refused}`);
    }
    // A host name to node (net.isIP says no), which getaddrinfo resolves to 169.254.169.254.
    expect(net.isIP("0xa9fea9fe")).toBe(0);
    await expect(checkedAddresses("0xa9fea9fe", "there")).rejects.toThrow(`there ${refused}`);
    // Loopback and private addresses pass, by name or as written.
    expect((await checkedAddresses("localhost", "there")).map((entry) => entry.address)).toContain("127.0.0.1");
    expect(await checkedAddresses("[::1]", "there")).toEqual([{ address: "::1", family: 6 }]);
    expect(await checkedAddresses("10.0.0.5", "there")).toEqual([{ address: "10.0.0.5", family: 4 }]);
  });

  it("gives up on a resolver that never answers within the attempt's time, and still checks what one answers", async () => {
    const never = () => new Promise<never>(() => {});
    await expect(
      checkedAddresses("stuck.lab.example", "there", { signal: AbortSignal.timeout(50), resolve: never }),
    ).rejects.toThrow("could not reach there: the host name did not resolve in time");
    for (const address of ["169.254.169.254", "100.100.100.200"]) {
      const metadata = async () => [{ address, family: 4 }];
      await expect(
        checkedAddresses("sneaky.lab.example", "there", { signal: AbortSignal.timeout(5_000), resolve: metadata }),
        address,
      ).rejects.toThrow(`there ${refused}`);
    }
  });

  it("sends nothing to a channel stored with one before the check (its settings no longer pass)", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fe80::1]:8080/hook"]) {
      const { id } = await db.notificationChannel.create({ data: { name: url, type: "webhook", config: { url } } });
      expect(await deliverToChannel(id, firing(), { backoffMs: [] }), url).toMatchObject({
        status: "failed",
        attempts: 0,
        error: "the channel's stored settings are not valid any more: edit the channel",
      });
    }
  });

  it("still sends to a loopback address reached through a host name", async () => {
    const id = await channel("webhook", { url: `${receiver.url.replace("127.0.0.1", "localhost")}/by-name` });
    expect((await deliverToChannel(id, firing(), { backoffMs: [] })).status).toBe("sent");
    expect((await receiver.waitFor(1))[0]!.path).toBe("/by-name");
  });
});

describe("an answer's body", () => {
  it(`is read up to 64 KiB (MAX_RESPONSE_BYTES), then the connection is dropped: the server sees it closed before it wrote everything`, async () => {
    const TOTAL = 64 * 1024 * 1024;
    let outcome: { written: number; isFinished: boolean } | null = null;
    let closed: () => void = () => undefined;
    const isClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = http.createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "text/plain" });
        const chunk = Buffer.alloc(64 * 1024, "x");
        let written = 0;
        response.on("close", () => {
          outcome = { written, isFinished: response.writableFinished };
          closed();
        });
        const pump = () => {
          while (written < TOTAL && !response.destroyed) {
            written += chunk.length;
            if (!response.write(chunk)) {
              response.once("drain", pump);
              return;
            }
          }
          if (written >= TOTAL) response.end();
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    try {
      const { port } = server.address() as net.AddressInfo;
      const id = await channel("webhook", { url: `http://127.0.0.1:${port}/big` });
      expect(await deliverToChannel(id, firing(), { backoffMs: [] })).toMatchObject({ status: "sent", attempts: 1 });
      await isClosed;
      expect(MAX_RESPONSE_BYTES).toBe(64 * 1024);
      expect(outcome!.isFinished).toBe(false);
      expect(outcome!.written).toBeLessThan(TOTAL);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("notifyChannels and sendTestNotification", () => {
  it("delivers to every channel at once and ties each row to the alert", async () => {
    const host = await db.host.create({ data: { name: "h", address: "198.18.0.1" } });
    const nics = await Promise.all(["eth0", "eth1"].map((name) => db.nic.create({ data: { hostId: host.id, name } })));
    const link = await db.link.create({
      data: { name: "nas-10g", aNicId: nics[0]!.id, bNicId: nics[1]!.id, speedMbps: 10_000 },
    });
    const rule = await db.alertRule.create({
      data: { name: "below baseline", linkId: link.id, belowBaselinePercent: 80 },
    });
    const alert = await db.alert.create({ data: { ruleId: rule.id, linkId: link.id, title: "t", body: "b" } });
    const port = await closedPort();
    const good = await channel("slack", { url: `${receiver.url}/slack` }, "good");
    const bad = await channel("webhook", { url: `http://127.0.0.1:${port}/` }, "bad");

    const results = await notifyChannels([good, bad, good], firing({ alertId: alert.id }), FAST);

    expect(results.map((result) => [result.channelName, result.status, result.attempts])).toEqual([
      ["good", "sent", 1],
      ["bad", "failed", 4],
    ]);
    const rows = await db.notification.findMany({ where: { alertId: alert.id }, orderBy: { channelName: "asc" } });
    expect(rows.map((row) => [row.channelName, row.status])).toEqual([
      ["bad", "failed"],
      ["good", "sent"],
    ]);
  });

  it("sends a test message once, with the public URL, and answers a failure at once", async () => {
    process.env.WIRESPEED_PUBLIC_URL = "http://wirespeed.lan:3000/";
    try {
      const id = await channel("webhook", { url: receiver.url }, "home hook");
      expect(await sendTestNotification(id)).toEqual({
        channelId: id,
        channelName: "home hook",
        status: "sent",
        attempts: 1,
        error: null,
      });
      const [request] = await receiver.waitFor(1);
      expect(request!.json).toMatchObject({
        event: "test",
        title: "Wirespeed test notification",
        url: "http://wirespeed.lan:3000",
        alertId: null,
        link: null,
        runIds: [],
      });
      expect((request!.json as { body: string }).body).toContain('"home hook"');

      receiver.respondWith(500);
      expect(await sendTestNotification(id)).toMatchObject({ status: "failed", attempts: 1 });
      expect(await db.notification.count({ where: { event: "test" } })).toBe(2);
      await expect(sendTestNotification(9999)).rejects.toMatchObject({ kind: "not-found" });
    } finally {
      delete process.env.WIRESPEED_PUBLIC_URL;
    }
  });
});
