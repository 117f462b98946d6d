/**
 * Jump hosts against two SSH servers on loopback (ssh2's, in this process, no root): a "jump" server
 * that forwards direct-tcpip channels and a "behind" server reached through it. Each hop's key is
 * checked against its own pin, the jump connection is pooled and shared, and losing it loses the rest.
 */
import net, { type AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HostKeyMismatchError, SshError } from "./errors";
import { sshFingerprint } from "./fingerprint";
import { closeAll, closeHost, connectHost, getConnection, poolKey, poolSize, readHostKey } from "./pool";
import type { HostTarget } from "./types";
import { ssh2, type AuthContext, type ServerClient, type Ssh2Server } from "@/testing/ssh2-server";

type TcpipInfo = { destIP: string; destPort: number };

const PASSWORD = "correct horse";
const OTHER_FINGERPRINT = sshFingerprint(Buffer.from("another host's key"));

type LoopbackServer = {
  port: number;
  fingerprint: string;
  /** connections accepted (TCP), authentications attempted, forwards asked for */
  connections: number;
  authAttempts: string[];
  forwards: TcpipInfo[];
  clients: ServerClient[];
  /** what a direct-tcpip request gets: relayed to its destination, or refused */
  forwarding: "relay" | "refuse";
  server: Ssh2Server;
};

async function startServer(): Promise<LoopbackServer> {
  const key = ssh2.utils.generateKeyPairSync("ed25519");
  const state = {
    port: 0,
    fingerprint: sshFingerprint(ssh2.utils.parseKey(key.public).getPublicSSH()),
    connections: 0,
    authAttempts: [] as string[],
    forwards: [] as TcpipInfo[],
    clients: [] as ServerClient[],
    forwarding: "relay" as "relay" | "refuse",
  } as LoopbackServer;
  state.server = new ssh2.Server({ hostKeys: [key.private] }, (client) => {
    state.connections += 1;
    state.clients.push(client);
    client.on("error", () => {
      // a client that refuses the host key, or a test that drops it: expected here
    });
    client.on("authentication", (ctx: AuthContext) => {
      state.authAttempts.push(ctx.method);
      if (ctx.method === "password" && ctx.password === PASSWORD) ctx.accept();
      else ctx.reject(["password"]);
    });
    client.on("ready", () => undefined);
    client.on("tcpip", (accept: () => Duplex, reject: () => void, info: TcpipInfo) => {
      state.forwards.push(info);
      if (state.forwarding === "refuse") return reject();
      // What sshd does: connect to the destination, then confirm the channel and relay both ways.
      const socket = net.connect(info.destPort, info.destIP);
      socket.once("error", () => reject());
      socket.once("connect", () => {
        const channel = accept();
        channel.on("error", () => socket.destroy());
        socket.on("error", () => channel.destroy());
        channel.pipe(socket).pipe(channel);
      });
    });
  });
  await new Promise<void>((resolve) => state.server.listen(0, "127.0.0.1", resolve));
  state.port = state.server.address().port;
  return state;
}

let jump: LoopbackServer;
let behind: LoopbackServer;

beforeAll(async () => {
  [jump, behind] = await Promise.all([startServer(), startServer()]);
});

afterAll(() => {
  jump.server.close();
  behind.server.close();
});

beforeEach(() => {
  for (const server of [jump, behind]) {
    server.connections = 0;
    server.authAttempts = [];
    server.forwards = [];
    server.clients = [];
    server.forwarding = "relay";
  }
});

afterEach(async () => {
  await closeAll();
});

function jumpTarget(over: Partial<HostTarget> = {}): HostTarget {
  return {
    name: "jumpy",
    address: "127.0.0.1",
    port: jump.port,
    username: "tester",
    auth: { method: "password", password: PASSWORD },
    pinnedFingerprint: jump.fingerprint,
    ...over,
  };
}

