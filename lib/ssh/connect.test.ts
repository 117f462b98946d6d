/**
 * The whole handshake against an SSH server on loopback (ssh2's, in this process, no root): which host
 * keys get as far as authentication, and that no credential is ever offered to a refused one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connectSsh } from "./connect";
import { HostKeyMismatchError, SshError } from "./errors";
import { sshFingerprint } from "./fingerprint";
import { closeAll, connectHost, readHostKey } from "./pool";
import type { HostTarget } from "./types";
import { ssh2, type AuthContext, type Ssh2Server } from "@/testing/ssh2-server";

const PASSWORD = "correct horse";
const hostKey = ssh2.utils.generateKeyPairSync("ed25519");
const HOST_FINGERPRINT = sshFingerprint(ssh2.utils.parseKey(hostKey.public).getPublicSSH());
const OTHER_FINGERPRINT = sshFingerprint(Buffer.from("another host's key"));

let server: Ssh2Server;
let port: number;
/** every authentication request the server got, with its method */
let authAttempts: string[] = [];

beforeAll(async () => {
  server = new ssh2.Server({ hostKeys: [hostKey.private] }, (client) => {
    client.on("error", () => {
      // a client that refuses the host key drops the connection: expected here
    });
    client.on("authentication", (ctx: AuthContext) => {
      authAttempts.push(ctx.method);
      if (ctx.method === "password" && ctx.password === PASSWORD) ctx.accept();
      else ctx.reject(["password"]);
    });
    client.on("ready", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = server.address().port;
});

afterAll(async () => {
  await closeAll();
  server.close();
});

beforeEach(() => {
  authAttempts = [];
});

function target(pinnedFingerprint: string | null): HostTarget {
  return {
    name: "loopback",
    address: "127.0.0.1",
    port,
    username: "tester",
    auth: { method: "password", password: PASSWORD },
    pinnedFingerprint,
  };
}

async function refusal(promise: Promise<unknown>): Promise<SshError> {
  const error = await promise.then(
    () => new Error("expected a refusal"),
    (err: unknown) => err,
  );
  if (!(error instanceof SshError)) throw error;
  return error;
}

describe("connectSsh", () => {
  it("authenticates to a host that presents the pinned key", async () => {
    const { ssh, fingerprint } = await connectSsh(target(HOST_FINGERPRINT), 5000);
    ssh.dispose();
    expect(fingerprint).toBe(HOST_FINGERPRINT);
    expect(authAttempts).toContain("password");
  });

  it("refuses another key before authentication, so the password is never offered", async () => {
    const error = await refusal(connectSsh(target(OTHER_FINGERPRINT), 5000));
    expect(error).toBeInstanceOf(HostKeyMismatchError);
    expect(error).toMatchObject({ kind: "host-key", pinned: OTHER_FINGERPRINT, presented: HOST_FINGERPRINT });
    expect(authAttempts).toEqual([]);
  });

  it("refuses a host whose key is not pinned, before authentication", async () => {
    const error = await refusal(connectSsh(target(null), 5000));
    expect(error.kind).toBe("host-key");
    expect(error.message).toMatch(/not pinned/);
    expect(authAttempts).toEqual([]);
  });
});

describe("readHostKey", () => {
  it("reads the key of a host, pinned or not, without authenticating", async () => {
    expect(await readHostKey(target(null), 5000)).toBe(HOST_FINGERPRINT);
    expect(await readHostKey(target(OTHER_FINGERPRINT), 5000)).toBe(HOST_FINGERPRINT);
    expect(authAttempts).toEqual([]);
  });
});

describe("the pool", () => {
  it("opens its connections through the same check", async () => {
    expect(await connectHost(target(HOST_FINGERPRINT))).toEqual({ fingerprint: HOST_FINGERPRINT });
    authAttempts = [];
    expect(await refusal(connectHost(target(OTHER_FINGERPRINT)))).toBeInstanceOf(HostKeyMismatchError);
    expect((await refusal(connectHost(target(null)))).kind).toBe("host-key");
    expect(authAttempts).toEqual([]);
  });
});
