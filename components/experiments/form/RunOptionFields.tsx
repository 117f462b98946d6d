"use client";

import { textBinder, type TextKey } from "@/components/forms/field-binding";
import { TextField } from "@/components/ui/ui";
import type { RunDirection } from "@/lib/runs/contract";
import {
  directionUnavailableReason,
  unavailableReason,
  withProtocol,
  type GatedOption,
  type NewTestFields,
  type TestEnd,
} from "@/lib/runs/test-request";
import { ChoiceGroup } from "./ChoiceGroup";

type Props = {
  fields: NewTestFields;
  onChange: (fields: NewTestFields) => void;
  /** the fields the experiment's kind sets itself: not shown */
  hidden: ReadonlySet<keyof NewTestFields>;
  /** every end of the links chosen: an option one of them lacks is disabled with the reason */
  ends: readonly TestEnd[];
  /** what the two ends are called: the hosts' names with one link, A and B with several */
  endNames: { a: string; b: string };
  /** the first link's speed, once one is chosen: UDP starts from its line rate */
  speedMbps: number | null;
  /** the server's messages, by form key (`base.parallel`, …) */
  errors: Record<string, string | undefined>;
  parallelLabel?: string;
  bitrateLabel?: string;
};

/**
 * The options every run of the experiment starts from, typed as the new-test form types them
 * (lib/runs/test-request.ts): protocol, direction, client side, duration, streams, warm-up, bitrate.
 */
export function RunOptionFields({
  fields,
  onChange,
  hidden,
  ends,
  endNames,
  speedMbps,
  errors,
  parallelLabel = "Streams (-P)",
  bitrateLabel,
}: Props) {
  const set = <K extends keyof NewTestFields>(key: K, value: NewTestFields[K]) => onChange({ ...fields, [key]: value });
  const reason = (option: GatedOption) => unavailableReason(option, ends);
  const isShown = (key: keyof NewTestFields) => !hidden.has(key);
  const gatedHint = (option: GatedOption, hint: string) => {
    const why = reason(option);
    return why ? <span className="text-amber-800 dark:text-amber-300">Unavailable: {why}</span> : hint;
  };
  // The server names these fields `base.<key>`.
  const baseErrors = Object.fromEntries(
    Object.entries(errors).flatMap(([key, message]) => (key.startsWith("base.") ? [[key.slice(5), message]] : [])),
  );
  const field = textBinder(fields, (next) => onChange({ ...fields, ...next }), baseErrors);
  /** A text option an end's iperf3 may lack: then disabled, the reason in place of its hint. */
  const gatedField = (option: GatedOption & TextKey<NewTestFields>, hint: string, name?: string) => ({
    ...field(option, name),
    disabled: Boolean(reason(option)),
    hint: gatedHint(option, hint),
  });
  const isUdp = fields.protocol === "udp";
  const directions: Array<{ value: RunDirection; label: string }> = [
    { value: "a-to-b", label: `${endNames.a} → ${endNames.b}` },
    { value: "b-to-a", label: `${endNames.b} → ${endNames.a}` },
    { value: "bidir", label: "Both ways" },
  ];
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {isShown("protocol") ? (
        <ChoiceGroup
          legend="Protocol"
          choices={[
            { value: "tcp", label: "TCP" },
            { value: "udp", label: "UDP" },
          ]}
          selected={[fields.protocol]}
          onChange={([protocol]) =>
            onChange(
              speedMbps === null ? { ...fields, protocol: protocol! } : withProtocol(fields, protocol!, speedMbps),
            )
          }
          error={errors["base.protocol"]}
        />
      ) : null}
      {isShown("direction") ? (
        <div className="sm:col-span-2">
          <ChoiceGroup
            legend="Direction"
            choices={directions.map((choice) => ({
              ...choice,
              unavailable: directionUnavailableReason(choice.value, ends),
            }))}
            selected={[fields.direction]}
            onChange={([direction]) => set("direction", direction!)}
            error={errors["base.direction"]}
          />
        </div>
      ) : null}
      {isShown("clientSide") ? (
        <ChoiceGroup
          legend="iperf3 client runs on"
          choices={[
            { value: "a", label: endNames.a },
            { value: "b", label: endNames.b },
          ]}
          selected={[fields.clientSide]}
          onChange={([side]) => set("clientSide", side!)}
          hint="The direction stays the same; -R is added when needed."
          error={errors["base.clientSide"]}
        />
      ) : null}
      <TextField
        label="Duration (-t, seconds)"
        inputMode="numeric"
        hint="Of each run, 1 s to 1 day"
        {...field("duration")}
      />
      {isShown("parallel") ? (
        <TextField label={parallelLabel} inputMode="numeric" {...gatedField("parallel", "1 to 128 parallel streams")} />
      ) : null}
      <TextField
        label="Omit warm-up (-O, seconds)"
        inputMode="numeric"
        {...gatedField("omit", "Left out of the result; adds to each run's time")}
      />
      {isShown("bitrateMbps") ? (
        <TextField
          label={bitrateLabel ?? `Target bitrate (-b, Mbit/s)${isUdp ? "" : ", optional"}`}
          inputMode="decimal"
          {...gatedField(
            "bitrateMbps",
            isUdp || bitrateLabel
              ? `${speedMbps === null ? "" : `Line rate is ${speedMbps} Mbit/s; `}0 = unlimited`
              : "Empty: as fast as possible",
            "bitrate",
          )}
        />
      ) : null}
    </div>
  );
}
