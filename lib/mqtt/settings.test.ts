import { describe, expect, it } from "vitest";
import { discoveryMessages, linkIdOfTopic, linkState, removalMessages } from "./discovery";
import { mqttSettingsProblem, redactMqttUrl, resolveMqttSettings } from "./settings";

// The MQTT settings as the server reads them at start, and the discovery payloads' pure parts.

describe("resolveMqttSettings", () => {
  it("is off without WIRESPEED_MQTT_URL, and takes mqtt:// and mqtts:// with the prefix defaulting to homeassistant", () => {
    expect(resolveMqttSettings({})).toBeNull();
    expect(resolveMqttSettings({ WIRESPEED_MQTT_URL: "mqtt://broker.lan:1883" })).toEqual({
      url: "mqtt://broker.lan:1883",
      username: undefined,
      password: undefined,
      prefix: "homeassistant",
    });
    expect(
      resolveMqttSettings({
        WIRESPEED_MQTT_URL: "mqtts://broker.lan:8883",
        WIRESPEED_MQTT_USERNAME: "wirespeed",
        WIRESPEED_MQTT_PASSWORD: "s3cret",
        WIRESPEED_MQTT_PREFIX: "ha/discovery",
      }),
    ).toEqual({ url: "mqtts://broker.lan:8883", username: "wirespeed", password: "s3cret", prefix: "ha/discovery" });
  });

  it.each([
    [{ WIRESPEED_MQTT_URL: "http://broker.lan:1883" }, "WIRESPEED_MQTT_URL must start with mqtt:// or mqtts://"],
    [{ WIRESPEED_MQTT_URL: "ws://user:hunter2@broker.lan" }, "not ws://"],
    [{ WIRESPEED_MQTT_URL: "broker.lan:1883" }, "WIRESPEED_MQTT_URL must start with mqtt:// or mqtts://"],
    [{ WIRESPEED_MQTT_URL: "not a url" }, "WIRESPEED_MQTT_URL is not a URL"],
    [{ WIRESPEED_MQTT_URL: "mqtt://b", WIRESPEED_MQTT_PREFIX: "home/#" }, "WIRESPEED_MQTT_PREFIX"],
    [{ WIRESPEED_MQTT_URL: "mqtt://b", WIRESPEED_MQTT_PREFIX: "wirespeed" }, "WIRESPEED_MQTT_PREFIX"],
    [{ WIRESPEED_MQTT_PASSWORD: "hunter2" }, "without WIRESPEED_MQTT_URL"],
  ])("refuses %j, naming the variable", (env, message) => {
    const problem = mqttSettingsProblem(env);
    expect(problem).toContain(message);
    expect(problem).not.toContain("hunter2");
  });
});

describe("redactMqttUrl", () => {
  it("cuts the password out of a URL, parseable or not", () => {
    expect(redactMqttUrl("mqtt://ha:hunter2@broker:1883")).toBe("mqtt://ha:***@broker:1883");
    expect(redactMqttUrl("mqtt://broker:1883")).toBe("mqtt://broker:1883");
    expect(redactMqttUrl("mqtt://ha:hun ter2@[bad")).toBe("mqtt://***@[bad");
  });
});

describe("discovery", () => {
  const link = {
    id: 7,
    name: "nas 10G",
    receivedBitsPerSecond: 9_412_345_678,
    lineRatePercent: 94.1,
    loadedLatencyMs: 1.234,
    lastRunAt: new Date("2027-01-10T08:00:10.000Z"),
    firingAlerts: 0,
  };

  it("turns a link's figures into its state: Mbit/s and ms to one decimal, ON while an alert fires", () => {
    expect(linkState(link)).toStrictEqual({
      rate: 9412.3,
      lineRatePercent: 94.1,
      loadedLatency: 1.2,
      lastRunAt: "2027-01-10T08:00:10.000Z",
      alert: "OFF",
    });
    expect(linkState({ ...link, firingAlerts: 2, receivedBitsPerSecond: null, lastRunAt: null })).toMatchObject({
      rate: null,
      lastRunAt: null,
      alert: "ON",
    });
  });

  it("names six entities under the prefix, with the device's page when WIRESPEED_PUBLIC_URL is set, and removes them with empty payloads", () => {
    const messages = discoveryMessages(link, "ha", "https://wirespeed.lab");
    expect(messages.map((message) => message.topic)).toEqual([
      "ha/sensor/wirespeed_link_7_rate/config",
      "ha/sensor/wirespeed_link_7_line_rate/config",
      "ha/sensor/wirespeed_link_7_loaded_latency/config",
      "ha/sensor/wirespeed_link_7_last_run/config",
      "ha/binary_sensor/wirespeed_link_7_alert/config",
      "ha/button/wirespeed_link_7_run_again/config",
    ]);
    expect(JSON.parse(messages[0]!.payload).device).toStrictEqual({
      identifiers: ["wirespeed_link_7"],
      name: "nas 10G",
      manufacturer: "Wirespeed",
      model: "link",
      configuration_url: "https://wirespeed.lab/links/7",
    });
    expect(removalMessages(7, "ha")).toEqual([
      ...messages.map((message) => ({ topic: message.topic, payload: "" })),
      { topic: "wirespeed/link/7/state", payload: "" },
    ]);
  });

  it("reads the link of a command or state topic, and nothing else", () => {
    expect(linkIdOfTopic("wirespeed/link/12/run", "run")).toBe(12);
    expect(linkIdOfTopic("wirespeed/link/12/state", "state")).toBe(12);
    for (const topic of [
      "wirespeed/link/12/state",
      "wirespeed/link/0/run",
      "wirespeed/link/1x/run",
      "x/wirespeed/link/1/run",
    ])
      expect(linkIdOfTopic(topic, "run")).toBeNull();
  });
});
