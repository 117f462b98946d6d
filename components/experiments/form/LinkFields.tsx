"use client";

import { SelectField } from "@/components/ui/ui";
import { INTERFERENCE_LINKS, MESH_LINKS } from "@/lib/experiments/contract";
import { ChoiceGroup } from "./ChoiceGroup";
import {
  type ExperimentFormFields,
  type FormHost,
  type FormLink,
  linkLabel,
  linksAmongHosts,
  linksTaken,
  type MeshBy,
  type VersusBy,
} from "./fields";

type Props = {
  fields: ExperimentFormFields;
  links: readonly FormLink[];
  hosts: readonly FormHost[];
  /** the links chosen by hand (with a preset left as it is, the preset follows them) */
  onLinks: (linkIds: number[]) => void;
  onChange: (change: Partial<ExperimentFormFields>) => void;
  errors: Record<string, string | undefined>;
};

/** How many links each kind that takes several measures, for the hint under the choice. */
const SEVERAL_LIMITS: Partial<Record<ExperimentFormFields["kind"], { min: number; max: number }>> = {
  interference: INTERFERENCE_LINKS,
  mesh: MESH_LINKS,
};

/** The section's title and description for what the kind takes. */
export function linkSectionOf(fields: ExperimentFormFields): { title: string; description?: string } {
  switch (fields.kind) {
    case "concurrent":
      return { title: "Links", description: "Two or more links, measured at the same time." };
    case "interference":
      return { title: "Links", description: "Each link alone, then every two of them at the same time." };
    case "mesh":
      return { title: "Links", description: "Each link in each direction, one run at a time." };
    case "versus":
      return { title: "A and B", description: "Run alternately, A then B, so that drift over time hits both." };
    default:
      return { title: "Link" };
  }
}

/**
 * The link or links the experiment measures: one link; two or more; for a mesh, the links or the
 * hosts whose links it measures; for a versus, two links (A and B) or one link and two option sets.
 */
export function LinkFields({ fields, links, hosts, onLinks, onChange, errors }: Props) {
  const taken = linksTaken(fields);
  const linkOptions = links.map((link) => (
    <option key={link.id} value={String(link.id)}>
      {linkLabel(link)}
    </option>
  ));
  // A link not chosen yet is 0 while the other one is: B stays B (the server names a 0 as no link).
  const setLink = (index: number, id: number) => {
    const length = Math.max(fields.linkIds.length, index + 1);
    const next = Array.from({ length }, (_, at) => (at === index ? id : (fields.linkIds[at] ?? 0)));
    while (next.length > 0 && next.at(-1) === 0) next.pop();
    onLinks(next);
  };
  const oneLink = (label: string, index: number, error: string | undefined) => (
    <SelectField
      label={label}
      name={index === 0 ? "link" : "linkB"}
      className="max-w-md"
      value={fields.linkIds[index] ? String(fields.linkIds[index]) : ""}
      onChange={(event) => setLink(index, Number(event.target.value || 0))}
      error={error}
    >
      <option value="">Choose a link</option>
      {linkOptions}
    </SelectField>
  );
  const limits = SEVERAL_LIMITS[fields.kind];
  const among = linksAmongHosts(fields.hostIds, links, hosts);

  return (
    <div className="space-y-4">
      {fields.kind === "mesh" ? (
        <ChoiceGroup<MeshBy>
          legend="Measure"
          choices={[
            { value: "links", label: "The links chosen" },
            { value: "hosts", label: "Every link among the hosts chosen" },
          ]}
          selected={[fields.meshBy]}
          onChange={([meshBy]) => onChange({ meshBy })}
        />
      ) : null}
      {fields.kind === "versus" ? (
        <ChoiceGroup<VersusBy>
          legend="Set against each other"
          choices={[
            { value: "variants", label: "Two option sets on one link" },
            { value: "links", label: "Two links" },
          ]}
          selected={[fields.versusBy]}
          onChange={([versusBy]) =>
            onChange({ versusBy, linkIds: fields.linkIds.slice(0, versusBy === "links" ? 2 : 1) })
          }
        />
      ) : null}
      {taken === "several" ? (
        <ChoiceGroup
          legend={fields.kind === "concurrent" ? "Links to run together" : "Links to measure"}
          multiple
          choices={links.map((link) => ({ value: String(link.id), label: linkLabel(link) }))}
          selected={fields.linkIds.map(String)}
          onChange={(ids) => onLinks(ids.map(Number))}
          hint={
            fields.linkIds.length < 2
              ? "Choose at least two."
              : `${fields.linkIds.length} links${limits ? ` (${limits.min} to ${limits.max})` : ""}.`
          }
          error={errors.linkIds}
          testId="links-choice"
        />
      ) : null}
      {taken === "hosts" ? (
        <ChoiceGroup
          legend="Hosts"
          multiple
          choices={hosts.map((host) => ({ value: String(host.id), label: host.name }))}
          selected={fields.hostIds.map(String)}
          onChange={(ids) => onChange({ hostIds: ids.map(Number) })}
          hint={
            fields.hostIds.length < 2
              ? "Choose at least two: every link with both ends among them is measured."
              : `${among.length} ${among.length === 1 ? "link joins" : "links join"} them${
                  among.length ? `: ${among.map((link) => link.name).join(", ")}` : ""
                }.`
          }
          error={errors.hostIds ?? errors.linkIds}
          testId="hosts-choice"
        />
      ) : null}
      {taken === "pair" ? (
        <div className="grid gap-4 sm:grid-cols-2">
          {oneLink("Link A", 0, errors.linkIds)}
          {oneLink("Link B", 1, undefined)}
        </div>
      ) : null}
      {taken === "one" ? oneLink("Link", 0, errors.linkIds) : null}
    </div>
  );
}
