// The New experiment form's address: what a start point (a link page, the links list) puts in
// it and what the form reads back. Pure: server pages and client components both use it.
import { EXPERIMENT_KINDS, type ExperimentKind } from "@/lib/experiments/contract";

export const NEW_EXPERIMENT_PATH = "/experiments/new";

/** What the address asks the form to start from; anything it cannot read is left out. */
export type NewExperimentPrefill = { presetId: string | null; kind: ExperimentKind | null; linkIds: number[] };

type SearchValue = string | string[] | undefined;

/** `?preset=<id>&link=<id>` for one link, `?preset=<id>&links=1,2` for several; `kind` without a preset. */
export function newExperimentHref({
  presetId,
  kind,
  linkIds = [],
}: {
  presetId?: string;
  kind?: ExperimentKind;
  linkIds?: readonly number[];
}): string {
  const parts: string[] = [];
  if (presetId) parts.push(`preset=${encodeURIComponent(presetId)}`);
  else if (kind) parts.push(`kind=${encodeURIComponent(kind)}`);
  // Ids are digits: the comma stays readable rather than %2C.
  if (linkIds.length === 1) parts.push(`link=${linkIds[0]}`);
  else if (linkIds.length > 1) parts.push(`links=${linkIds.join(",")}`);
  return parts.length ? `${NEW_EXPERIMENT_PATH}?${parts.join("&")}` : NEW_EXPERIMENT_PATH;
}

function valuesOf(value: SearchValue): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Plain decimal ids within 32 bits, each once, in the order given: `1e3` or `0x10` are dropped. */
function idsOf(texts: string[]): number[] {
  const ids = texts
    .flatMap((text) => text.split(","))
    .map((part) => part.trim())
    .filter((part) => /^[1-9]\d{0,9}$/.test(part))
    .map(Number)
    .filter((id) => id <= 2_147_483_647);
  return [...new Set(ids)];
}

/** The prefill of a page's search parameters: `link` and `links` (comma-separated or repeated, as a GET form sends them) add up. */
export function readNewExperimentParams(params: {
  preset?: SearchValue;
  kind?: SearchValue;
  link?: SearchValue;
  links?: SearchValue;
}): NewExperimentPrefill {
  const presetId = valuesOf(params.preset)[0]?.trim() || null;
  const kindText = valuesOf(params.kind)[0];
  const kind = (EXPERIMENT_KINDS as readonly string[]).includes(kindText ?? "") ? (kindText as ExperimentKind) : null;
  return { presetId, kind, linkIds: idsOf([...valuesOf(params.link), ...valuesOf(params.links)]) };
}
