"use client";

import Form from "next/form";
import Link from "next/link";
import type { RunFilterValues } from "./filters";

const selectClass =
  "mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus:border-sky-500 focus:outline-none focus:ring-2 focus:ring-sky-500/40 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100";

type Option = { value: string; label: string };

/**
 * Filters of a runs table as a GET form: the URL holds them, so a filtered view can be
 * shared. A change applies at once; the Apply button is there for keyboards without JS.
 */
export function RunFilterForm({
  action,
  values,
  directions,
  streamChoices,
  statuses,
  links,
  hidden = {},
}: {
  action: string;
  values: RunFilterValues;
  directions?: Option[];
  streamChoices?: number[];
  statuses?: Option[];
  links?: Option[];
  hidden?: Record<string, string>;
}) {
  const isFiltered = Boolean(values.protocol || values.direction || values.parallel || values.status || values.linkId);
  const submitOnChange = (event: React.ChangeEvent<HTMLSelectElement>) => event.currentTarget.form?.requestSubmit();
  return (
    <Form action={action} scroll={false} className="mb-3 flex flex-wrap items-end gap-3" aria-label="Filter runs">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {links ? (
        <label className="text-sm font-medium">
          Link
          <select name="link" defaultValue={values.linkId ? String(values.linkId) : ""} onChange={submitOnChange} className={selectClass}>
            <option value="">All links</option>
            {links.map((link) => (
              <option key={link.value} value={link.value}>
                {link.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {statuses ? (
        <label className="text-sm font-medium">
          Status
          <select name="status" defaultValue={values.status ?? ""} onChange={submitOnChange} className={selectClass}>
            <option value="">Any status</option>
            {statuses.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="text-sm font-medium">
        Protocol
        <select name="protocol" defaultValue={values.protocol ?? ""} onChange={submitOnChange} className={selectClass}>
          <option value="">TCP and UDP</option>
          <option value="tcp">TCP</option>
          <option value="udp">UDP</option>
        </select>
      </label>
      {directions ? (
        <label className="text-sm font-medium">
          Direction
          <select name="direction" defaultValue={values.direction ?? ""} onChange={submitOnChange} className={selectClass}>
            <option value="">Any direction</option>
            {directions.map((direction) => (
              <option key={direction.value} value={direction.value}>
                {direction.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {streamChoices ? (
        <label className="text-sm font-medium">
          Streams
          <select name="streams" defaultValue={values.parallel ? String(values.parallel) : ""} onChange={submitOnChange} className={selectClass}>
            <option value="">Any number</option>
            {streamChoices.map((count) => (
              <option key={count} value={String(count)}>
                {count === 1 ? "1 stream" : `${count} streams`}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800">
        Apply
      </button>
      {isFiltered ? (
        <Link href={`${action}${hidden.compare ? `?compare=${hidden.compare}` : ""}`} scroll={false} className="py-1.5 text-sm text-slate-600 underline hover:text-slate-900 dark:text-slate-400 dark:hover:text-white">
          Clear filters
        </Link>
      ) : null}
    </Form>
  );
}