function behindTarget(over: Partial<HostTarget> = {}): HostTarget {
  return {
    name: "behind",
    address: "127.0.0.1",
    port: behind.port,
    username: "tester",
    auth: { method: "password", password: PASSWORD },
    pinnedFingerprint: behind.fingerprint,
    via: jumpTarget(),
    ...over,
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

describe("poolKey", () => {
  it("tells the same host reached directly, through one jump host or another apart", () => {
    const direct = behindTarget({ via: undefined });
    expect(poolKey(behindTarget())).toBe(poolKey(behindTarget()));
    expect(poolKey(behindTarget())).not.toBe(poolKey(direct));
    expect(poolKey(behindTarget())).not.toBe(poolKey(behindTarget({ via: jumpTarget({ port: jump.port + 1 }) })));
  });

  it("changes with the jump host's pinned key and credentials, at any depth", () => {
    const key = poolKey(behindTarget({ via: { ...jumpTarget(), via: jumpTarget({ name: "outer" }) } }));
    expect(poolKey(behindTarget({ via: jumpTarget({ pinnedFingerprint: OTHER_FINGERPRINT }) }))).not.toBe(
      poolKey(behindTarget()),
    );
    expect(poolKey(behindTarget({ via: jumpTarget({ auth: { method: "password", password: "new" } }) }))).not.toBe(
      poolKey(behindTarget()),
    );
    expect(
      poolKey(
        behindTarget({
          via: { ...jumpTarget(), via: jumpTarget({ name: "outer", pinnedFingerprint: OTHER_FINGERPRINT }) },
        }),
      ),
    ).not.toBe(key);
  });
});

describe("a host behind a jump host", () => {
  it("is reached through a channel of the jump host's connection, with its own key and credentials", async () => {
    expect(await connectHost(behindTarget())).toEqual({ fingerprint: behind.fingerprint });
    expect(jump.forwards).toEqual([expect.objectContaining({ destIP: "127.0.0.1", destPort: behind.port })]);
    expect(jump.authAttempts).toContain("password");
    expect(behind.authAttempts).toContain("password");
    // the jump host's connection and the one through it
    expect(poolSize()).toBe(2);
  });

  it("shares one pooled connection to the jump host between the hosts behind it", async () => {
    await Promise.all([connectHost(behindTarget()), connectHost(behindTarget({ name: "behind-too" }))]);
    const direct = await getConnection(jumpTarget());
    expect(direct.fingerprint).toBe(jump.fingerprint);
    expect(jump.connections).toBe(1);
    expect(jump.forwards).toHaveLength(2);
    expect(behind.connections).toBe(2);
    expect(poolSize()).toBe(3);
  });

  it("fails with the jump host's own host-key error, naming it, and never reaches the host behind", async () => {
    const error = await refusal(
      connectHost(behindTarget({ via: jumpTarget({ pinnedFingerprint: OTHER_FINGERPRINT }) })),
    );
    expect(error).toBeInstanceOf(HostKeyMismatchError);
    expect(error).toMatchObject({ kind: "host-key", host: "jumpy", presented: jump.fingerprint });
    expect(error.message).toMatch(/^host key of jumpy changed/);
    expect(jump.authAttempts).toEqual([]);
    expect(behind.connections).toBe(0);
  });

  it("checks the host behind against its own pin", async () => {
    const error = await refusal(connectHost(behindTarget({ pinnedFingerprint: OTHER_FINGERPRINT })));
    expect(error).toMatchObject({ kind: "host-key", host: "behind", presented: behind.fingerprint });
    expect(behind.authAttempts).toEqual([]);
  });

  it("reads the key of the host behind on first contact, through the pinned jump host, sending it nothing", async () => {
    expect(await readHostKey(behindTarget({ pinnedFingerprint: null }), 5000)).toBe(behind.fingerprint);
    expect(behind.authAttempts).toEqual([]);
    expect(jump.authAttempts).toContain("password");
    // first contact stores nothing: only the jump host's connection is pooled
    expect(poolSize()).toBe(1);
  });

  it("names the host behind as unreachable when the jump host cannot connect to it", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const error = await refusal(connectHost(behindTarget({ port: closed })));
    expect(error).toMatchObject({ kind: "unreachable", host: "behind" });
    expect(error.message).toMatch(/cannot reach behind \(127\.0\.0\.1:\d+\) from the jump host jumpy/);
  });

  it("names the jump host when it refuses to forward", async () => {
    jump.forwarding = "refuse";
    const error = await refusal(connectHost(behindTarget()));
    expect(error.kind).toBe("unreachable");
    expect(error.message).toMatch(/behind/);
    expect(error.message).toMatch(/jumpy/);
  });

  it("is lost with its jump host's connection, and reconnects through a new one", async () => {
    await connectHost(behindTarget());
    const through = await getConnection(behindTarget());
    const why = new Promise<Error | null>((resolve) => through.onLost(resolve));
    // the jump host drops the connection (a reboot, a cable)
    for (const client of jump.clients) client.end();
    expect((await why)?.message).toMatch(/jump host jumpy .* was lost/);
    expect(through.isClosed()).toBe(true);
    expect(await connectHost(behindTarget())).toEqual({ fingerprint: behind.fingerprint });
    expect(jump.connections).toBe(2);
  });

  it("closes the connections through a jump host before the jump host's own", async () => {
    await connectHost(behindTarget());
    const through = await getConnection(behindTarget());
    const jumpConnection = await getConnection(jumpTarget());
    const order: string[] = [];
    // closed on its own (no error), not cut by the jump host's end
    through.onLost((why) => order.push(why ? `behind: ${why.message}` : "behind"));
    jumpConnection.onLost(() => order.push("jumpy"));
    await closeHost(jumpTarget());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(["behind", "jumpy"]);
    expect(poolSize()).toBe(0);
  });
});
