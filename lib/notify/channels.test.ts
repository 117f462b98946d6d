import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { getApp } from "@/lib/running-app";
import { openTestDatabase } from "@/testing/database";

// The channel store on a real database: validation that names each field, secrets sealed in
// the row (and never in the JSON, the audit log or an error), PATCH keeping and clearing them.

const database = await openTestDatabase();
const { db } = database;
const { createChannel, deleteChannel, getChannel, listChannels, loadChannelForDelivery, updateChannel } =
  await import("@/lib/notify/channels");

afterEach(() => database.reset());
afterAll(() => database.close());

const TOKEN = "tk_Sup3r-secret-ntfy-token";

/**
 * The bytes of the test's database on disk, every write in them: the SQLite file once the WAL is
 * copied into it, or on Postgres every file of this database in the cluster's folder once a
 * checkpoint has written the changed pages there.
 */
async function databaseBytes(): Promise<Buffer[]> {
  if (getApp().database === "sqlite") {
    await db.$queryRawUnsafe("PRAGMA wal_checkpoint(TRUNCATE)");
    return [fs.readFileSync(path.join(database.dataDir, "wirespeed.db"))];
  }
  await db.$executeRawUnsafe("CHECKPOINT");
  const [row] = await db.$queryRawUnsafe<Array<{ folder: string }>>(
    `SELECT current_setting('data_directory') || '/base/' || oid::text AS "folder" FROM pg_database WHERE datname = current_database()`,
  );
  const folder = row!.folder;
  return fs
    .readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => fs.readFileSync(path.join(folder, entry.name)));
}

async function refusal(
  promise: Promise<unknown>,
): Promise<{ kind: string; message: string; fields: Array<{ field: string; message: string }> }> {
  try {
    await promise;
  } catch (error) {
    return error as never;
  }
  throw new Error("expected a refusal");
}

