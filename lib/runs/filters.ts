// The run filters, coded once: what a run table or `GET /api/runs` may filter on, how
// each is read from a query string, and how it is written back. Two dialects of names:
// the dashboard's URLs (`?link=3&streams=4`, short, for people to read and share) and the
// REST API's (`?linkId=3&parallel=4`, the fields' own names). Pure: server and browser.
import type { FieldError } from "@/lib/errors";
import { LABEL_DESCRIPTION, readLabel } from "@/lib/notes/contract";
import { RUN_DIRECTIONS, RUN_STATUSES, type RunDirection, type RunStatus } from "./contract";

export type RunFilters = {
  linkId?: number;
  status?: RunStatus;
  protocol?: "tcp" | "udp";
  direction?: RunDirection;
  parallel?: number;
  /** runs that have this label (lib/notes) */
  label?: string;
};
/** A run table's query: its filters and page (and, in the API, the page size). */
export type RunListQuery = RunFilters & { page: number; pageSize?: number };
export type RunFilterDialect = "page" | "api";

/** How many rows the dashboard's run tables show per page. */
export const RUN_PAGE_SIZE = 25;
// Prisma's Int is 32-bit: a larger id cannot exist, and passing one to a query throws.
const MAX_ID = 2_147_483_647;

type Reader = (raw: string) => { value: unknown } | { message: string };

/**
 * A whole number in plain decimal within [min, max]. Number() alone would take "1e12",
 * "0x10", " 5 " and "" (as 0), and an id beyond 32 bits made a page's query throw.
 */
function wholeNumber(min: number, max: number, message = `must be a whole number from ${min} to ${max}`): Reader {
  return (raw) => {
    const value = /^[0-9]{1,10}$/.test(raw) ? Number(raw) : NaN;
    return value >= min && value <= max ? { value } : { message };
  };
}

function oneOf(allowed: readonly string[]): Reader {
  return (raw) => (allowed.includes(raw) ? { value: raw } : { message: `must be one of ${allowed.join(", ")}` });
}

type Field = { key: keyof RunListQuery; names: Record<RunFilterDialect, string | null>; read: Reader };

// The order is the order of the query string and of the API's list of allowed parameters.
const FIELDS: readonly Field[] = [
  {
    key: "linkId",
    names: { page: "link", api: "linkId" },
    read: wholeNumber(1, MAX_ID, `must be a whole number from 1 to ${MAX_ID} (an id)`),
  },
  { key: "status", names: { page: "status", api: "status" }, read: oneOf(RUN_STATUSES) },
  { key: "protocol", names: { page: "protocol", api: "protocol" }, read: oneOf(["tcp", "udp"]) },
  { key: "direction", names: { page: "direction", api: "direction" }, read: oneOf(RUN_DIRECTIONS) },
  { key: "parallel", names: { page: "streams", api: "parallel" }, read: wholeNumber(1, 128) },
  {
    key: "label",
    names: { page: "label", api: "label" },
    read: (raw) => {
      const label = readLabel(raw);
      return label === null ? { message: `must be ${LABEL_DESCRIPTION}` } : { value: label };
    },
  },
  { key: "page", names: { page: "page", api: "page" }, read: wholeNumber(1, 1_000_000) },
  // 25 by default: a page of a dashboard table; the dashboard itself never changes it.
  { key: "pageSize", names: { page: null, api: "pageSize" }, read: wholeNumber(1, 500) },
];

/** The query parameters a dialect knows, in order. */
export function runFilterParamNames(dialect: RunFilterDialect): string[] {
  return FIELDS.map((field) => field.names[dialect]).filter((name): name is string => name !== null);
}

/** What a page's `searchParams` or a URL holds: the first value of a repeated parameter counts. */
export type QueryInput = URLSearchParams | Record<string, string | string[] | undefined>;

function firstValue(input: QueryInput, name: string): string | undefined {
  if (input instanceof URLSearchParams) return input.get(name) ?? undefined;
  const value = input[name];
  return Array.isArray(value) ? value[0] : value;
}

function namesIn(input: QueryInput): string[] {
  return input instanceof URLSearchParams ? [...input.keys()] : Object.keys(input);
}

/**
 * Reads a run list query. `errors` names every parameter that is unknown or not allowed,
 * with what it allows; the value is then left out. The API answers them with a 400; a page
 * ignores them, so that a stale or edited link still opens.
 */
export function readRunListQuery(
  input: QueryInput,
  dialect: RunFilterDialect,
): { query: RunListQuery; errors: FieldError[] } {
  const known = runFilterParamNames(dialect);
  const errors: FieldError[] = [];
  for (const name of new Set(namesIn(input))) {
    if (!known.includes(name))
      errors.push({ field: name, message: `is not a known query parameter (allowed: ${known.join(", ")})` });
  }
  const query: Record<string, unknown> = { page: 1 };
  for (const field of FIELDS) {
    const name = field.names[dialect];
    const raw = name === null ? undefined : firstValue(input, name);
    if (name === null || raw === undefined || raw === "") continue;
    const outcome = field.read(raw);
    if ("value" in outcome) query[field.key] = outcome.value;
    else errors.push({ field: name, message: outcome.message });
  }
  return { query: query as RunListQuery, errors };
}

/** The query string of a run list query, without empty values or the first page: `?protocol=udp&streams=4`, or "". */
export function runListSearch(
  query: Partial<RunListQuery>,
  dialect: RunFilterDialect,
  extra: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const field of FIELDS) {
    const name = field.names[dialect];
    const value = query[field.key];
    if (name === null || value === undefined || (field.key === "page" && value === 1)) continue;
    params.set(name, String(value));
  }
  for (const [name, value] of Object.entries(extra)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : "";
}

/**
 * What a run table asks for: a link page's table fixes its link and offers protocol, direction
 * and streams; the runs list offers link, status and protocol. The server's first render and
 * the browser's later reads take the URL through this one function, so they ask the same.
 */
export function runTableQuery(query: RunListQuery, linkId?: number): RunListQuery {
  return linkId === undefined
    ? { protocol: query.protocol, status: query.status, linkId: query.linkId, label: query.label, page: query.page }
    : {
        protocol: query.protocol,
        direction: query.direction,
        parallel: query.parallel,
        label: query.label,
        linkId,
        page: query.page,
      };
}

/** A page's filters from its URL: what is not allowed is left out (a stale link still opens). */
export function readPageFilters(input: QueryInput): RunListQuery {
  return readRunListQuery(input, "page").query;
}
