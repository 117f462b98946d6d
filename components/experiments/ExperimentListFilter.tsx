"use client";

import { useRouter } from "next/navigation";
import { buttonClass } from "@/components/ui/styles";

const selectClass =
  "mt-1 block max-w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm " +
  "text-slate-900 focus:border-sky-500 focus:outline-none focus:ring-2 focus:ring-sky-500/40 " +
  "dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100";

/** The experiments page's `?link=` filter: a change applies at once; without JavaScript, Apply submits the GET form. */
export function ExperimentListFilter({
  linkId,
  links,
}: {
  linkId: number | null;
  links: Array<{ id: number; name: string }>;
}) {
  const router = useRouter();
  const hrefOf = (value: string) => (value ? `/experiments?link=${value}` : "/experiments");
  return (
    <form
      action="/experiments"
      method="get"
      aria-label="Filter experiments"
      className="mb-3 flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        router.push(hrefOf(String(new FormData(event.currentTarget).get("link") ?? "")));
      }}
    >
      <label className="min-w-0 text-sm font-medium">
        Link
        <select
          key={linkId ?? ""}
          name="link"
          defaultValue={linkId === null ? "" : String(linkId)}
          onChange={(event) => router.push(hrefOf(event.target.value))}
          className={selectClass}
        >
          <option value="">All links</option>
          {links.map((link) => (
            <option key={link.id} value={String(link.id)}>
              {link.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass("secondary")}>
        Apply
      </button>
    </form>
  );
}