describe("createChannel", () => {
  it("refuses bad input with a 400 naming each field and what is allowed, and stores nothing", async () => {
    const cases: Array<[unknown, Array<{ field: string; message: string | RegExp }>]> = [
      [
        { name: "x", type: "webhook", config: { url: "ftp://x" } },
        [{ field: "config.url", message: "must be an http:// or https:// URL" }],
      ],
      [
        { name: "x", type: "webhook", config: { url: "javascript:alert(1)" } },
        [{ field: "config.url", message: "must be an http:// or https:// URL" }],
      ],
      [
        { name: "x", type: "webhook", config: {} },
        [{ field: "config.url", message: "is required: an http:// or https:// URL" }],
      ],
      [
        { name: "x", type: "ntfy", config: { url: "https://user:pw@ntfy.lan/t" } },
        [{ field: "config.url", message: /must not hold a user name or password/ }],
      ],
      [
        { name: "x", type: "gotify", config: { url: "http://gotify.lan" } },
        [{ field: "config.token", message: /^is required: / }],
      ],
      [
        { name: "x", type: "ntfy", config: { url: "http://ntfy.lan/t", token: "has space" } },
        [{ field: "config.token", message: /^must be 1-1024 visible ASCII/ }],
      ],
      [
        { name: "x", type: "pager", config: {} },
        [{ field: "type", message: "must be one of webhook, ntfy, discord, slack, gotify, email" }],
      ],
      [
        { name: "", type: "slack", config: { url: "https://hooks.slack.com/services/a" } },
        [{ field: "name", message: /^must be 1-64 characters/ }],
      ],
      [
        { name: "x", type: "discord", config: { url: "https://discord.com/api/webhooks/1/a", extra: 1 } },
        [{ field: "config.extra", message: "is not a known field here" }],
      ],
      [
        {
          name: "x",
          type: "email",
          config: {
            host: "mail.lan",
            port: 0,
            security: "ssl",
            from: "Wirespeed <ws@nas.lan>",
            to: "a@nas.lan, not an address",
          },
        },
        [
          { field: "config.port", message: "must be a whole number from 1 to 65535" },
          { field: "config.security", message: "must be one of starttls, tls, none" },
          { field: "config.from", message: /^must be one email address/ },
          { field: "config.to", message: /^must be 1-20 email addresses separated by commas/ },
        ],
      ],
    ];
    for (const [body, fields] of cases) {
      const error = await refusal(createChannel(body));
      expect(error.kind, JSON.stringify(body)).toBe("invalid");
      expect(error.fields, JSON.stringify(body)).toEqual(
        fields.map(({ field, message }) => ({
          field,
          message: typeof message === "string" ? message : expect.stringMatching(message),
        })),
      );
    }
    expect(await db.notificationChannel.count()).toBe(0);
  });

  it("refuses link-local and cloud metadata addresses as a destination, naming the field", async () => {
    const refusal400 = (field: string) => [
      {
        field,
        message:
          "must not be a link-local or cloud metadata address (169.254.0.0/16, fe80::/10, fd00:ec2::254, 100.100.100.200): loopback and private addresses are allowed",
      },
    ];
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://169.254.0.1:8080/hook",
      "http://0xa9fea9fe/",
      "http://2852039166/",
      "http://[fe80::1]/hook",
      "http://[FEBF::1]/hook",
      "http://[fd00:ec2::254]/",
      "http://[fd00:ec2:0:0:0:0:0:254]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[::ffff:a9fe:1]/",
      "http://100.100.100.200/latest/meta-data/",
      "http://0x646464c8/",
      "http://[::ffff:100.100.100.200]/",
      "http://[::ffff:6464:64c8]/",
    ]) {
      for (const type of ["webhook", "ntfy", "gotify", "discord", "slack"]) {
        const config = type === "gotify" ? { url, token: "tok" } : { url };
        const error = await refusal(createChannel({ name: `x ${type}`, type, config }));
        expect(error.fields, `${type} ${url}`).toEqual(refusal400("config.url"));
      }
    }
    for (const host of [
      "169.254.169.254",
      "0xa9fea9fe",
      "fe80::1",
      "fd00:ec2::254",
      "::ffff:a9fe:102",
      "FE80::abcd",
      "100.100.100.200",
    ]) {
      const error = await refusal(
        createChannel({
          name: "mail",
          type: "email",
          config: { host, port: 25, security: "none", from: "w@nas.lan", to: "a@nas.lan" },
        }),
      );
      expect(error.fields, host).toEqual(refusal400("config.host"));
    }
    // A change to such an address is refused too, and the stored destination stays.
    const { id } = await createChannel({ name: "hook", type: "webhook", config: { url: "http://h.lan/a" } });
    expect((await refusal(updateChannel(id, { config: { url: "http://169.254.169.254/" } }))).fields).toEqual(
      refusal400("config.url"),
    );
    expect((await getChannel(id, { role: "admin" }))!.config).toEqual({ url: "http://h.lan/a" });
    expect(await db.notificationChannel.count()).toBe(1);
  });

  it("allows loopback and private addresses: a homelab's receivers live there", async () => {
    for (const [index, url] of [
      "http://127.0.0.1:8080/hook",
      "http://[::1]/hook",
      "https://192.168.1.20/hook",
      "http://10.0.0.5:2586/alerts",
      "http://172.16.4.4/hook",
      "http://[fd00::5]/hook",
      "http://[fc00::1]:8080/hook",
      "http://[fd00:ec2::253]/hook",
      "http://[::ffff:10.0.0.1]/hook",
      "http://169.253.1.1/hook",
      "http://100.100.100.201/hook",
      "http://100.64.0.1/hook",
      "http://ntfy.lan/t",
    ].entries()) {
      const created = await createChannel({ name: `hook ${index}`, type: "webhook", config: { url } });
      expect(created.config).toEqual({ url });
    }
  });

  it("seals the secret fields: the row's bytes do not hold them, the JSON lists them by name only", async () => {
    const created = await createChannel({
      name: "phone",
      type: "ntfy",
      config: { url: "http://ntfy.lan/wirespeed", token: TOKEN },
    });
    expect(created).toEqual({
      id: expect.any(Number),
      name: "phone",
      type: "ntfy",
      config: { url: "http://ntfy.lan/wirespeed" },
      secretsSet: ["token"],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const row = await db.notificationChannel.findUniqueOrThrow({ where: { id: created.id }, omit: { secret: false } });
    expect(row.secret).not.toBeNull();
    expect(Buffer.from(row.secret!).includes(TOKEN)).toBe(false);
    expect(JSON.stringify(row.config)).not.toContain(TOKEN);
    // Nor anywhere in the database's files.
    const files = await databaseBytes();
    expect(files.length).toBeGreaterThan(0);
    expect(files.some((bytes) => bytes.includes(TOKEN))).toBe(false);
    // A sender gets it back.
    expect(await loadChannelForDelivery(created.id)).toMatchObject({
      type: "ntfy",
      config: { url: "http://ntfy.lan/wirespeed", token: TOKEN },
    });
    // The audit log names the channel, never the token.
    const audit = await db.auditEvent.findMany({ where: { action: "channel.create" } });
    expect(audit).toEqual([
      expect.objectContaining({ target: "channel", targetId: created.id, detail: "phone (ntfy)" }),
    ]);
  });

  it("treats a Discord or Slack webhook URL as the credential it is", async () => {
    const url = "https://discord.com/api/webhooks/123456/very-secret-discord-token";
    const created = await createChannel({ name: "discord", type: "discord", config: { url } });
    expect(created.config).toEqual({});
    expect(created.secretsSet).toEqual(["url"]);
    expect(JSON.stringify(await listChannels())).not.toContain("very-secret-discord-token");
    expect((await loadChannelForDelivery(created.id))!.config).toEqual({ url });
  });

  it("stores an email channel without its password, with insecureTls false unless set", async () => {
    const created = await createChannel({
      name: "mail",
      type: "email",
      config: {
        host: "mail.lan",
        port: 587,
        security: "starttls",
        username: "ws",
        password: "smtp-password-1",
        from: "ws@nas.lan",
        to: "a@nas.lan,b@lab.lan",
      },
    });
    expect(created.config).toEqual({
      host: "mail.lan",
      port: 587,
      security: "starttls",
      username: "ws",
      from: "ws@nas.lan",
      to: "a@nas.lan,b@lab.lan",
      insecureTls: false,
    });
    expect(created.secretsSet).toEqual(["password"]);
  });

  it("refuses a name already taken with a conflict naming `name`", async () => {
    await createChannel({ name: "dup", type: "slack", config: { url: "https://hooks.slack.com/services/a" } });
    const error = await refusal(createChannel({ name: "dup", type: "webhook", config: { url: "http://h.lan" } }));
    expect(error.kind).toBe("conflict");
    expect(error.fields).toEqual([{ field: "name", message: "is already used by another notification channel" }]);
  });
});

