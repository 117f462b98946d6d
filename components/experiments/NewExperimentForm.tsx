"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { useActionForm } from "@/components/forms/use-action-form";
import { Section } from "@/components/forms/Section";
import { invalidateRunViews, queryKeys } from "@/components/queries";
import { Button, Notice, TextField } from "@/components/ui/ui";
import { startExperimentAction } from "@/lib/experiments/actions/start-experiment";
import { EXPERIMENT_KINDS, type ExperimentKind } from "@/lib/experiments/contract";
import { KIND_DEFINITIONS } from "@/lib/experiments/kinds";
import { MAX_EXPERIMENT_NAME_LENGTH } from "@/lib/experiments/plan";
import { EXPERIMENT_PRESETS, presetById, type ExperimentPreset } from "@/lib/experiments/presets";
import { directionUnavailableReason, type TestEnd } from "@/lib/runs/test-request";
import { ChoiceGroup } from "./form/ChoiceGroup";
import {
  experimentFieldOf,
  type ExperimentFormFields,
  experimentRequestBody,
  fieldMessageOf,
  fieldsSetByKind,
  formFieldsOfPreset,
  formKeyOf,
  type FormHost,
  type FormLink,
  initialFormFields,
  keptLinkIds,
  linksAmongHosts,
  linksOf,
  linksTaken,
  planSizeOf,
} from "./form/fields";
import { KindFields } from "./form/KindFields";
import { LinkFields, linkSectionOf } from "./form/LinkFields";
import { PlanSummary } from "./form/PlanSummary";
import type { NewExperimentPrefill } from "./form/prefill";
import { RunOptionFields } from "./form/RunOptionFields";

const KIND_HINTS: Record<ExperimentKind, string> = {
  sweep: "One option stepped through values; the answer is the knee",
  matrix: "Every direction, protocol and role of one link, as a table",
  concurrent: "Two or more links at the same time, and their sum",
  channels: "Several iperf3 pairs on one link, added up: for 40G and faster",
  "udp-ceiling": "The highest UDP bitrate without loss",
  mesh: "Every link both ways, one at a time: the lab's grid",
  interference: "Each link alone, then every pair together: which share a bottleneck",
  versus: "A against B, alternately: two links, or two option sets on one",
};

// Every form key a field of this form shows a message for; the rest go in the notice on top.
const PLACED_KEYS = new Set([
  "name",
  "linkIds",
  "factor",
  "values",
  "repeats",
  "kneePercent",
  "directions",
  "protocols",
  "clientSides",
  "baseline",
  "channels",
  "affinity",
  "lossPercent",
  "lowMbps",
  "highMbps",
  "hostIds",
  "variants",
  "variants[0]",
  "variants[1]",
  "variants[0].name",
  "variants[1].name",
  "plan",
  "base.protocol",
  "base.direction",
  "base.clientSide",
  "base.duration",
  "base.parallel",
  "base.omit",
  "base.bitrateMbps",
]);

type FailedField = { field: string; message: string };

/**
 * The New experiment form: a preset or a kind, the link or links, the kind's fields and the
 * options of every run, with how many runs the plan takes and about how long. Starts it
 * with startExperimentAction and opens its page; the server's field errors show beside their fields.
 */
