import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HOSTILE_MARKER, HOSTILE_STRINGS, SAMPLE_KEYS, openTestApi, type TestApi } from "@/testing/test-api";
import { openSecret } from "@/lib/inventory/secrets";

let api: TestApi;
beforeAll(async () => {
  api = await openTestApi();
}, 60_000);
afterAll(async () => {
  await api?.close();
});

let counter = 0;
function uniqueName(prefix = "host"): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

function keyHost(overrides: Record<string, unknown> = {}) {
  return {
    name: uniqueName(),
    address: "198.18.0.1",
    auth: { method: "key", privateKey: SAMPLE_KEYS.openssh },
    ...overrides,
  };
}

async function storedSecret(id: number): Promise<object | null> {
  const row = await api.db.host.findUniqueOrThrow({ where: { id }, select: { secret: true } });
  return row.secret ? openSecret(row.secret) : null;
}

describe("POST /api/hosts", () => {
  it("creates a key host with the defaults and answers 201 with its Location", async () => {
    const name = uniqueName();
    const response = await api.call("POST", "/api/hosts", {
      name,
      address: "nas.lab.example",
      auth: { method: "key", privateKey: SAMPLE_KEYS.openssh, passphrase: "correct horse" },
    });
    expect(response.status).toBe(201);
    const host = await response.json();
    expect(response.headers.get("location")).toBe(`/api/hosts/${host.id}`);
    expect(host).toMatchObject({
      name,
      address: "nas.lab.example",
      port: 22,
      username: "root",
      authMethod: "key",
      hasSecret: true,
      platform: "unknown",
      iperf3Path: null,
      hostKeyFingerprint: null,
      iperfPortMin: 5201,
      iperfPortMax: 5299,
      openFirewall: false,
      notes: "",
      nicCount: 0,
    });
    expect(host).not.toHaveProperty("secret");
    expect(await storedSecret(host.id)).toEqual({ privateKey: SAMPLE_KEYS.openssh, passphrase: "correct horse" });
  });

  it("creates password and local hosts with every optional field", async () => {
    const password = await api.json("POST", "/api/hosts", {
      name: uniqueName("win"),
      address: "fd00::10",
      port: 2222,
      username: "LAB\\admin",
      auth: { method: "password", password: "p@ss w0rd" },
      platform: "windows",
      iperf3Path: "C:\\Program Files (x86)\\iperf3\\iperf3.exe",
      hostKeyFingerprint: "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s",
      notes: "rack 2, top\nsecond line",
    });
    expect(password.status).toBe(201);
    expect(password.body).toMatchObject({
      port: 2222,
      username: "LAB\\admin",
      authMethod: "password",
      hasSecret: true,
      platform: "windows",
    });
    expect(password.body.iperf3Path).toBe("C:\\Program Files (x86)\\iperf3\\iperf3.exe");
    expect(await storedSecret(password.body.id)).toEqual({ password: "p@ss w0rd" });

    const local = await api.json("POST", "/api/hosts", {
      name: uniqueName(),
      address: "localhost",
      auth: { method: "local" },
    });
    expect(local.status).toBe(201);
    expect(local.body).toMatchObject({ authMethod: "local", hasSecret: false });
  });

  it.each(Object.entries(SAMPLE_KEYS))("accepts a %s private key", async (_kind, privateKey) => {
    const response = await api.call("POST", "/api/hosts", keyHost({ auth: { method: "key", privateKey } }));
    expect(response.status).toBe(201);
  });

  it.each([
    ["a public key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@host"],
    ["a PuTTY key", "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: x\nPublic-Lines: 2\nAAAA\nAAAA\n"],
    ["a certificate", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----\n"],
    ["mismatched armour", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1\n-----END EC PRIVATE KEY-----\n"],
    [
      "a shell command inside the armour",
      "-----BEGIN OPENSSH PRIVATE KEY-----\n$(touch /tmp/x)\n-----END OPENSSH PRIVATE KEY-----\n",
    ],
    [
      "more than 16 KiB",
      `-----BEGIN OPENSSH PRIVATE KEY-----\n${"QUFB\n".repeat(3400)}-----END OPENSSH PRIVATE KEY-----\n`,
    ],
    ["an empty string", ""],
    ["a number", 42],
  ])("rejects %s with a message naming auth.privateKey and not quoting it", async (_what, privateKey) => {
    const { status, body, text } = await api.json(
      "POST",
      "/api/hosts",
      keyHost({ auth: { method: "key", privateKey } }),
    );
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid");
    expect(body.error.fields).toEqual([
      { field: "auth.privateKey", message: expect.stringMatching(/OpenSSH or PEM private key/) },
    ]);
    expect(body.error.message).toMatch(/^auth\.privateKey /);
    if (typeof privateKey === "string" && privateKey.length > 0)
      expect(text).not.toContain(privateKey.split("\n")[1] ?? privateKey);
  });

  it.each([
    [{ name: "" }, "name", /1-64 characters/],
    [{ name: "a".repeat(65) }, "name", /1-64 characters/],
    [{ name: " leading" }, "name", /starting with a letter or digit/],
    [{ name: 7 }, "name", /1-64 characters/],
    [{ address: "not an address!" }, "address", /IPv4 address/],
    [{ address: "fe80::1%eth0" }, "address", /no %zone/],
    [{ address: "999.1.1.1" }, "address", /hostname/],
    [{ port: 0 }, "port", /^must be a whole number from 1 to 65535$/],
    [{ port: 65536 }, "port", /from 1 to 65535/],
    [{ port: 22.5 }, "port", /whole number/],
    [{ port: "22" }, "port", /whole number/],
    [{ username: "root; rm -rf /" }, "username", /letters, digits/],
    [{ username: "" }, "username", /1-64 characters/],
    [{ platform: "solaris" }, "platform", /one of linux, esxi, windows, macos, freebsd, unknown/],
    [{ iperf3Path: "iperf3" }, "iperf3Path", /absolute path/],
    [{ iperf3Path: "/usr/bin/iperf3;reboot" }, "iperf3Path", /absolute path/],
    [{ hostKeyFingerprint: "SHA256:short" }, "hostKeyFingerprint", /43 base64 characters/],
    [{ hostKeyFingerprint: "MD5:aa:bb" }, "hostKeyFingerprint", /SHA256:/],
    [{ notes: "n".repeat(2001) }, "notes", /at most 2000 characters/],
    [{ iperfPortMin: 0 }, "iperfPortMin", /from 1 to 65535/],
    [{ iperfPortMin: 5300, iperfPortMax: 5299 }, "iperfPortMax", /at least iperfPortMin \(5300\)/],
    [{ openFirewall: "yes" }, "openFirewall", /true or false/],
    [{ auth: undefined }, "auth", /is required/],
    [{ auth: "key" }, "auth", /method/],
    [{ auth: { method: "kerberos" } }, "auth.method", /one of key, password, local/],
    [{ auth: { method: "password" } }, "auth.password", /is required: 1-1024 characters/],
    [{ auth: { method: "password", password: "" } }, "auth.password", /1-1024 characters/],
    [
      { auth: { method: "key", privateKey: SAMPLE_KEYS.openssh, passphrase: "" } },
      "auth.passphrase",
      /leave the field out/,
    ],
    [{ auth: { method: "local", password: "x" } }, "auth.password", /not a known field/],
    [{ sshPort: 22 }, "sshPort", /not a known field/],
  ])("answers 400 naming the field for %j", async (overrides, field, message) => {
    const { status, body } = await api.json("POST", "/api/hosts", keyHost(overrides));
    expect(status).toBe(400);
    expect(body.error.code).toBe("invalid");
    expect(body.error.fields).toContainEqual({ field, message: expect.stringMatching(message) });
    expect(body.error.message).toContain(field);
  });

  it("names every missing required field at once", async () => {
    const { status, body } = await api.json("POST", "/api/hosts", {});
    expect(status).toBe(400);
    expect(body.error.fields.map((entry: { field: string }) => entry.field)).toEqual(["name", "address", "auth"]);
    for (const entry of body.error.fields) expect(entry.message).toMatch(/^is required: /);
  });

  it.each([
    ["malformed JSON", "{ name: nas }", "is not valid JSON"],
    ["an empty body", "", "is empty"],
    ["an array", "[]", "must be a JSON object"],
    ["null", "null", "must be a JSON object"],
  ])("answers 400 naming the body for %s", async (_what, rawBody, message) => {
    const { status, body } = await api.json("POST", "/api/hosts", undefined, { rawBody });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: "invalid",
      fields: [{ field: "body", message: expect.stringContaining(message) }],
    });
  });

  it("answers 413 for a body over 64 KiB", async () => {
    const { status, body } = await api.json("POST", "/api/hosts", keyHost({ notes: "n".repeat(70_000) }));
    expect(status).toBe(413);
    expect(body.error.code).toBe("payload_too_large");
  });

  it("answers 409 when the name is taken", async () => {
    const name = uniqueName();
    expect((await api.call("POST", "/api/hosts", keyHost({ name }))).status).toBe(201);
    const { status, body } = await api.json("POST", "/api/hosts", keyHost({ name }));
    expect(status).toBe(409);
    expect(body.error).toMatchObject({ code: "conflict", fields: [{ field: "name" }] });
  });
});