describe("updateChannel", () => {
  async function gotify() {
    return createChannel({
      name: "gotify",
      type: "gotify",
      config: { url: "http://gotify.lan", token: "AgotifyToken1" },
    });
  }

  it("keeps a secret that the PATCH leaves out while the destination stays", async () => {
    const { id } = await gotify();
    const updated = await updateChannel(id, { name: "gotify 2", config: { url: "http://gotify.lan" } });
    expect(updated).toMatchObject({ name: "gotify 2", config: { url: "http://gotify.lan" }, secretsSet: ["token"] });
    expect((await loadChannelForDelivery(id))!.config).toEqual({ url: "http://gotify.lan", token: "AgotifyToken1" });
    const audit = await db.auditEvent.findMany({ where: { action: "channel.update" } });
    expect(audit.map((event) => event.detail)).toEqual(["gotify: name, config.url"]);
  });

  it("drops the stored secrets when the URL changes, unless the same PATCH sends them again, admins included", async () => {
    const ntfy = await createChannel({
      name: "phone",
      type: "ntfy",
      config: { url: "http://ntfy.lan/wirespeed", token: "tk_kept-token-1" },
    });
    // Pointed elsewhere without its token: the token stays behind.
    const moved = await updateChannel(ntfy.id, { config: { url: "http://elsewhere.lan/t" } });
    expect(moved).toMatchObject({ config: { url: "http://elsewhere.lan/t" }, secretsSet: [] });
    expect((await loadChannelForDelivery(ntfy.id))!.config).toEqual({ url: "http://elsewhere.lan/t" });
    expect(
      (await db.notificationChannel.findUniqueOrThrow({ where: { id: ntfy.id }, omit: { secret: false } })).secret,
    ).toBeNull();
    // With its token in the same request, it moves with it.
    await updateChannel(ntfy.id, { config: { token: "tk_second-token" } });
    const again = await updateChannel(ntfy.id, { config: { url: "http://third.lan/t", token: "tk_second-token" } });
    expect(again.secretsSet).toEqual(["token"]);
    expect((await loadChannelForDelivery(ntfy.id))!.config).toEqual({
      url: "http://third.lan/t",
      token: "tk_second-token",
    });
    const details = (await db.auditEvent.findMany({ where: { action: "channel.update" }, orderBy: { id: "asc" } })).map(
      (event) => event.detail,
    );
    expect(details).toEqual([
      "phone: config.url, config.token dropped",
      "phone: config.token",
      "phone: config.url, config.token",
    ]);

    // A webhook's signing secret too: the new address would get messages signed with it.
    const webhook = await createChannel({
      name: "hook",
      type: "webhook",
      config: { url: "http://h.lan/a", secret: "hmac-stays-behind" },
    });
    expect((await updateChannel(webhook.id, { config: { url: "http://h.lan/b" } })).secretsSet).toEqual([]);
  });

  it("refuses a URL change that leaves out a required token, saying it must be sent again", async () => {
    const { id } = await gotify();
    const error = await refusal(updateChannel(id, { config: { url: "http://attacker.lan" } }));
    expect(error.kind).toBe("invalid");
    expect(error.fields).toEqual([
      {
        field: "config.token",
        message:
          "is required again: the channel's destination changed, and a stored secret is never sent to a new destination",
      },
    ]);
    expect((await loadChannelForDelivery(id))!.config).toEqual({ url: "http://gotify.lan", token: "AgotifyToken1" });
    expect(
      (await updateChannel(id, { config: { url: "http://gotify2.lan", token: "AnewToken2" } })).secretsSet,
    ).toEqual(["token"]);
  });

  it("drops the SMTP password when the host, port, security or insecureTls change, and keeps it for the rest", async () => {
    const config = {
      host: "mail.lan",
      port: 587,
      security: "starttls",
      username: "ws",
      password: "smtp-password-1",
      from: "ws@nas.lan",
      to: "a@nas.lan",
    };
    const { id } = await createChannel({ name: "mail", type: "email", config });
    // Not a move: recipients, sender, user name, and destination fields sent unchanged (insecureTls as its default).
    const same = await updateChannel(id, {
      config: { to: "b@nas.lan", from: "w2@nas.lan", username: "ws2", host: "mail.lan", port: 587, insecureTls: false },
    });
    expect(same.secretsSet).toEqual(["password"]);
    for (const [index, change] of [
      { host: "mail2.lan" },
      { port: 2525 },
      { security: "tls" },
      { insecureTls: true },
    ].entries()) {
      await updateChannel(id, { config: { password: `smtp-password-${index + 2}` } });
      const moved = await updateChannel(id, { config: change });
      expect(moved.secretsSet, JSON.stringify(change)).toEqual([]);
      expect((await loadChannelForDelivery(id))!.config, JSON.stringify(change)).not.toHaveProperty("password");
    }
  });

  it("replaces a secret that is sent, and clears an optional one sent as null", async () => {
    const webhook = await createChannel({
      name: "hook",
      type: "webhook",
      config: { url: "http://h.lan", secret: "first-hmac" },
    });
    await updateChannel(webhook.id, { config: { secret: "second-hmac" } });
    expect((await loadChannelForDelivery(webhook.id))!.config).toEqual({ url: "http://h.lan", secret: "second-hmac" });
    const cleared = await updateChannel(webhook.id, { config: { secret: null } });
    expect(cleared.secretsSet).toEqual([]);
    expect(
      (await db.notificationChannel.findUniqueOrThrow({ where: { id: webhook.id }, omit: { secret: false } })).secret,
    ).toBeNull();
    expect((await loadChannelForDelivery(webhook.id))!.config).toEqual({ url: "http://h.lan" });
    // The audit log says what changed, never to what.
    const details = (await db.auditEvent.findMany({ where: { action: "channel.update" } })).map(
      (event) => event.detail,
    );
    expect(details).toEqual(["hook: config.secret", "hook: config.secret"]);
  });

  it("refuses to clear a required secret, to change the type, or a bad value, naming the field", async () => {
    const { id } = await gotify();
    expect((await refusal(updateChannel(id, { config: { token: null } }))).fields).toEqual([
      { field: "config.token", message: expect.stringMatching(/^is required: /) },
    ]);
    expect((await refusal(updateChannel(id, { type: "ntfy" }))).fields).toEqual([
      { field: "type", message: expect.stringMatching(/^cannot change/) },
    ]);
    expect((await refusal(updateChannel(id, { config: { url: "ftp://x" } }))).fields).toEqual([
      { field: "config.url", message: "must be an http:// or https:// URL" },
    ]);
    expect((await refusal(updateChannel(id, { config: { bogus: 1 } }))).fields).toEqual([
      { field: "config.bogus", message: "is not a known field here" },
    ]);
    expect((await refusal(updateChannel(id, { config: "x" }))).fields).toEqual([
      { field: "config", message: expect.stringMatching(/^must be an object/) },
    ]);
    expect((await loadChannelForDelivery(id))!.config).toEqual({ url: "http://gotify.lan", token: "AgotifyToken1" });
  });

  it("answers not-found and conflict", async () => {
    const { id } = await gotify();
    await createChannel({ name: "other", type: "webhook", config: { url: "http://h.lan" } });
    expect((await refusal(updateChannel(999, { name: "x" }))).kind).toBe("not-found");
    const taken = await refusal(updateChannel(id, { name: "other" }));
    expect(taken.kind).toBe("conflict");
    expect(taken.fields).toEqual([{ field: "name", message: "is already used by another notification channel" }]);
    // Its own name is not taken by itself.
    expect((await updateChannel(id, { name: "gotify" })).name).toBe("gotify");
  });

  it("puts no secret in an error message, even one sent where it does not belong", async () => {
    const { id } = await gotify();
    const secret = "leaky secret\u0000value";
    const errors = [
      await refusal(updateChannel(id, { config: { token: secret } })),
      await refusal(createChannel({ name: "n", type: "webhook", config: { url: "http://h.lan", secret } })),
      await refusal(createChannel({ name: "n", type: "webhook", config: { url: secret } })),
    ];
    for (const error of errors)
      expect(JSON.stringify({ message: error.message, fields: error.fields })).not.toContain("leaky");
  });
});

