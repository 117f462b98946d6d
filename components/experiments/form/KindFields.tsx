"use client";

import { textBinder } from "@/components/forms/field-binding";
import { CheckboxField as Checkbox, SelectField, TextField } from "@/components/ui/ui";
import {
  CHANNELS,
  MAX_SWEEP_REPEATS,
  MAX_SWEEP_VALUES,
  SHARED_BOTTLENECK_PERCENT,
  SWEEP_FACTORS,
  VERSUS_REPEATS,
  type SweepFactor,
} from "@/lib/experiments/contract";
import { SWEEP_FACTOR_LABELS } from "@/lib/experiments/kinds/sweep";
import { UDP_CEILING } from "@/lib/experiments/kinds/udp-ceiling";
import { directionUnavailableReason, isGatedOption, unavailableReason, type TestEnd } from "@/lib/runs/test-request";
import { LATENCY_OPTION_LABEL } from "@/components/diagnosis/latency-option";
import { ChoiceGroup } from "./ChoiceGroup";
import { sweptFieldOf, type ExperimentFormFields } from "./fields";

type Props = {
  fields: ExperimentFormFields;
  onChange: (change: Partial<ExperimentFormFields>) => void;
  errors: Record<string, string | undefined>;
  ends: readonly TestEnd[];
  endNames: { a: string; b: string };
  /** the first link's speed, once one is chosen */
  speedMbps: number | null;
};

const VALUE_HINTS: Record<SweepFactor, string> = {
  parallel: "Stream counts, e.g. 1, 2, 4, 8",
  length: "Buffer lengths in bytes, or with K/M: 8K, 32K, 128K",
  window: "Socket buffers in bytes, or with K/M: 256K, 1M, 4M",
  mss: "Segment sizes in bytes, e.g. 536, 1460, 8960",
  congestion: "Algorithms the hosts have, e.g. cubic, bbr, reno",
  zerocopy: "on, off",
  bitrate: "Mbit/s, e.g. 100, 500, 1000",
};

// One value of a versus's option, as its side's field takes it.
const VARIANT_HINTS: Record<SweepFactor, string> = {
  parallel: "A stream count, e.g. 4",
  length: "Bytes, or with K/M: 128K",
  window: "Bytes, or with K/M: 4M",
  mss: "Bytes, e.g. 8960",
  congestion: "An algorithm both hosts have: cubic, bbr, reno",
  zerocopy: "on or off",
  bitrate: "Mbit/s, e.g. 500",
};

/** Why an end's iperf3 cannot set the option a sweep or versus changes, or null. */
function factorUnavailable(factor: SweepFactor, ends: readonly TestEnd[]): string | null {
  const option = sweptFieldOf(factor);
  return isGatedOption(option) ? unavailableReason(option, ends) : null;
}

/**
 * The fields of the experiment's kind: what a sweep steps through, a matrix's cells, the links
 * together, the channels, the UDP search; then, for every kind, whether each run measures latency.
 */
export function KindFields(props: Props) {
  const { fields, onChange } = props;
  return (
    <div className="space-y-4">
      <FieldsOfKind {...props} />
      <Checkbox
        label={LATENCY_OPTION_LABEL}
        hint="In every run of the plan: the round-trip time from each client host to its server while the link is idle, then under the plan's traffic."
        checked={fields.latency}
        onChange={(latency) => onChange({ latency })}
      />
    </div>
  );
}

