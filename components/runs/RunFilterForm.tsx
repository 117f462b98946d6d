"use client";

import { readPageFilters, type RunListQuery } from "@/lib/runs/filters";

const selectClass =
  "mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 " +
  "focus:border-sky-500 focus:outline-none focus:ring-2 focus:ring-sky-500/40 " +
  "dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100";

type Option = { value: string; label: string };

const PROTOCOLS: Option[] = [
  { value: "tcp", label: "TCP" },
  { value: "udp", label: "UDP" },
];

/** One filter: a select whose first choice, "", is every value (`anyLabel`). */
function FilterSelect({
  label,
  name,
  value,
  anyLabel,
  options,
  onChange,
}: {
  label: string;
  name: string;
  value: string;
  anyLabel: string;
  options: readonly Option[];
  onChange: (event: React.ChangeEvent<HTMLSelectElement>) => void;
}) {
  return (
    <label className="text-sm font-medium">
      {label}
      <select name={name} value={value} onChange={onChange} className={selectClass}>
        <option value="">{anyLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

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
  const isFiltered = Boolean(
    values.protocol || values.direction || values.parallel || values.status || values.linkId || values.label,
  );
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
        <FilterSelect
          label="Link"
          name="link"
          value={values.linkId ? String(values.linkId) : ""}
          anyLabel="All links"
          options={links}
          onChange={applyOnChange}
        />
      ) : null}
      {statuses ? (
        <FilterSelect
          label="Status"
          name="status"
          value={values.status ?? ""}
          anyLabel="Any status"
          options={statuses}
          onChange={applyOnChange}
        />
      ) : null}
      <FilterSelect
        label="Protocol"
        name="protocol"
        value={values.protocol ?? ""}
        anyLabel="TCP and UDP"
        options={PROTOCOLS}
        onChange={applyOnChange}
      />
      {directions ? (
        <FilterSelect
          label="Direction"
          name="direction"
          value={values.direction ?? ""}
          anyLabel="Any direction"
          options={directions}
          onChange={applyOnChange}
        />
      ) : null}
      {streamChoices ? (
        <FilterSelect
          label="Streams"
          name="streams"
          value={values.parallel ? String(values.parallel) : ""}
          anyLabel="Any number"
          options={streamChoices.map((count) => ({
            value: String(count),
            label: count === 1 ? "1 stream" : `${count} streams`,
          }))}
          onChange={applyOnChange}
        />
      ) : null}
      {/* A label is typed: it applies with Apply or Enter, not at each key. */}
      <label className="text-sm font-medium">
        Label
        <input
          key={values.label ?? ""}
          type="text"
          name="label"
          defaultValue={values.label ?? ""}
          placeholder="any"
          size={10}
          autoComplete="off"
          spellCheck={false}
          className={selectClass}
        />
      </label>
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
