import Link from "next/link";
import { buttonClass, FOCUS_RING } from "@/components/ui/styles";
import { GRID_STALE_DAYS } from "@/lib/grid/contract";
import { GRID_COLOUR_BY, gridSearch, type GridColourBy, type GridQuery } from "@/lib/grid/schemas";
import { COLOUR_BY_LABELS } from "./bands";

const STALE_CHOICES = [1, 3, GRID_STALE_DAYS, 14, 30, 90];
const CONTROL =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 " +
  `dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 ${FOCUS_RING}`;

const hrefOf = (query: Partial<GridQuery>, by: GridColourBy) => {
  const search = gridSearch(query, by);
  return search ? `/grid?${search}` : "/grid";
};

/** Colour by the share of the line rate or of the baseline: links (?by=), so it works without JavaScript. */
export function ColourBySwitch({ query, by }: { query: GridQuery; by: GridColourBy }) {
  return (
    <nav
      aria-label="Colour cells by"
      className="inline-flex overflow-hidden rounded-md border border-slate-300 text-sm dark:border-slate-700"
    >
      {GRID_COLOUR_BY.map((value) => (
        <Link
          key={value}
          href={hrefOf(query, value)}
          aria-current={by === value ? "true" : undefined}
          className={`px-2.5 py-1 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-500 ${
            by === value
              ? "bg-slate-900 text-white dark:bg-slate-100 dark:text-slate-900"
              : "bg-white text-slate-700 hover:bg-slate-100 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
          }`}
        >
          {COLOUR_BY_LABELS[value]}
        </Link>
      ))}
    </nav>
  );
}

/**
 * The grid's hosts (chosen one by one, or those of a tag) and the age past which a result is stale: a GET
 * form, so the choice lives in the URL (a reload or a shared link keeps it) and works without JavaScript.
 */
export function GridFilterForm({
  query,
  by,
  hosts,
}: {
  query: GridQuery;
  by: GridColourBy;
  hosts: Array<{ id: number; name: string; tags: string[] }>;
}) {
  const tags = [...new Set(hosts.flatMap((host) => host.tags))].sort();
  const chosen = new Set(query.hostIds ?? []);
  const staleChoices = [...new Set([...STALE_CHOICES, query.staleDays])].sort((a, b) => a - b);
  return (
    <form
      method="get"
      action="/grid"
      aria-label="Grid filter"
      className="grid gap-3 rounded-lg border border-slate-200 bg-white p-3 sm:grid-cols-[1fr_12rem_10rem_auto] sm:items-end dark:border-slate-800 dark:bg-slate-900"
    >
      <details className="min-w-0 text-sm" open={chosen.size > 0}>
        <summary className={`cursor-pointer rounded font-medium ${FOCUS_RING}`}>
          Hosts: {chosen.size > 0 ? `${chosen.size} chosen` : "all linked"}
        </summary>
        <fieldset className="mt-2">
          <legend className="sr-only">Hosts of the grid</legend>
          <div className="flex max-h-48 flex-wrap gap-x-4 gap-y-1 overflow-y-auto">
            {hosts.map((host) => (
              <label key={host.id} className="inline-flex items-center gap-1.5">
                <input
                  type="checkbox"
                  name="hostIds"
                  value={host.id}
                  defaultChecked={chosen.has(host.id)}
                  className={`h-4 w-4 accent-sky-600 ${FOCUS_RING}`}
                />
                {host.name}
              </label>
            ))}
          </div>
        </fieldset>
      </details>
      <label className="text-sm font-medium">
        Or hosts tagged
        <select name="tag" defaultValue={query.tag ?? ""} className={CONTROL}>
          <option value="">any tag</option>
          {tags.map((tag) => (
            <option key={tag} value={tag}>
              {tag}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium">
        Stale after
        <select name="staleDays" defaultValue={String(query.staleDays)} className={CONTROL}>
          {staleChoices.map((days) => (
            <option key={days} value={days}>
              {days === 1 ? "1 day" : `${days} days`}
            </option>
          ))}
        </select>
      </label>
      {by !== "line-rate" ? <input type="hidden" name="by" value={by} /> : null}
      <div className="flex gap-2">
        <button type="submit" className={buttonClass("primary")}>
          Show
        </button>
        <Link href={hrefOf({}, by)} className={buttonClass("secondary")}>
          Clear
        </Link>
      </div>
    </form>
  );
}
