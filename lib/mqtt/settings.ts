// Home Assistant over MQTT: the settings, read from the environment at start. Pure: no I/O.

type Env = Record<string, string | undefined>;

/** Where Wirespeed publishes, as the environment says it; null when WIRESPEED_MQTT_URL is unset. */
export type MqttSettings = {
  /** mqtt:// or mqtts://, as given (a user and password in it are used as the broker's login). */
  url: string;
  username: string | undefined;
  /** Never logged, never shown. */
  password: string | undefined;
  /** Home Assistant's discovery prefix (WIRESPEED_MQTT_PREFIX, default `homeassistant`). */
  prefix: string;
};

/** Wirespeed's own topics start with this: its availability, each link's state and its button's commands. */
export const BASE_TOPIC = "wirespeed";
export const DEFAULT_DISCOVERY_PREFIX = "homeassistant";

export class MqttConfigError extends Error {}

/** `url` with its password cut out, for the log: `mqtt://ha:***@broker:1883`. Never throws. */
export function redactMqttUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    // Unparseable: whatever sits between "//" and "@" may hold the password.
    return url.replace(/\/\/[^/@]*@/, "//***@");
  }
}

/** A topic level or levels MQTT allows in a name Wirespeed publishes to: no wildcard, no empty level. */
function isTopicPrefix(value: string): boolean {
  return value.length <= 200 && !/[#+\u0000]/.test(value) && value.split("/").every((level) => level.length > 0);
}

/**
 * The MQTT settings of the environment, or null without WIRESPEED_MQTT_URL. Throws MqttConfigError,
 * one sentence naming the variable, for a URL that is not mqtt:// or mqtts://, or a bad prefix.
 */
export function resolveMqttSettings(env: Env = process.env): MqttSettings | null {
  const raw = env.WIRESPEED_MQTT_URL?.trim();
  if (!raw) {
    if (env.WIRESPEED_MQTT_USERNAME || env.WIRESPEED_MQTT_PASSWORD)
      throw new MqttConfigError(
        "WIRESPEED_MQTT_USERNAME or WIRESPEED_MQTT_PASSWORD is set without WIRESPEED_MQTT_URL: set the broker's URL too (mqtt://broker:1883)",
      );
    return null;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new MqttConfigError(
      `WIRESPEED_MQTT_URL is not a URL (${redactMqttUrl(raw)}): write it as mqtt://broker:1883 or mqtts://broker:8883`,
    );
  }
  if (url.protocol !== "mqtt:" && url.protocol !== "mqtts:")
    throw new MqttConfigError(
      `WIRESPEED_MQTT_URL must start with mqtt:// or mqtts://, not ${url.protocol}// (${redactMqttUrl(raw)})`,
    );
  if (!url.hostname) throw new MqttConfigError(`WIRESPEED_MQTT_URL names no broker host (${redactMqttUrl(raw)})`);
  const prefix = env.WIRESPEED_MQTT_PREFIX?.trim() || DEFAULT_DISCOVERY_PREFIX;
  if (!isTopicPrefix(prefix) || prefix.startsWith(`${BASE_TOPIC}/`) || prefix === BASE_TOPIC)
    throw new MqttConfigError(
      `WIRESPEED_MQTT_PREFIX must be Home Assistant's discovery prefix (default homeassistant): topic levels without + or #, not empty, not under ${BASE_TOPIC}/`,
    );
  return {
    url: raw,
    username: env.WIRESPEED_MQTT_USERNAME || undefined,
    password: env.WIRESPEED_MQTT_PASSWORD || undefined,
    prefix,
  };
}

/** What is wrong with the MQTT settings of the environment, or null (instrumentation.ts stops on it). */
export function mqttSettingsProblem(env: Env = process.env): string | null {
  try {
    resolveMqttSettings(env);
    return null;
  } catch (error) {
    if (error instanceof MqttConfigError) return error.message;
    throw error;
  }
}

/** At start (instrumentation.ts), before serving: a bad MQTT setting stops the server, saying which. */
export function checkMqttSettings(env: Env = process.env): void {
  const problem = mqttSettingsProblem(env);
  if (!problem) return;
  console.error(`[wirespeed] cannot start: ${problem}`);
  process.exit(1);
}