describe("what each role reads", () => {
  it("shows a viewer the origin of each URL only, operators and admins the whole URL", async () => {
    const hook = await createChannel({
      name: "ha",
      type: "webhook",
      config: { url: "https://ha.lan:8123/api/webhook/secret-webhook-id?token=q" },
    });
    const ntfy = await createChannel({ name: "topic", type: "ntfy", config: { url: "https://ntfy.sh/secret-topic" } });
    const mail = await createChannel({
      name: "mail",
      type: "email",
      config: { host: "mail.lan", port: 25, security: "none", from: "w@nas.lan", to: "a@nas.lan" },
    });
    const seen = async (role: "viewer" | "operator" | "admin") =>
      (await listChannels({ role })).map((channel) => channel.config);
    for (const role of ["operator", "admin"] as const) {
      expect(await seen(role)).toEqual([
        { url: "https://ha.lan:8123/api/webhook/secret-webhook-id?token=q" },
        expect.objectContaining({ host: "mail.lan" }),
        { url: "https://ntfy.sh/secret-topic" },
      ]);
      expect((await getChannel(hook.id, { role }))!.config.url).toBe(
        "https://ha.lan:8123/api/webhook/secret-webhook-id?token=q",
      );
    }
    expect(await seen("viewer")).toEqual([
      { url: "https://ha.lan:8123" },
      expect.objectContaining({ host: "mail.lan", to: "a@nas.lan" }),
      { url: "https://ntfy.sh" },
    ]);
    expect((await getChannel(ntfy.id, { role: "viewer" }))!.config).toEqual({ url: "https://ntfy.sh" });
    // Who does not say who reads gets what a viewer sees.
    expect((await getChannel(hook.id))!.config).toEqual({ url: "https://ha.lan:8123" });
    expect(JSON.stringify(await listChannels())).not.toMatch(/secret-webhook-id|secret-topic/);
    expect((await getChannel(mail.id, { role: "viewer" }))!.config).toMatchObject({ host: "mail.lan" });
  });
});

