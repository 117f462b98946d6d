import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApi, type TestApi } from "@/testing/test-api";
import { postLink, postLocalHosts } from "@/testing/api-links";
import { insertSweepExperiment } from "@/testing/sweep-experiment";
import { userWithToken } from "@/testing/user-tokens";
import type { Principal } from "@/lib/auth/principal";
import { getApp } from "@/lib/app";
import { updateUser, deleteUser } from "@/lib/auth/users";
import { revokeApiToken } from "@/lib/auth/tokens";
import { createSession, deleteSession } from "@/lib/auth/sessions";
import { createApiToken } from "@/lib/auth/tokens";
import { withApiAuth } from "@/lib/api/auth";
import { MAX_OPEN_STREAMS, openStreamCount } from "@/lib/api/stream-access";
import { eventStreamResponse, openRunEventStream, resumePoint } from "@/lib/runs/events";

// A live event stream outlives the request that opened it: through the real route handlers,
// on a real database, each way of losing access ends an open stream of a run that is still
// running, while the streams of principals that keep their access stay open.

let api: TestApi;
let runId = 0;
let experimentId = 0;
const ADMIN: Principal = { userId: null, name: "WIRESPEED_API_TOKEN", role: "admin", via: "env-token" };
/** Generous: the streams ask every 2 s, and others run tests on this machine. */
const END_WITHIN_MS = 8_000;

beforeAll(async () => {
  api = await openTestApi();
  const hosts = await postLocalHosts(api, ["live-a", "live-b"]);
  const linkId = await postLink(api, hosts, { name: "eth0", speedMbps: 1000 }, { name: "live-link" });
  runId = (
    await api.db.run.create({
      data: { linkId, status: "running", clientSide: "a", options: { protocol: "tcp", duration: 3600 } },
    })
  ).id;
  experimentId = await insertSweepExperiment(api.db, linkId, { status: "running" });
}, 60_000);

afterAll(async () => {
  await api?.close();
});

async function user(username: string, role: "admin" | "operator" | "viewer" = "viewer") {
  const { user: created, token, tokenId } = await userWithToken(username, role);
  const session = await createSession(created.id);
  return { id: created.id, cookie: `wirespeed_session=${session.token}`, sessionToken: session.token, token, tokenId };
}

type Followed = { text: () => string; ended: Promise<string>; isEnded: () => boolean; stop: () => Promise<void> };

/** Opens `path` and reads its body in the background until it ends. */
async function follow(
  path: string,
  credential: { cookie: string } | { token: string } | "WIRESPEED_API_TOKEN",
): Promise<Followed> {
  const options =
    credential === "WIRESPEED_API_TOKEN"
      ? {}
      : "cookie" in credential
        ? { token: null, headers: { cookie: credential.cookie } }
        : { token: credential.token };
  const response = await api.call("GET", path, undefined, options);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let isEnded = false;
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    isEnded = true;
    return text;
  })();
  return { text: () => text, ended, isEnded: () => isEnded, stop: () => reader.cancel() };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The last event of a stream's text, as { event, data }. */
function lastEvent(text: string): { event: string; data: unknown } {
  const block = text.trim().split("\n\n").at(-1) ?? "";
  const field = (name: string) =>
    block
      .split("\n")
      .find((line) => line.startsWith(`${name}: `))
      ?.slice(name.length + 2);
  return { event: field("event") ?? "", data: JSON.parse(field("data") ?? "null") };
}