export function NewExperimentForm({
  links,
  hosts,
  prefill,
}: {
  links: FormLink[];
  /** the hosts at the ends of the links: a mesh may take every link among some of them */
  hosts: FormHost[];
  prefill: NewExperimentPrefill;
}) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [initial] = useState(() => initialFormFields(prefill, links));
  const [fields, setFields] = useState<ExperimentFormFields>(initial.fields);
  const [presetId, setPresetId] = useState<string | null>(initial.presetId);
  const {
    isPending,
    message,
    errors: answered,
    fieldErrors: errors,
    setMessage,
    reset: clearAnswer,
    submit: run,
  } = useActionForm(experimentFieldOf);
  const unplaced: readonly FailedField[] = answered.filter((error) => !PLACED_KEYS.has(formKeyOf(error.field)));

  const chosen =
    linksTaken(fields) === "hosts" ? linksAmongHosts(fields.hostIds, links, hosts) : linksOf(fields.linkIds, links);
  const ends: TestEnd[] = chosen.flatMap((link) => [link.a, link.b]);
  const endNames = chosen.length === 1 ? { a: chosen[0]!.a.hostName, b: chosen[0]!.b.hostName } : { a: "A", b: "B" };
  const speedMbps = chosen[0]?.speedMbps ?? null;
  const size = useMemo(() => planSizeOf(fields, links, hosts), [fields, links, hosts]);
  const preset = presetById(presetId);

  // Any change by hand leaves the preset: the chip no longer says what the form holds.
  const change = (next: Partial<ExperimentFormFields>) => {
    setPresetId(null);
    setFields((previous) => ({ ...previous, ...next }));
  };

  const applyPreset = (entry: ExperimentPreset, linkIds: readonly number[]) => {
    const presetLinks = linksOf(entry.links === 1 ? linkIds.slice(0, 1) : linkIds, links);
    const next = formFieldsOfPreset(entry, presetLinks);
    const presetEnds = presetLinks.flatMap((link) => [link.a, link.b]);
    // Both ways on a host whose iperf3 lacks --bidir would fail at its step: left out, and the checkbox says why.
    setFields({
      ...next,
      directions: next.directions.filter((direction) => !directionUnavailableReason(direction, presetEnds)),
    });
    setPresetId(entry.id);
    clearAnswer();
  };

  const chooseKind = (kind: ExperimentKind) =>
    change({ kind, linkIds: keptLinkIds({ ...fields, kind }, fields.linkIds) });

  const chooseLinks = (linkIds: number[]) => {
    // A preset untouched by hand follows the links: its line-rate options come from the new one.
    if (preset) applyPreset(preset, linkIds);
    else change({ linkIds });
  };

  const submit = () =>
    run(() => startExperimentAction(experimentRequestBody(fields)), {
      onSuccess: (value) => {
        void invalidateRunViews(queryClient);
        void queryClient.invalidateQueries({ queryKey: queryKeys.experiments() });
        router.push(`/experiments/${value.id}`);
      },
      onFailure: (result) => {
        if (result.errors.length) setMessage("Check the fields marked below.");
      },
    });

  const hidden = fieldsSetByKind(fields);
  const defaultName = size && "defaultName" in size ? size.defaultName : KIND_DEFINITIONS[fields.kind].title;

  return (
    <form
      aria-label="New experiment"
      className="space-y-6 rounded-lg border border-slate-200 bg-white p-4 sm:p-5 dark:border-slate-800 dark:bg-slate-900"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Section
        title="What to find out"
        description="Start from a preset, or choose the kind of experiment and set it up below."
      >
        <fieldset>
          <legend className="text-sm font-medium text-slate-800 dark:text-slate-200">Preset</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {EXPERIMENT_PRESETS.map((entry) => (
              <button
                key={entry.id}
                type="button"
                aria-pressed={presetId === entry.id}
                title={entry.description}
                onClick={() => applyPreset(entry, fields.linkIds)}
                className={`rounded-full border px-3 py-1.5 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 ${
                  presetId === entry.id
                    ? "border-sky-700 bg-sky-700 text-white dark:border-sky-400 dark:bg-sky-400 dark:text-slate-950"
                    : "border-slate-300 bg-white text-slate-800 hover:bg-slate-100 dark:border-slate-600 " +
                      "dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
                }`}
              >
                {entry.title}
              </button>
            ))}
          </div>
          <p className="mt-2 min-h-5 text-sm text-slate-600 dark:text-slate-400" data-testid="preset-description">
            {preset ? preset.description : null}
          </p>
        </fieldset>
        <ChoiceGroup
          legend="Kind"
          isStacked
          choices={EXPERIMENT_KINDS.map((kind) => ({
            value: kind,
            label: KIND_DEFINITIONS[kind].title,
            hint: KIND_HINTS[kind],
          }))}
          selected={[fields.kind]}
          onChange={([kind]) => chooseKind(kind!)}
          error={errors.kind}
        />
      </Section>

      <Section {...linkSectionOf(fields)}>
        <LinkFields
          fields={fields}
          links={links}
          hosts={hosts}
          onLinks={chooseLinks}
          onChange={change}
          errors={errors}
        />
      </Section>

      <Section title={KIND_DEFINITIONS[fields.kind].title} description={KIND_HINTS[fields.kind]}>
        <KindFields
          fields={fields}
          onChange={change}
          errors={errors}
          ends={ends}
          endNames={endNames}
          speedMbps={speedMbps}
        />
      </Section>

      <Section title="Every run" description="The options each run of the plan starts from.">
        <RunOptionFields
          fields={fields.base}
          onChange={(base) => change({ base })}
          hidden={hidden}
          ends={ends}
          endNames={endNames}
          speedMbps={speedMbps}
          errors={errors}
          parallelLabel={fields.kind === "channels" ? "Streams per channel (-P)" : undefined}
          bitrateLabel={
            fields.kind === "matrix" && fields.protocols.includes("udp")
              ? "Bitrate of the UDP runs (-b, Mbit/s)"
              : undefined
          }
        />
      </Section>

      <Section title="Start">
        <TextField
          label="Name (optional)"
          name="name"
          className="max-w-md"
          value={fields.name}
          maxLength={MAX_EXPERIMENT_NAME_LENGTH}
          placeholder={defaultName}
          onChange={(event) => change({ name: event.target.value })}
          error={errors.name}
        />
        <PlanSummary size={size} error={errors.plan} />
        {message ? (
          <Notice tone="error" title={message}>
            {unplaced.length ? (
              <ul className="list-disc pl-5">
                {unplaced.map((error) => (
                  <li key={`${error.field} ${error.message}`}>{fieldMessageOf(error)}</li>
                ))}
              </ul>
            ) : null}
          </Notice>
        ) : null}
        <Button type="submit" variant="primary" isPending={isPending} pendingLabel="Starting…">
          Start experiment
        </Button>
      </Section>
    </form>
  );
}