describe("listChannels, getChannel and deleteChannel", () => {
  it("lists by name without secrets, reads one, and deletes one with its rules' links to it", async () => {
    const b = await createChannel({
      name: "b-mail",
      type: "email",
      config: {
        host: "mail.lan",
        port: 25,
        security: "none",
        password: "pw-of-mail",
        from: "w@nas.lan",
        to: "a@nas.lan",
      },
    });
    const a = await createChannel({
      name: "a-hook",
      type: "webhook",
      config: { url: "http://h.lan", secret: "hmac-of-hook" },
    });
    const list = await listChannels({ role: "operator" });
    expect(list.map((channel) => channel.name)).toEqual(["a-hook", "b-mail"]);
    expect(JSON.stringify(list)).not.toMatch(/pw-of-mail|hmac-of-hook/);
    expect(await getChannel(b.id, { role: "operator" })).toEqual(list[1]);
    expect(await getChannel(12345)).toBeNull();

    const rule = await db.alertRule.create({
      data: { name: "r", failed: true, channels: { create: [{ channelId: a.id }, { channelId: b.id }] } },
    });
    await deleteChannel(a.id);
    expect(await getChannel(a.id)).toBeNull();
    expect(await db.alertRuleChannel.findMany({ where: { ruleId: rule.id }, select: { channelId: true } })).toEqual([
      { channelId: b.id },
    ]);
    expect((await refusal(deleteChannel(a.id))).kind).toBe("not-found");
    expect(
      (await db.auditEvent.findMany({ where: { action: "channel.delete" } })).map((event) => event.detail),
    ).toEqual(["a-hook (webhook)"]);
  });
});