describe("an open event stream of a running run", () => {
  it("ends with an error event once its user is disabled or deleted, signed out, its token revoked or its role unknown; the others stay open", async () => {
    const runEventBus = getApp().runBus;
    runEventBus.begin(runId);
    const path = `/api/runs/${runId}/events`;
    const [disabled, deleted, signedOut, revoked, demoted, stays] = [
      await user("disabled"),
      await user("deleted"),
      await user("signed-out"),
      await user("revoked"),
      await user("demoted"),
      await user("stays", "operator"),
    ];
    const streams = {
      // Disabling also ends the user's sessions: the token shows that the account itself is checked.
      disabled: await follow(path, { token: disabled.token }),
      deleted: await follow(path, { cookie: deleted.cookie }),
      signedOut: await follow(path, { cookie: signedOut.cookie }),
      revoked: await follow(path, { token: revoked.token }),
      demoted: await follow(path, { cookie: demoted.cookie }),
    };
    const valid = {
      session: await follow(path, { cookie: stays.cookie }),
      token: await follow(path, { token: stays.token }),
      envToken: await follow(path, "WIRESPEED_API_TOKEN"),
      // The same user, signed out in another browser: only the stream of the session that ended goes.
      otherSession: await follow(path, { cookie: `wirespeed_session=${(await createSession(signedOut.id)).token}` }),
    };
    runEventBus.publish(runId, "status", { status: "running" });
    await sleep(50);
    for (const stream of [...Object.values(streams), ...Object.values(valid)])
      expect(stream.text()).toContain('event: status\ndata: {"status":"running"}');

    await updateUser(disabled.id, { disabled: true }, ADMIN);
    await deleteUser(deleted.id, ADMIN);
    await deleteSession(signedOut.sessionToken);
    await revokeApiToken(revoked.tokenId, ADMIN);
    await api.db.user.update({ where: { id: demoted.id }, data: { role: "guest" } });

    await within(
      Promise.all(Object.values(streams).map((stream) => stream.ended)),
      END_WITHIN_MS,
      "the end of every revoked stream",
    );
    expect(lastEvent(streams.disabled.text())).toEqual({
      event: "error",
      data: { kind: "unauthorized", message: "Your account was disabled: this stream has ended." },
    });
    expect(lastEvent(streams.deleted.text())).toEqual({
      event: "error",
      data: { kind: "unauthorized", message: "Your account was deleted: this stream has ended." },
    });
    expect(lastEvent(streams.signedOut.text())).toEqual({
      event: "error",
      data: {
        kind: "unauthorized",
        message: "Your session has ended (signed out or expired): sign in again to follow this live.",
      },
    });
    expect(lastEvent(streams.revoked.text())).toEqual({
      event: "error",
      data: { kind: "unauthorized", message: "The API token was revoked: this stream has ended." },
    });
    expect(lastEvent(streams.demoted.text())).toEqual({
      event: "error",
      data: { kind: "forbidden", message: expect.stringMatching(/role \(guest\)/) },
    });

    // More than one check later, the others still follow the run.
    await sleep(2_500);
    runEventBus.publish(runId, "sample", { seq: 0 });
    await sleep(50);
    for (const [name, stream] of Object.entries(valid)) {
      expect(stream.isEnded(), name).toBe(false);
      expect(stream.text(), name).toContain("event: sample");
      expect(stream.text(), name).not.toContain("event: error");
    }
    // The ended streams left the bus: nothing keeps sending to them.
    expect(runEventBus.listenerCount(runId)).toBe(Object.keys(valid).length);
    await Promise.all(Object.values(valid).map((stream) => stream.stop()));
    expect(runEventBus.listenerCount(runId)).toBe(0);
    runEventBus.end(runId);
  });

  it("of an experiment ends the same way", async () => {
    const experimentEventBus = getApp().experimentBus;
    experimentEventBus.begin(experimentId);
    const path = `/api/experiments/${experimentId}/events`;
    const revoked = await user("experiment-viewer");
    const stays = await user("experiment-stays");
    const stream = await follow(path, { token: revoked.token });
    const other = await follow(path, { cookie: stays.cookie });
    await revokeApiToken(revoked.tokenId, ADMIN);
    await within(stream.ended, END_WITHIN_MS, "the end of the revoked experiment stream");
    expect(lastEvent(stream.text())).toEqual({
      event: "error",
      data: { kind: "unauthorized", message: "The API token was revoked: this stream has ended." },
    });
    await sleep(2_500);
    experimentEventBus.publish(experimentId, "status", { status: "running" });
    await sleep(50);
    expect(other.isEnded()).toBe(false);
    expect(other.text()).toContain('event: status\ndata: {"status":"running"}');
    expect(experimentEventBus.listenerCount(experimentId)).toBe(1);
    await other.stop();
    experimentEventBus.end(experimentId);
  });
});

