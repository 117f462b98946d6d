import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase } from "@/testing/database";
import { insertLocalLink } from "@/testing/local-links";
import { startHttpReceiver, type HttpReceiver } from "@/testing/notification-receivers";
import { AppError } from "@/lib/errors";
import { createChannel, getChannel, loadChannelForDelivery, updateChannel } from "@/lib/notify/channels";
import { sendTestNotification } from "@/lib/notify/deliver";
import { createAlertRule, getAlertRule, updateAlertRule } from "@/lib/alerts/rules";
import { describeConditions, RULE_FORM_DEFAULTS, ruleFieldsOf, ruleRequestBody } from "./rule-fields";
import { fieldErrorsByKey } from "@/components/forms/use-action-form";

// The channel and rule forms' fields against the real stores on a real SQLite file: what each
// form sends is accepted, an edit that leaves a secret empty keeps it (and "Remove it" clears
// it), a stored channel or rule read back into the form saves unchanged, the store's messages
// land by the fields that show them, and Send test's words come from a real delivery.

const database: TestDatabase = await openTestDatabase();
const { db } = database;
// After the test database: these modules open the database when loaded.
const {
  channelFieldsOf,
  channelFieldOf,
  channelRequestBody,
  describeDelivery,
  describeDestination,
  fieldValue,
  newChannelFields,
  secretsDroppedOnSave,
  withCleared,
  withValue,
} = await import("./channel-fields");
const byKeyOf = (errors: { field: string; message: string }[]) => fieldErrorsByKey(errors, channelFieldOf);

let receiver: HttpReceiver;
let linkId = 0;

async function refusal(work: Promise<unknown>): Promise<{ field: string; message: string }[]> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError) || (error.kind !== "invalid" && error.kind !== "conflict"))
    throw new Error(`expected a 400 or 409, got ${String(error)}`);
  return error.fields;
}

beforeAll(async () => {
  receiver = await startHttpReceiver();
  linkId = await insertLocalLink(db, { hosts: ["a", "b"], subnet: 0, name: "nas-10g", speedMbps: 10_000 });
});

afterEach(() => {
  receiver.requests.length = 0;
  receiver.respondWith(200, 0);
});

afterAll(async () => {
  await receiver.close();
  await database.close();
});

describe("the channel form", () => {
  it("creates a webhook with its secret sealed, and an edit that leaves the secret empty keeps it", async () => {
    let fields = withValue(
      withValue({ ...newChannelFields("webhook"), name: "lab hook" }, "url", `${receiver.url}/hook`),
      "secret",
      "shared secret",
    );
    const created = await createChannel(channelRequestBody(fields, false));
    expect(created).toMatchObject({ type: "webhook", config: { url: `${receiver.url}/hook` }, secretsSet: ["secret"] });
    expect(describeDestination(created)).toBe(`${receiver.url}/hook`);

    // Read back: the URL as stored, the secret empty (never sent to the browser).
    fields = channelFieldsOf(created);
    expect(fieldValue(fields, "url")).toBe(`${receiver.url}/hook`);
    expect(fieldValue(fields, "secret")).toBe("");
    const renamed = await updateChannel(created.id, channelRequestBody({ ...fields, name: "lab webhook" }, true));
    expect(renamed).toMatchObject({ name: "lab webhook", secretsSet: ["secret"] });
    const delivery = await loadChannelForDelivery(created.id);
    expect(delivery?.config).toEqual({ url: `${receiver.url}/hook`, secret: "shared secret" });

    // "Remove it" clears an optional secret.
    await updateChannel(created.id, channelRequestBody(withCleared(fields, "secret", true), true));
    expect((await getChannel(created.id))?.secretsSet).toEqual([]);
    expect((await loadChannelForDelivery(created.id))?.config).toEqual({ url: `${receiver.url}/hook` });
  });

  it("sends an email channel's port as a number and its checkbox as a boolean; an empty user name is cleared on edit", async () => {
    let fields = { ...newChannelFields("email"), name: "mail" };
    for (const [key, value] of Object.entries({
      host: "127.0.0.1",
      port: "2525",
      security: "none",
      username: "wirespeed",
      password: "hunter2",
      from: "wirespeed@nas.lan",
      to: "me@nas.lan, you@nas.lan",
    })) {
      fields = withValue(fields, key, value);
    }
    fields = withValue(fields, "insecureTls", true);
    const created = await createChannel(channelRequestBody(fields, false));
    expect(created.config).toEqual({
      host: "127.0.0.1",
      port: 2525,
      security: "none",
      username: "wirespeed",
      from: "wirespeed@nas.lan",
      to: "me@nas.lan, you@nas.lan",
      insecureTls: true,
    });
    expect(created.secretsSet).toEqual(["password"]);

    const edited = await updateChannel(
      created.id,
      channelRequestBody(withValue(channelFieldsOf(created), "username", ""), true),
    );
    expect(edited.config).not.toHaveProperty("username");
    expect(edited.secretsSet).toEqual(["password"]);
  });

  it("says which stored secrets an edit that moves the channel drops, as the save then does", async () => {
    const created = await createChannel(
      channelRequestBody(
        withValue(
          withValue({ ...newChannelFields("ntfy"), name: "topic" }, "url", `${receiver.url}/topic`),
          "token",
          "tk_form-token",
        ),
        false,
      ),
    );
    const fields = channelFieldsOf(created);
    expect(secretsDroppedOnSave(created, fields)).toEqual([]);
    const moved = withValue(fields, "url", `${receiver.url}/elsewhere`);
    expect(secretsDroppedOnSave(created, moved)).toEqual(["token"]);
    // Typed again, it moves with the channel.
    expect(secretsDroppedOnSave(created, withValue(moved, "token", "tk_form-token"))).toEqual([]);
    // The store agrees with what the form said.
    expect((await updateChannel(created.id, channelRequestBody(moved, true))).secretsSet).toEqual([]);
  });

  it("keeps a Discord URL, a secret of its own, when the edit leaves it empty", async () => {
    const created = await createChannel(
      channelRequestBody(
        withValue({ ...newChannelFields("discord"), name: "discord" }, "url", `${receiver.url}/api/webhooks/1/abc`),
        false,
      ),
    );
    expect(created.config).toEqual({});
    expect(describeDestination(created)).toBe("URL set (kept sealed)");
    await updateChannel(created.id, channelRequestBody(channelFieldsOf(created), true));
    expect((await loadChannelForDelivery(created.id))?.config).toEqual({ url: `${receiver.url}/api/webhooks/1/abc` });
  });

  it("places the store's messages by the config field they name", async () => {
    const fields = withValue({ ...newChannelFields("gotify"), name: "gotify" }, "url", "ftp://gotify.lan");
    const byField = byKeyOf(await refusal(createChannel(channelRequestBody(fields, false))));
    expect(Object.keys(byField).sort()).toEqual(["token", "url"]);
    expect(byField.url).toMatch(/http/);
    await createChannel(
      channelRequestBody(withValue(withValue(fields, "url", "http://gotify.lan"), "token", "A1b2C3"), false),
    );
    expect(
      byKeyOf(
        await refusal(
          createChannel(
            channelRequestBody(withValue(withValue(fields, "url", "http://gotify.lan"), "token", "A1b2C3"), false),
          ),
        ),
      ),
    ).toEqual({ name: expect.any(String) });
  });

  it("says how Send test went: sent, or failed after its attempt with the receiver's answer", async () => {
    const channel = await createChannel(
      channelRequestBody(
        withValue({ ...newChannelFields("ntfy"), name: "ntfy test" }, "url", `${receiver.url}/wirespeed`),
        false,
      ),
    );
    expect(describeDelivery(await sendTestNotification(channel.id))).toBe("sent");
    expect(receiver.requests).toHaveLength(1);
    receiver.respondWith(500);
    expect(describeDelivery(await sendTestNotification(channel.id))).toMatch(/^failed after 1 attempt: .*500/);
  });
});