describe("GET /api/hosts and /api/hosts/:id", () => {
  it("lists hosts by name and gets one", async () => {
    const created = await api.json("POST", "/api/hosts", keyHost({ name: "aaa-first" }));
    const list = await api.json("GET", "/api/hosts");
    expect(list.status).toBe(200);
    const names = list.body.hosts.map((host: { name: string }) => host.name);
    expect(names).toEqual([...names].sort());
    expect(names[0]).toBe("aaa-first");
    const one = await api.json("GET", `/api/hosts/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);
  });

  it.each(["GET", "PATCH", "DELETE"])("%s of an unknown id answers 404", async (method) => {
    const { status, body } = await api.json(
      method,
      "/api/hosts/999999",
      method === "PATCH" ? { notes: "x" } : undefined,
    );
    expect(status).toBe(404);
    expect(body.error).toEqual({ code: "not_found", message: "no host has id 999999" });
  });

  it.each(["abc", "0", "-1", "1.5", "01", "99999999999", "2147483648"])(
    "answers 400 naming id for /api/hosts/%s",
    async (id) => {
      const { status, body } = await api.json("GET", `/api/hosts/${id}`);
      expect(status).toBe(400);
      expect(body.error.fields).toEqual([
        { field: "id", message: expect.stringMatching(/whole number from 1 to 2147483647/) },
      ]);
    },
  );
});

describe("PATCH /api/hosts/:id", () => {
  it("changes the fields given and leaves the rest", async () => {
    const created = await api.json("POST", "/api/hosts", keyHost({ notes: "before" }));
    const { status, body } = await api.json("PATCH", `/api/hosts/${created.body.id}`, {
      port: 2200,
      platform: "linux",
      iperf3Path: "/opt/iperf3/bin/iperf3",
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      port: 2200,
      platform: "linux",
      iperf3Path: "/opt/iperf3/bin/iperf3",
      notes: "before",
      authMethod: "key",
      hasSecret: true,
    });
    const cleared = await api.json("PATCH", `/api/hosts/${created.body.id}`, { iperf3Path: null });
    expect(cleared.body.iperf3Path).toBeNull();
  });

  it("replaces the method and the secret together", async () => {
    const created = await api.json("POST", "/api/hosts", keyHost());
    const toPassword = await api.json("PATCH", `/api/hosts/${created.body.id}`, {
      auth: { method: "password", password: "new one" },
    });
    expect(toPassword.body).toMatchObject({ authMethod: "password", hasSecret: true });
    expect(await storedSecret(created.body.id)).toEqual({ password: "new one" });
    const toLocal = await api.json("PATCH", `/api/hosts/${created.body.id}`, { auth: { method: "local" } });
    expect(toLocal.body).toMatchObject({ authMethod: "local", hasSecret: false });
    expect(await storedSecret(created.body.id)).toBeNull();
  });

  it("sets the iperf3 port range and the ESXi firewall opt-in, checking the range against the stored bound", async () => {
    const created = await api.json(
      "POST",
      "/api/hosts",
      keyHost({ platform: "esxi", openFirewall: true, iperfPortMin: 6000, iperfPortMax: 6009 }),
    );
    expect(created.body).toMatchObject({ openFirewall: true, iperfPortMin: 6000, iperfPortMax: 6009 });
    const empty = await api.json("PATCH", `/api/hosts/${created.body.id}`, { iperfPortMax: 5999 });
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual([
      { field: "iperfPortMax", message: expect.stringMatching(/at least iperfPortMin \(6000\)/) },
    ]);
    const moved = await api.json("PATCH", `/api/hosts/${created.body.id}`, {
      iperfPortMin: 7000,
      iperfPortMax: 7100,
      openFirewall: false,
    });
    expect(moved.body).toMatchObject({ openFirewall: false, iperfPortMin: 7000, iperfPortMax: 7100 });
  });

  it("pins and unpins the host key", async () => {
    const created = await api.json("POST", "/api/hosts", keyHost());
    const fingerprint = "SHA256:uNiVztksCsDhcc0u9e8BujQXVUpKZIDTMczCvj3tD2s";
    expect(
      (await api.json("PATCH", `/api/hosts/${created.body.id}`, { hostKeyFingerprint: fingerprint })).body
        .hostKeyFingerprint,
    ).toBe(fingerprint);
    expect(
      (await api.json("PATCH", `/api/hosts/${created.body.id}`, { hostKeyFingerprint: null })).body.hostKeyFingerprint,
    ).toBeNull();
  });

  it("answers 409 for a rename onto another host's name, 200 onto its own", async () => {
    const first = await api.json("POST", "/api/hosts", keyHost());
    const second = await api.json("POST", "/api/hosts", keyHost());
    const clash = await api.json("PATCH", `/api/hosts/${second.body.id}`, { name: first.body.name });
    expect(clash.status).toBe(409);
    expect(clash.body.error.fields).toEqual([{ field: "name", message: expect.any(String) }]);
    expect((await api.call("PATCH", `/api/hosts/${second.body.id}`, { name: second.body.name })).status).toBe(200);
  });

  it("answers 400 naming the field for a bad value or an unknown field", async () => {
    const created = await api.json("POST", "/api/hosts", keyHost());
    const bad = await api.json("PATCH", `/api/hosts/${created.body.id}`, { port: 70000, secret: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual([
      { field: "port", message: "must be a whole number from 1 to 65535" },
      { field: "secret", message: "is not a known field here" },
    ]);
  });
});

describe("DELETE /api/hosts/:id", () => {
  it("deletes the host, its NICs and their links (cascade), and answers the counts", async () => {
    const a = await api.json("POST", "/api/hosts", keyHost());
    const b = await api.json("POST", "/api/hosts", keyHost());
    const aNic = await api.json("POST", "/api/nics", {
      hostId: a.body.id,
      name: "eth0",
      address: "198.18.1.1/24",
      speedMbps: 1000,
    });
    const aNic2 = await api.json("POST", "/api/nics", { hostId: a.body.id, name: "eth1" });
    const bNic = await api.json("POST", "/api/nics", {
      hostId: b.body.id,
      name: "eth0",
      address: "198.18.1.2/24",
      speedMbps: 1000,
    });
    const link = await api.json("POST", "/api/links", {
      name: uniqueName("link"),
      aNicId: aNic.body.id,
      bNicId: bNic.body.id,
    });
    expect(link.status).toBe(201);

    const deleted = await api.json("DELETE", `/api/hosts/${a.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: { hosts: 1, nics: 2, links: 1, runs: 0 } });
    expect((await api.call("GET", `/api/hosts/${a.body.id}`)).status).toBe(404);
    expect((await api.call("GET", `/api/nics/${aNic.body.id}`)).status).toBe(404);
    expect((await api.call("GET", `/api/nics/${aNic2.body.id}`)).status).toBe(404);
    expect((await api.call("GET", `/api/links/${link.body.id}`)).status).toBe(404);
    // The other end survives.
    expect((await api.call("GET", `/api/nics/${bNic.body.id}`)).status).toBe(200);
    expect(await api.db.link.count({ where: { id: link.body.id } })).toBe(0);
  });

  it("answers 409 while a run on one of the host's links is active", async () => {
    const a = await api.json("POST", "/api/hosts", keyHost());
    const b = await api.json("POST", "/api/hosts", keyHost());
    const aNic = await api.json("POST", "/api/nics", { hostId: a.body.id, name: "eth0", speedMbps: 1000 });
    const bNic = await api.json("POST", "/api/nics", { hostId: b.body.id, name: "eth0", speedMbps: 1000 });
    const link = await api.json("POST", "/api/links", {
      name: uniqueName("link"),
      aNicId: aNic.body.id,
      bNicId: bNic.body.id,
    });
    const run = await api.db.run.create({ data: { linkId: link.body.id, status: "running", options: {} } });
    const refused = await api.json("DELETE", `/api/hosts/${a.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`run ${run.id} running`);
    await api.db.run.update({ where: { id: run.id }, data: { status: "succeeded" } });
    expect((await api.json("DELETE", `/api/hosts/${a.body.id}`)).body).toEqual({
      deleted: { hosts: 1, nics: 1, links: 1, runs: 1 },
    });
  });
});

describe("secrets never leave the server", () => {
  it("no response of any endpoint, and no log line, contains the key, passphrase or password", async () => {
    const keyBody = SAMPLE_KEYS.openssh.split("\n")[1]!;
    const passphrase = "passphrase-3f9a-never-shown";
    const password = "password-77c1-never-shown";
    const secrets = [keyBody, passphrase, password];
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" "))),
    );
    const bodies: string[] = [];
    const record = async (method: string, path: string, body?: unknown, options?: { rawBody?: string }) => {
      const result = await api.json(method, path, body, options);
      bodies.push(`${result.status} ${result.text}`);
      return result;
    };
    try {
      const auth = { method: "key", privateKey: SAMPLE_KEYS.openssh, passphrase };
      const keyed = await record("POST", "/api/hosts", { name: uniqueName(), address: "198.18.0.10", auth });
      const other = await record("POST", "/api/hosts", {
        name: uniqueName(),
        address: "198.18.0.11",
        auth: { method: "password", password },
      });
      expect(keyed.status).toBe(201);
      // Errors while a secret is in the request: conflict, a bad field beside it, a bad secret, a broken body.
      await record("POST", "/api/hosts", { name: keyed.body.name, address: "198.18.0.10", auth });
      await record("POST", "/api/hosts", { name: uniqueName(), address: "bad address!", auth, port: 0 });
      await record("POST", "/api/hosts", {
        name: uniqueName(),
        address: "198.18.0.12",
        auth: { method: "key", privateKey: `${keyBody} ${passphrase}` },
      });
      await record("POST", "/api/hosts", {
        name: uniqueName(),
        address: "198.18.0.12",
        auth: { method: "password", password: password.repeat(100) },
      });
      await record("POST", "/api/hosts", undefined, { rawBody: `{"auth":{"password":"${password}"` });
      await record("PATCH", `/api/hosts/${other.body.id}`, { auth: { method: "password", password }, port: -1 });
      await record("PATCH", `/api/hosts/${other.body.id}`, { auth: { method: "password", password } });
      await record("PATCH", `/api/hosts/${keyed.body.id}`, { notes: "patched" });
      await record("GET", "/api/hosts");
      await record("GET", `/api/hosts/${keyed.body.id}`);
      await record("GET", `/api/hosts/${other.body.id}`);
      const aNic = await record("POST", "/api/nics", {
        hostId: keyed.body.id,
        name: "eth0",
        address: "198.18.0.10/24",
        speedMbps: 2500,
        mtu: 9000,
      });
      const bNic = await record("POST", "/api/nics", {
        hostId: other.body.id,
        name: "eth0",
        address: "198.18.0.11/24",
        speedMbps: 1000,
        mtu: 1500,
      });
      await record("GET", "/api/nics");
      await record("GET", `/api/nics?hostId=${keyed.body.id}`);
      await record("GET", `/api/nics/${aNic.body.id}`);
      await record("PATCH", `/api/nics/${aNic.body.id}`, { model: "X710" });
      const link = await record("POST", "/api/links", {
        name: uniqueName("link"),
        aNicId: aNic.body.id,
        bNicId: bNic.body.id,
      });
      await record("GET", "/api/links");
      await record("GET", `/api/links/${link.body.id}`);
      await record("PATCH", `/api/links/${link.body.id}`, { notes: "x" });
      await record("DELETE", `/api/links/${link.body.id}`);
      await record("DELETE", `/api/nics/${bNic.body.id}`);
      await record("DELETE", `/api/hosts/${keyed.body.id}`);
      await record("DELETE", `/api/hosts/${other.body.id}`);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(bodies).toHaveLength(27);
    for (const body of bodies) {
      for (const secret of secrets) expect(body).not.toContain(secret);
      expect(body).not.toMatch(/"secret"|privateKey"\s*:|passphrase"\s*:|password"\s*:/);
    }
    for (const line of logged) for (const secret of secrets) expect(line).not.toContain(secret);
  });
});

describe("hostile strings in host fields", () => {
  const textFields = ["name", "address", "username", "iperf3Path", "hostKeyFingerprint", "notes", "platform"] as const;

  it.each(textFields.flatMap((field) => HOSTILE_STRINGS.map(([label, value]) => [field, label, value] as const)))(
    "%s = %s is refused naming the field, or stored and returned verbatim",
    async (field, _label, value) => {
      const created = await api.json("POST", "/api/hosts", keyHost({ [field]: value }));
      if (created.status === 400) {
        expect(created.body.error.fields.map((entry: { field: string }) => entry.field)).toEqual([field]);
      } else {
        expect(created.status).toBe(201);
        expect(created.body[field]).toBe(value);
        expect((await api.json("GET", `/api/hosts/${created.body.id}`)).body[field]).toBe(value);
        const patched = await api.json("PATCH", `/api/hosts/${created.body.id}`, { [field]: value });
        expect(patched.body[field]).toBe(value);
      }
    },
  );

  it.each(HOSTILE_STRINGS.filter(([, value]) => value.length <= 1024))(
    "a password or passphrase with %s is kept verbatim in the secret",
    async (_label, value) => {
      const withPassword = await api.json(
        "POST",
        "/api/hosts",
        keyHost({ auth: { method: "password", password: value } }),
      );
      expect(withPassword.status).toBe(201);
      expect(await storedSecret(withPassword.body.id)).toEqual({ password: value });
      const withPassphrase = await api.json(
        "POST",
        "/api/hosts",
        keyHost({ auth: { method: "key", privateKey: SAMPLE_KEYS.ec, passphrase: value } }),
      );
      expect(withPassphrase.status).toBe(201);
      expect(await storedSecret(withPassphrase.body.id)).toEqual({ privateKey: SAMPLE_KEYS.ec, passphrase: value });
    },
  );

  it("ran nothing", () => {
    expect(fs.existsSync(HOSTILE_MARKER)).toBe(false);
  });
});