describe("open event streams of one user or token", () => {
  it(`are at most ${MAX_OPEN_STREAMS} on every stream route: the next is a 429 saying so, and a place frees when a stream closes`, async () => {
    expect(MAX_OPEN_STREAMS).toBe(20);
    const runBus = getApp().runBus;
    const experimentBus = getApp().experimentBus;
    runBus.begin(runId);
    experimentBus.begin(experimentId);
    const paths = [`/api/runs/${runId}/events`, `/api/experiments/${experimentId}/events`];
    const script = await user("many-streams");
    const streams: Followed[] = [];
    for (let index = 0; index < MAX_OPEN_STREAMS; index++)
      streams.push(await follow(paths[index % 2]!, { token: script.token }));
    expect(openStreamCount(`token ${script.tokenId}`)).toBe(MAX_OPEN_STREAMS);
    const listening = runBus.listenerCount(runId) + experimentBus.listenerCount(experimentId);

    for (const path of paths) {
      const refused = await api.json("GET", path, undefined, { token: script.token });
      expect(refused.status, path).toBe(429);
      expect(refused.body).toEqual({
        error: {
          code: "rate_limited",
          message: `At most ${MAX_OPEN_STREAMS} event streams may be open at once for one user or API token: close one (a page or a script following a run or an experiment) and try again.`,
        },
      });
    }
    // The refused streams never joined a bus.
    expect(runBus.listenerCount(runId) + experimentBus.listenerCount(experimentId)).toBe(listening);
    // Another token of the same user counts on its own; the user's requests that are no stream are not held up.
    const { token: second } = await createApiToken(script.id, "a second script");
    const other = await follow(paths[0]!, { token: second });
    expect((await api.call("GET", `/api/runs/${runId}`, undefined, { token: script.token })).status).toBe(200);

    // Closing one frees its place.
    await streams.shift()!.stop();
    expect(openStreamCount(`token ${script.tokenId}`)).toBe(MAX_OPEN_STREAMS - 1);
    streams.push(await follow(paths[1]!, { token: script.token }));
    expect((await api.call("GET", paths[0]!, undefined, { token: script.token })).status).toBe(429);

    await Promise.all([...streams, other].map((stream) => stream.stop()));
    expect(openStreamCount(`token ${script.tokenId}`)).toBe(0);
    expect(runBus.listenerCount(runId)).toBe(0);
    expect(experimentBus.listenerCount(experimentId)).toBe(0);
    runBus.end(runId);
    experimentBus.end(experimentId);
  });

  it("count a user's sessions together, and free the place of a stream its client left", async () => {
    const runBus = getApp().runBus;
    runBus.begin(runId);
    const path = `/api/runs/${runId}/events`;
    const browser = await user("many-tabs");
    const otherBrowser = `wirespeed_session=${(await createSession(browser.id)).token}`;
    const streams: Followed[] = [];
    for (let index = 0; index < MAX_OPEN_STREAMS; index++)
      streams.push(await follow(path, { cookie: index % 2 === 0 ? browser.cookie : otherBrowser }));
    const third = `wirespeed_session=${(await createSession(browser.id)).token}`;
    const refused = await api.call("GET", path, undefined, { token: null, headers: { cookie: third } });
    expect(refused.status).toBe(429);
    expect(openStreamCount(`user ${browser.id}`)).toBe(MAX_OPEN_STREAMS);

    // A client that goes away (its request aborted, as a closed tab's is) frees its place.
    const leaving = new AbortController();
    await streams.shift()!.stop();
    const { GET: runEvents } = await import("@/app/api/runs/[id]/events/route");
    const response = await runEvents(
      new Request(`http://localhost${path}`, { headers: { cookie: third }, signal: leaving.signal }),
      { params: Promise.resolve({ id: String(runId) }) },
    );
    expect(response.status).toBe(200);
    expect(openStreamCount(`user ${browser.id}`)).toBe(MAX_OPEN_STREAMS);
    leaving.abort();
    expect(openStreamCount(`user ${browser.id}`)).toBe(MAX_OPEN_STREAMS - 1);
    await response.body?.cancel().catch(() => {});
    expect(openStreamCount(`user ${browser.id}`)).toBe(MAX_OPEN_STREAMS - 1);

    await Promise.all(streams.map((stream) => stream.stop()));
    expect(openStreamCount(`user ${browser.id}`)).toBe(0);
    runBus.end(runId);
  });
});

