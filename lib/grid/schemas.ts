// The grid's query, coded once for the page's URL and GET /api/grid: which hosts make its rows and
// columns (`hostIds` or `tag`), and after how many days a result is stale (`staleDays`). The page's
// colouring (`by`) is the page's own. Pure: the filter form in the browser writes URLs with it.
import type { FieldError } from "@/lib/errors";
import { TAG_DESCRIPTION, TagSchema } from "@/lib/inventory/schemas";
import { GRID_STALE_DAYS } from "./contract";

export type GridQuery = {
  /** The hosts of the rows and columns; undefined: every host a link joins (or those of `tag`). */
  hostIds?: number[];
  /** The hosts that carry this tag. */
  tag?: string;
  staleDays: number;
};

/** What the cells are coloured by: their share of the link's line rate, or of the link's baseline. */
export const GRID_COLOUR_BY = ["line-rate", "baseline"] as const;
export type GridColourBy = (typeof GRID_COLOUR_BY)[number];

export const GRID_MAX_HOSTS = 500;
export const GRID_MAX_STALE_DAYS = 365;
// Prisma's Int is 32-bit: a larger id cannot exist.
const MAX_ID = 2_147_483_647;

export const GRID_QUERY_PARAMS = ["hostIds", "tag", "staleDays"] as const;

/** What a page's `searchParams` or a URL holds. A repeated `hostIds` (a form's checkboxes) adds its values. */
export type GridQueryInput = URLSearchParams | Record<string, string | string[] | undefined>;

function valuesOf(input: GridQueryInput, name: string): string[] {
  if (input instanceof URLSearchParams) return input.getAll(name);
  const value = input[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function namesIn(input: GridQueryInput): string[] {
  return input instanceof URLSearchParams ? [...input.keys()] : Object.keys(input);
}

const HOST_IDS_MESSAGE = `must be host ids separated by commas (whole numbers from 1 to ${MAX_ID}), 1 to ${GRID_MAX_HOSTS} of them`;

function readHostIds(raw: string[]): { value: number[] } | { message: string } {
  const parts = raw.flatMap((value) => value.split(",")).map((part) => part.trim());
  if (parts.length === 0 || parts.length > GRID_MAX_HOSTS) return { message: HOST_IDS_MESSAGE };
  const ids: number[] = [];
  for (const part of parts) {
    const id = /^[0-9]{1,10}$/.test(part) ? Number(part) : NaN;
    if (!(id >= 1 && id <= MAX_ID)) return { message: HOST_IDS_MESSAGE };
    if (!ids.includes(id)) ids.push(id);
  }
  return { value: ids };
}

/**
 * Reads the grid's query. `errors` names every parameter that is unknown or not allowed, with what
 * it allows, and leaves its value out: the API answers them with a 400, the page ignores them so that
 * a stale or edited link still opens. `extra`: parameters the caller reads itself (the page's `by`).
 */
export function readGridQuery(
  input: GridQueryInput,
  extra: readonly string[] = [],
): { query: GridQuery; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const query: GridQuery = { staleDays: GRID_STALE_DAYS };
  for (const name of namesIn(input)) {
    if (![...GRID_QUERY_PARAMS, ...extra].includes(name))
      errors.push({
        field: name,
        message: `is not a known query parameter (allowed: ${[...GRID_QUERY_PARAMS, ...extra].join(", ")})`,
      });
  }
  const hostIds = valuesOf(input, "hostIds");
  // An empty value is no filter: what a form sends when nothing is chosen.
  if (hostIds.some((value) => value.trim() !== "")) {
    const read = readHostIds(hostIds.filter((value) => value.trim() !== ""));
    if ("message" in read) errors.push({ field: "hostIds", message: read.message });
    else query.hostIds = read.value;
  }
  const [tag] = valuesOf(input, "tag");
  if (tag !== undefined && tag !== "") {
    if (TagSchema.safeParse(tag).success) query.tag = tag;
    else errors.push({ field: "tag", message: `must be a tag: ${TAG_DESCRIPTION}` });
  }
  if (query.hostIds && query.tag !== undefined) {
    errors.push({ field: "tag", message: "must be left out with hostIds: the grid's hosts are chosen one way" });
    delete query.tag;
  }
  const [staleDays] = valuesOf(input, "staleDays");
  if (staleDays !== undefined && staleDays !== "") {
    const days = /^[0-9]{1,3}$/.test(staleDays) ? Number(staleDays) : NaN;
    if (days >= 1 && days <= GRID_MAX_STALE_DAYS) query.staleDays = days;
    else
      errors.push({ field: "staleDays", message: `must be a whole number of days from 1 to ${GRID_MAX_STALE_DAYS}` });
  }
  return { query, errors };
}

/** The page's `by`: the share the cells are coloured by; anything else is the line rate. */
export function gridColourByOf(value: string | string[] | undefined): GridColourBy {
  return value === "baseline" ? "baseline" : "line-rate";
}

/** The query string of a grid page (without `?`): only what differs from the defaults. */
export function gridSearch(query: Partial<GridQuery>, by: GridColourBy = "line-rate"): string {
  const params = new URLSearchParams();
  if (query.hostIds && query.hostIds.length > 0) params.set("hostIds", query.hostIds.join(","));
  if (query.tag) params.set("tag", query.tag);
  if (query.staleDays !== undefined && query.staleDays !== GRID_STALE_DAYS)
    params.set("staleDays", String(query.staleDays));
  if (by !== "line-rate") params.set("by", by);
  return params.toString();
}