describe("the rule form", () => {
  it("creates the default rule and a link's rule with its channels, and reads each back unchanged", async () => {
    const channel = await createChannel({
      name: "rule hook",
      type: "webhook",
      config: { url: `${receiver.url}/rules` },
    });
    const byDefault = await createAlertRule(ruleRequestBody({ ...RULE_FORM_DEFAULTS, name: "slower than usual" }));
    expect(byDefault).toMatchObject({
      linkId: null,
      belowBaselinePercent: 80,
      belowLineRatePercent: null,
      failed: true,
      m: 2,
      n: 3,
      channels: [],
      enabled: true,
    });

    const own = await createAlertRule(
      ruleRequestBody({
        ...RULE_FORM_DEFAULTS,
        name: "below line rate",
        linkId: String(linkId),
        belowBaselinePercent: "",
        belowLineRatePercent: "100",
        failed: false,
        m: "1",
        n: "1",
        channelIds: [channel.id],
      }),
    );
    expect(own).toMatchObject({
      link: { id: linkId, name: "nas-10g" },
      belowBaselinePercent: null,
      belowLineRatePercent: 100,
      failed: false,
      m: 1,
      n: 1,
      channels: [{ id: channel.id, name: "rule hook" }],
    });
    expect(describeConditions(own)).toBe("below 100% of the line rate");
    expect(describeConditions(byDefault)).toBe("below 80% of the baseline or failed");

    const fields = ruleFieldsOf(own);
    expect(fields).toMatchObject({
      linkId: String(linkId),
      belowBaselinePercent: "",
      belowLineRatePercent: "100",
      m: "1",
      n: "1",
      channelIds: [channel.id],
    });
    const saved = await updateAlertRule(own.id, ruleRequestBody(fields));
    expect({ ...saved, updatedAt: "" }).toEqual({ ...(await getAlertRule(own.id)), updatedAt: "" });
    expect(saved).toMatchObject({ linkId, belowLineRatePercent: 100, m: 1, n: 1, channels: [{ id: channel.id }] });

    // Back to the default from the edit form: the link's select left on "Every link".
    expect((await updateAlertRule(own.id, ruleRequestBody({ ...fields, linkId: "" }))).linkId).toBeNull();
  });

  it("names m when it is above n, and the first condition when there is none", async () => {
    const fields = await refusal(
      createAlertRule(
        ruleRequestBody({
          ...RULE_FORM_DEFAULTS,
          name: "bad",
          belowBaselinePercent: "",
          failed: false,
          m: "4",
          n: "3",
        }),
      ),
    );
    expect(fields.map((entry) => entry.field).sort()).toEqual(["belowBaselinePercent", "m"]);
    const empty = await refusal(
      createAlertRule(ruleRequestBody({ ...RULE_FORM_DEFAULTS, name: "bad", m: "", belowLineRatePercent: "many" })),
    );
    expect(empty.map((entry) => entry.field).sort()).toEqual(["belowLineRatePercent", "m"]);
  });
});
