// The presets of the New experiment form: the series the seeds run by hand, as data. Each
// gives the kind, the fields and options to pre-fill and how many links it needs; an option
// that depends on the link (a UDP bitrate at the line rate) is named in `fromLineRate` and
// filled in by presetRequestBody from the link chosen. Pure: the form and the pages use it.
import { INTERFERENCE_LINKS, MESH_LINKS, type BaseRunOptions, type ExperimentKind } from "./contract";
import type { KindFields } from "./kinds/kind";

export const STREAM_SWEEP_PRESET_ID = "stream-sweep";
export const EVERY_DIRECTION_PRESET_ID = "every-direction";
export const BOTH_ROLES_PRESET_ID = "both-roles";
export const PORTS_AT_ONCE_PRESET_ID = "ports-at-once";
export const CHANNELS_PRESET_ID = "channels-40g";
export const UDP_WITHOUT_LOSS_PRESET_ID = "udp-without-loss";
export const WHOLE_LAB_PRESET_ID = "whole-lab";
export const SHARED_BOTTLENECK_PRESET_ID = "shared-bottleneck";
export const A_AGAINST_B_PRESET_ID = "a-against-b";

type PresetOfKind<K extends ExperimentKind> = {
  id: string;
  title: string;
  description: string;
  kind: K;
  /** the kind's fields to pre-fill; the rest take their defaults */
  fields: Partial<KindFields<K>>;
  /** the base run options to pre-fill */
  options: BaseRunOptions;
  /** options set to the (first) link's line rate in bits/s when the links are chosen */
  fromLineRate: "bitrate"[];
  /** one link, exactly two, or two or more (up to maxLinks) */
  links: 1 | 2 | "2+";
  /** with links "2+": at most this many (the kind's own limit) */
  maxLinks?: number;
};

export type ExperimentPreset = { [K in ExperimentKind]: PresetOfKind<K> }[ExperimentKind];

export const EXPERIMENT_PRESETS: readonly ExperimentPreset[] = [
  {
    id: STREAM_SWEEP_PRESET_ID,
    title: "How many streams?",
    description: "TCP with 1, 2, 3, 4, 5 and 8 streams: how many it takes to fill the link",
    kind: "sweep",
    fields: { factor: "parallel", values: [1, 2, 3, 4, 5, 8] },
    options: {},
    fromLineRate: [],
    links: 1,
  },
  {
    id: EVERY_DIRECTION_PRESET_ID,
    title: "Every direction",
    description: "TCP a→b, b→a and both at once: is one direction slower?",
    kind: "matrix",
    fields: { directions: ["a-to-b", "b-to-a", "bidir"], protocols: ["tcp"], clientSides: ["a"] },
    options: {},
    fromLineRate: [],
    links: 1,
  },
  {
    id: BOTH_ROLES_PRESET_ID,
    title: "Both roles, TCP and UDP",
    description: "Each way, with either end as the client, TCP beside UDP at the line rate",
    kind: "matrix",
    fields: { directions: ["a-to-b", "b-to-a"], protocols: ["tcp", "udp"], clientSides: ["a", "b"] },
    options: {},
    fromLineRate: ["bitrate"],
    links: 1,
  },
  {
    id: PORTS_AT_ONCE_PRESET_ID,
    title: "Ports at once, with each alone first",
    description: "Each link alone, then all together: does a shared slot or uplink hold them back?",
    kind: "concurrent",
    fields: { baseline: true },
    options: {},
    fromLineRate: [],
    links: "2+",
  },
  {
    id: CHANNELS_PRESET_ID,
    title: "Channels for 40G+",
    description: "4 iperf3 pairs on 4 ports, 3 streams each, added up: past one process's single thread",
    kind: "channels",
    fields: { channels: 4, affinity: false },
    options: { parallel: 3 },
    fromLineRate: [],
    links: 1,
  },
  {
    id: UDP_WITHOUT_LOSS_PRESET_ID,
    title: "UDP without loss",
    description: "The highest UDP bitrate that loses at most 0.1%, searched up to the line rate",
    kind: "udp-ceiling",
    fields: {},
    options: {},
    fromLineRate: [],
    links: 1,
  },
  {
    id: WHOLE_LAB_PRESET_ID,
    title: "The whole lab",
    description: "Every link chosen, each way, one run at a time: the grid of the lab, and its slowest pair",
    kind: "mesh",
    fields: {},
    options: {},
    fromLineRate: [],
    links: "2+",
    maxLinks: MESH_LINKS.max,
  },
  {
    id: SHARED_BOTTLENECK_PRESET_ID,
    title: "Which links share a bottleneck?",
    description: "Each link alone, then every pair together: which ports, slots, uplinks or switches are shared",
    kind: "interference",
    fields: {},
    options: {},
    fromLineRate: [],
    links: "2+",
    maxLinks: INTERFERENCE_LINKS.max,
  },
  {
    id: A_AGAINST_B_PRESET_ID,
    title: "A against B",
    description:
      "Two links with the same options, run alternately 5 times each: how much faster is one, and is it clear?",
    kind: "versus",
    fields: { repeats: 5 },
    options: {},
    fromLineRate: [],
    links: 2,
  },
];

export function presetById(id: string | null | undefined): ExperimentPreset | undefined {
  return EXPERIMENT_PRESETS.find((preset) => preset.id === id);
}

/** Whether a preset fits this many links. */
export function presetFitsLinks(preset: ExperimentPreset, count: number): boolean {
  if (preset.links === "2+") return count >= 2 && count <= (preset.maxLinks ?? Infinity);
  return count === preset.links;
}

/**
 * The `POST /api/experiments` body of a preset on the links chosen. A link without a speed
 * leaves a line-rate option out, and the server's 400 names it for the user to fill in.
 */
export function presetRequestBody(
  preset: ExperimentPreset,
  links: readonly { id: number; speedMbps: number }[],
): Record<string, unknown> {
  const options: BaseRunOptions = { ...preset.options };
  const speedMbps = links[0]?.speedMbps ?? 0;
  for (const option of preset.fromLineRate) if (speedMbps > 0) options[option] = speedMbps * 1e6;
  return { kind: preset.kind, linkIds: links.map((link) => link.id), options, ...preset.fields };
}
