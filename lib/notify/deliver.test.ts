import { createHmac } from "node:crypto";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
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
const { deliverToChannel, notifyChannels, sendTestNotification, safeErrorText, DeliveryError, DISCORD_MAX_CHARS } =
  await import("@/lib/notify/deliver");
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
    expect(refused.error).toMatch(/^email via 127\.0\.0\.1:\d+ failed/);
    expect(refused.error).toMatch(/certificate.*\(set insecureTls to accept a self-signed certificate\)$/);
    expect(refused.error).not.toContain("starttls-password");
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
    expect(result).toMatchObject({ status: "failed", attempts: 1 });
    expect(result.error).toContain(`email via 127.0.0.1:${port} failed`);
    expect(result.error).not.toContain("never-shown-pw");
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