describe("an open event stream of a trusted proxy's user", () => {
  const PEER = "x-wirespeed-peer-aabbccddeeff00112233";
  const saved = { ...process.env };
  afterAll(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  });

  it("follows the groups of the proxy's latest request: a user no longer in the admin group loses admin-only streams", async () => {
    Object.assign(process.env, {
      WIRESPEED_PEER_HEADER: PEER,
      WIRESPEED_TRUSTED_PROXIES: "10.9.0.0/16",
      WIRESPEED_AUTH_HEADER: "Remote-User",
      WIRESPEED_AUTH_GROUPS_HEADER: "Remote-Groups",
      WIRESPEED_OIDC_ADMIN_GROUPS: "lab-admins",
      WIRESPEED_OIDC_VIEWER_GROUPS: "lab",
    });
    const runBus = getApp().runBus;
    runBus.begin(runId);
    const asProxy = (groups: string) => ({ [PEER]: "10.9.0.2", "remote-user": "dana", "remote-groups": groups });
    // A stream only an admin may follow, through the wrapper every stream route has.
    const adminOnly = withApiAuth("users", (request: Request) =>
      eventStreamResponse(openRunEventStream(runId, resumePoint(request), request.signal)),
    );
    const open = async (handler: (request: Request, context: object) => Promise<Response>, groups: string) => {
      const response = await handler(
        new Request(`http://localhost/api/runs/${runId}/events`, { headers: asProxy(groups) }),
        {},
      );
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      let text = "";
      const ended = (async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return text;
          text += new TextDecoder().decode(value);
        }
      })();
      return { ended, text: () => text, stop: () => reader.cancel() };
    };
    const { GET: runEvents } = await import("@/app/api/runs/[id]/events/route");
    const readStream = await open(
      (request) => runEvents(request, { params: Promise.resolve({ id: String(runId) }) }),
      "lab-admins",
    );
    const adminStream = await open(adminOnly, "lab-admins");
    await sleep(2_500);
    runBus.publish(runId, "status", { status: "running" });
    await sleep(50);
    expect(adminStream.text()).toContain("event: status");
    expect(adminStream.text()).not.toContain("event: error");

    // The proxy's next request for dana carries her groups without lab-admins.
    expect((await api.call("GET", "/api/links", undefined, { token: null, headers: asProxy("lab") })).status).toBe(200);
    await within(adminStream.ended, END_WITHIN_MS, "the end of the admin-only stream");
    expect(lastEvent(adminStream.text())).toEqual({
      event: "error",
      data: {
        kind: "forbidden",
        message: expect.stringMatching(/^Your role \(viewer\) does not allow managing users/),
      },
    });
    // Reading is still hers.
    await sleep(2_500);
    runBus.publish(runId, "sample", { seq: 0 });
    await sleep(50);
    expect(readStream.text()).toContain("event: sample");
    expect(readStream.text()).not.toContain("event: error");

    // Disabled: every stream of hers ends.
    const dana = await api.db.user.findFirstOrThrow({ where: { username: "dana", source: "proxy" } });
    await updateUser(dana.id, { disabled: true }, ADMIN);
    await within(readStream.ended, END_WITHIN_MS, "the end of the disabled user's stream");
    expect(lastEvent(readStream.text())).toEqual({
      event: "error",
      data: { kind: "unauthorized", message: "Your account was disabled: this stream has ended." },
    });
    expect(runBus.listenerCount(runId)).toBe(0);
    runBus.end(runId);
  });
});
