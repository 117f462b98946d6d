"use client";

import { readPageFilters, type RunListQuery } from "@/lib/runs/filters";

const selectClass =
  "mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 " +
  "focus:border-sky-500 focus:outline-none focus:ring-2 focus:ring-sky-500/40 " +
  "dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100";

type Option = { value: string; label: string };

/**
 * Filters of a runs table. A change applies at once through `onChange` (the table keeps
 * them in the URL, so a filtered view can be shared); without JavaScript the form is a GET
 * form to `action` and the Apply button submits it.
 */
export function RunFilterForm({
  action,
  values,
  onChange,
  directions,
  streamChoices,
  statuses,
  links,
  hidden = {},
}: {
  action: string;
  values: RunListQuery;
  onChange: (values: RunListQuery) => void;
  directions?: Option[];
  streamChoices?: number[];
  statuses?: Option[];
  links?: Option[];
  hidden?: Record<string, string>;
}) {
  const isFiltered = Boolean(values.protocol || values.direction || values.parallel || values.status || values.linkId);
  // The form's fields are the URL's parameters: parsing them as the page parses its URL gives the new filters (from page 1).
  const applyForm = (form: HTMLFormElement | null) => {
    if (!form) return;
    const entries: Record<string, string> = {};
    new FormData(form).forEach((value, key) => {
      if (typeof value === "string") entries[key] = value;
    });
    onChange(readPageFilters(entries));
  };
  const applyOnChange = (event: React.ChangeEvent<HTMLSelectElement>) => applyForm(event.currentTarget.form);
  const clearHref = `${action}${hidden.compare ? `?compare=${hidden.compare}` : ""}`;
  return (
    <form
      action={action}
      method="get"
      onSubmit={(event) => {
        event.preventDefault();
        applyForm(event.currentTarget);
      }}
      className="mb-3 flex flex-wrap items-end gap-3"
      aria-label="Filter runs"
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {links ? (
        <label className="text-sm font-medium">
          Link
          <select
            name="link"
            value={values.linkId ? String(values.linkId) : ""}
            onChange={applyOnChange}
            className={selectClass}
          >
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
          <select name="status" value={values.status ?? ""} onChange={applyOnChange} className={selectClass}>
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
        <select name="protocol" value={values.protocol ?? ""} onChange={applyOnChange} className={selectClass}>
          <option value="">TCP and UDP</option>
          <option value="tcp">TCP</option>
          <option value="udp">UDP</option>
        </select>
      </label>
      {directions ? (
        <label className="text-sm font-medium">
          Direction
          <select name="direction" value={values.direction ?? ""} onChange={applyOnChange} className={selectClass}>
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
          <select
            name="streams"
            value={values.parallel ? String(values.parallel) : ""}
            onChange={applyOnChange}
            className={selectClass}
          >
            <option value="">Any number</option>
            {streamChoices.map((count) => (
              <option key={count} value={String(count)}>
                {count === 1 ? "1 stream" : `${count} streams`}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button
        type="submit"
        className={
          "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium " +
          "hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 " +
          "focus-visible:ring-sky-500 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800"
        }
      >
        Apply
      </button>
      {isFiltered ? (
        <a
          href={clearHref}
          onClick={(event) => {
            event.preventDefault();
            onChange({ page: 1 });
          }}
          className="py-1.5 text-sm text-slate-600 underline hover:text-slate-900 dark:text-slate-400 dark:hover:text-white"
        >
          Clear filters
        </a>
      ) : null}
    </form>
  );
}
