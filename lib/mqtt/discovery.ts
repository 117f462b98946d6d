// Home Assistant's MQTT discovery for Wirespeed's links: the topics and payloads, pure (no I/O).
// One device per link, with four sensors and a binary sensor read from one retained JSON state per
// link, a "Run again" button, and the availability of Wirespeed itself on one topic with a last will.
// https://www.home-assistant.io/integrations/mqtt/#mqtt-discovery
import { BASE_TOPIC } from "./settings";

/** What a link's entities show; the publisher reads it with listLinkStatuses (lib/overview/link-status.ts). */
export type LinkFigures = {
  id: number;
  name: string;
  receivedBitsPerSecond: number | null;
  lineRatePercent: number | null;
  loadedLatencyMs: number | null;
  lastRunAt: Date | null;
  firingAlerts: number;
};

/** A message to publish, retained: Home Assistant reads the configs and states again after its restart. */
export type MqttMessage = { topic: string; payload: string };

export const AVAILABILITY_TOPIC = `${BASE_TOPIC}/status`;
export const ONLINE = "online";
export const OFFLINE = "offline";

/** The topics the publisher subscribes to: every link's button, and every link's state (stale links after a restart). */
export const COMMAND_TOPICS = `${BASE_TOPIC}/link/+/run`;
export const STATE_TOPICS = `${BASE_TOPIC}/link/+/state`;

export const stateTopic = (linkId: number) => `${BASE_TOPIC}/link/${linkId}/state`;
export const commandTopic = (linkId: number) => `${BASE_TOPIC}/link/${linkId}/run`;

/** The link a topic of one link is about (its state or its button), or null. */
export function linkIdOfTopic(topic: string, kind: "run" | "state"): number | null {
  const match = new RegExp(`^${BASE_TOPIC}/link/([1-9]\\d{0,9})/${kind}$`).exec(topic);
  if (!match) return null;
  const id = Number(match[1]);
  return id <= 2_147_483_647 ? id : null;
}

/** The JSON of a link's state topic; every sensor reads its field with a value_template. */
export type LinkState = {
  /** Mbit/s, one decimal. */
  rate: number | null;
  /** Percent of the line rate, one decimal. */
  lineRatePercent: number | null;
  /** Milliseconds, one decimal. */
  loadedLatency: number | null;
  /** ISO 8601. */
  lastRunAt: string | null;
  /** The binary sensor's ON or OFF. */
  alert: "ON" | "OFF";
};

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

export function linkState(link: LinkFigures): LinkState {
  return {
    rate: link.receivedBitsPerSecond === null ? null : oneDecimal(link.receivedBitsPerSecond / 1e6),
    lineRatePercent: link.lineRatePercent,
    loadedLatency: link.loadedLatencyMs === null ? null : oneDecimal(link.loadedLatencyMs),
    lastRunAt: link.lastRunAt?.toISOString() ?? null,
    alert: link.firingAlerts > 0 ? "ON" : "OFF",
  };
}

type Entity = {
  component: "sensor" | "binary_sensor" | "button";
  object: string;
  name: string;
  /** Everything else of its config. */
  fields: (linkId: number) => Record<string, unknown>;
};

// A null field renders as "None", which Home Assistant shows as unknown.
const fromState = (key: keyof LinkState) => (linkId: number) => ({
  state_topic: stateTopic(linkId),
  value_template: `{{ value_json.${key} }}`,
});

export const ENTITIES: readonly Entity[] = [
  {
    component: "sensor",
    object: "rate",
    name: "Received rate",
    fields: (linkId) => ({
      ...fromState("rate")(linkId),
      unit_of_measurement: "Mbit/s",
      device_class: "data_rate",
      state_class: "measurement",
      suggested_display_precision: 0,
    }),
  },
  {
    component: "sensor",
    object: "line_rate",
    name: "Share of line rate",
    fields: (linkId) => ({
      ...fromState("lineRatePercent")(linkId),
      unit_of_measurement: "%",
      state_class: "measurement",
      suggested_display_precision: 1,
      icon: "mdi:speedometer",
    }),
  },
  {
    component: "sensor",
    object: "loaded_latency",
    name: "Loaded latency",
    fields: (linkId) => ({
      ...fromState("loadedLatency")(linkId),
      unit_of_measurement: "ms",
      state_class: "measurement",
      suggested_display_precision: 1,
      icon: "mdi:timer-outline",
    }),
  },
  {
    component: "sensor",
    object: "last_run",
    name: "Last run",
    // A timestamp has no state class: Home Assistant refuses one.
    fields: (linkId) => ({ ...fromState("lastRunAt")(linkId), device_class: "timestamp" }),
  },
  {
    component: "binary_sensor",
    object: "alert",
    name: "Alert firing",
    fields: (linkId) => ({
      ...fromState("alert")(linkId),
      device_class: "problem",
      payload_on: "ON",
      payload_off: "OFF",
    }),
  },
  {
    component: "button",
    object: "run_again",
    name: "Run again",
    fields: (linkId) => ({ command_topic: commandTopic(linkId), payload_press: "PRESS", icon: "mdi:play" }),
  },
];

export const entityId = (linkId: number, object: string) => `wirespeed_link_${linkId}_${object}`;

export const configTopic = (prefix: string, entity: Pick<Entity, "component" | "object">, linkId: number) =>
  `${prefix}/${entity.component}/${entityId(linkId, entity.object)}/config`;

/**
 * The discovery configs of a link's six entities. `publicUrl` (WIRESPEED_PUBLIC_URL) makes the
 * device's "Visit" link open the link's page.
 */
export function discoveryMessages(link: Pick<LinkFigures, "id" | "name">, prefix: string, publicUrl?: string | null) {
  const device = {
    identifiers: [`wirespeed_link_${link.id}`],
    name: link.name,
    manufacturer: "Wirespeed",
    model: "link",
    ...(publicUrl ? { configuration_url: `${publicUrl}/links/${link.id}` } : {}),
  };
  return ENTITIES.map((entity): MqttMessage => ({
    topic: configTopic(prefix, entity, link.id),
    payload: JSON.stringify({
      unique_id: entityId(link.id, entity.object),
      object_id: entityId(link.id, entity.object),
      name: entity.name,
      ...entity.fields(link.id),
      availability_topic: AVAILABILITY_TOPIC,
      payload_available: ONLINE,
      payload_not_available: OFFLINE,
      device,
      origin: { name: "Wirespeed" },
    }),
  }));
}

export function stateMessage(link: LinkFigures): MqttMessage {
  return { topic: stateTopic(link.id), payload: JSON.stringify(linkState(link)) };
}

/** What takes a deleted link out of Home Assistant: an empty retained config for each entity, and its state cleared. */
export function removalMessages(linkId: number, prefix: string): MqttMessage[] {
  return [
    ...ENTITIES.map((entity) => ({ topic: configTopic(prefix, entity, linkId), payload: "" })),
    { topic: stateTopic(linkId), payload: "" },
  ];
}