function FieldsOfKind({ fields, onChange, errors, ends, endNames, speedMbps }: Props) {
  const field = textBinder(fields, onChange, errors);
  switch (fields.kind) {
    case "sweep": {
      const factorReason = (factor: SweepFactor) => factorUnavailable(factor, ends);
      return (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <SelectField
            label="Option to step through"
            name="factor"
            value={fields.factor}
            onChange={(event) => onChange({ factor: event.target.value as SweepFactor })}
            error={errors.factor}
            hint={
              factorReason(fields.factor)
                ? `Unavailable: ${factorReason(fields.factor)}`
                : "Every other option stays as set below"
            }
          >
            {SWEEP_FACTORS.map((factor) => (
              <option key={factor} value={factor} disabled={Boolean(factorReason(factor))}>
                {SWEEP_FACTOR_LABELS[factor]}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Values"
            hint={`${VALUE_HINTS[fields.factor]}; up to ${MAX_SWEEP_VALUES}`}
            {...field("values")}
          />
          <TextField
            label="Runs per value"
            inputMode="numeric"
            hint={`1 to ${MAX_SWEEP_REPEATS}: the median is shown, with min and max`}
            {...field("repeats")}
          />
          <TextField
            label="Knee (% of the best)"
            inputMode="decimal"
            hint="The answer is the smallest value whose median reaches this share of the best"
            {...field("kneePercent")}
          />
        </div>
      );
    }
    case "matrix":
      return (
        <div className="grid gap-4 sm:grid-cols-3">
          <ChoiceGroup
            legend="Directions"
            multiple
            choices={[
              {
                value: "a-to-b",
                label: `${endNames.a} → ${endNames.b}`,
                unavailable: directionUnavailableReason("a-to-b", ends),
              },
              {
                value: "b-to-a",
                label: `${endNames.b} → ${endNames.a}`,
                unavailable: directionUnavailableReason("b-to-a", ends),
              },
              { value: "bidir", label: "Both ways", unavailable: directionUnavailableReason("bidir", ends) },
            ]}
            selected={fields.directions}
            onChange={(directions) => onChange({ directions })}
            error={errors.directions}
          />
          <ChoiceGroup
            legend="Protocols"
            multiple
            choices={[
              { value: "tcp", label: "TCP" },
              { value: "udp", label: "UDP" },
            ]}
            selected={fields.protocols}
            onChange={(protocols) =>
              // UDP without a bitrate would send 1 Mbit/s: its cells start from the line rate.
              onChange(
                protocols.includes("udp") && !fields.base.bitrateMbps && speedMbps !== null
                  ? { protocols, base: { ...fields.base, bitrateMbps: String(speedMbps) } }
                  : { protocols },
              )
            }
            error={errors.protocols}
          />
          <ChoiceGroup
            legend="iperf3 client on"
            multiple
            choices={[
              { value: "a", label: endNames.a },
              { value: "b", label: endNames.b },
            ]}
            selected={fields.clientSides}
            onChange={(clientSides) => onChange({ clientSides })}
            hint="Both: the roles of the two ends are swapped for a second set of rows"
            error={errors.clientSides}
          />
        </div>
      );
    case "concurrent":
      return (
        <Checkbox
          label="Measure each link alone first"
          hint={`Then the answer compares the links together with the sum of each alone, and flags a shared bottleneck below ${SHARED_BOTTLENECK_PERCENT}%.`}
          checked={fields.baseline}
          onChange={(baseline) => onChange({ baseline })}
          error={errors.baseline}
        />
      );
    case "channels":
      return (
        <div className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <TextField
            label="Channels"
            inputMode="numeric"
            hint={`${CHANNELS.min} to ${CHANNELS.max} iperf3 pairs at once, each on a port of its own`}
            {...field("channels")}
          />
          <div className="sm:col-span-1 lg:col-span-3 lg:pt-7">
            <Checkbox
              label="Pin each channel to its own CPU core (-A)"
              hint="Where the hosts' iperf3 supports it: channel 1 on core 0, channel 2 on core 1, …"
              checked={fields.affinity}
              onChange={(affinity) => onChange({ affinity })}
              error={errors.affinity}
            />
          </div>
        </div>
      );
    case "mesh":
      return (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Each link runs a→b, then b→a, one run at a time, so that no two tests disturb each other. The result is the
          grid of those runs, a row and a column per host.
        </p>
      );
    case "interference":
      return (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Each link runs alone, then every two links run together. Two links that together get less than{" "}
          {SHARED_BOTTLENECK_PERCENT}% of what each gets alone share a bottleneck: a PCIe slot, an uplink, a switch.
        </p>
      );
    case "versus":
      return <VersusFields fields={fields} onChange={onChange} errors={errors} ends={ends} />;
    case "udp-ceiling":
      return (
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Loss allowed (%)"
            inputMode="decimal"
            hint="The highest bitrate that loses at most this share of datagrams"
            {...field("lossPercent")}
          />
          <TextField
            label="Search from (Mbit/s)"
            inputMode="decimal"
            hint={`Empty: ${UDP_CEILING.defaultLowShare * 100}% of the top of the search`}
            {...field("lowMbps", "low")}
          />
          <TextField
            label="Search up to (Mbit/s)"
            inputMode="decimal"
            placeholder={speedMbps === null ? undefined : String(speedMbps)}
            hint={speedMbps === null ? "Empty: the link's line rate" : `Empty: the line rate, ${speedMbps} Mbit/s`}
            {...field("highMbps", "high")}
          />
        </div>
      );
  }
}

/** A versus: how many times each side runs and, on one link, the option that differs and each side's value and name. */
function VersusFields({ fields, onChange, errors, ends }: Pick<Props, "fields" | "onChange" | "errors" | "ends">) {
  const field = textBinder(fields, onChange, errors);
  const setPair = (key: "variantValues" | "variantNames", index: number, text: string) => {
    const next: [string, string] = [...fields[key]];
    next[index] = text;
    onChange({ [key]: next });
  };
  return (
    <div className="space-y-4">
      <TextField
        label="Runs of each side"
        inputMode="numeric"
        className="max-w-xs"
        hint={`${VERSUS_REPEATS.min} to ${VERSUS_REPEATS.max}, A and B alternately: A B A B …`}
        {...field("versusRepeats", "repeats")}
        error={errors.repeats}
      />
      {fields.versusBy === "variants" ? (
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">The two option sets</legend>
          <SelectField
            label="Option that differs"
            name="variantFactor"
            className="max-w-xs"
            value={fields.variantFactor}
            onChange={(event) => onChange({ variantFactor: event.target.value as SweepFactor })}
            hint="Every other option is the same on both sides, as set below"
          >
            {SWEEP_FACTORS.map((factor) => (
              <option key={factor} value={factor} disabled={Boolean(factorUnavailable(factor, ends))}>
                {SWEEP_FACTOR_LABELS[factor]}
              </option>
            ))}
          </SelectField>
          <div className="grid gap-4 sm:grid-cols-2">
            {(["A", "B"] as const).map((side, index) => (
              <div
                key={side}
                className="grid gap-3 rounded-md border border-slate-200 p-3 dark:border-slate-700"
                data-testid={`variant-${side}`}
              >
                <TextField
                  label={`${side}: ${SWEEP_FACTOR_LABELS[fields.variantFactor]}`}
                  name={`variants[${index}].value`}
                  value={fields.variantValues[index]}
                  onChange={(event) => setPair("variantValues", index, event.target.value)}
                  hint={VARIANT_HINTS[fields.variantFactor]}
                  error={errors[`variants[${index}]`] ?? (index === 0 ? errors.variants : undefined)}
                />
                <TextField
                  label={`${side}: name (optional)`}
                  name={`variants[${index}].name`}
                  value={fields.variantNames[index]}
                  placeholder={fields.variantValues[index] || undefined}
                  onChange={(event) => setPair("variantNames", index, event.target.value)}
                  error={errors[`variants[${index}].name`]}
                />
              </div>
            ))}
          </div>
        </fieldset>
      ) : null}
    </div>
  );
}
