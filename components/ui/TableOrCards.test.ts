import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TableOrCards } from "./TableOrCards";

type Host = { id: number; name: string };
const hosts: Host[] = [
  { id: 1, name: "alpha" },
  { id: 2, name: "beta" },
];

function render(props: Partial<Parameters<typeof TableOrCards<Host>>[0]>): string {
  return renderToStaticMarkup(
    createElement(TableOrCards<Host>, {
      items: hosts,
      label: "Hosts",
      columns: [{ header: "Name" }, { header: "NICs", className: "text-right" }],
      keyOf: (host) => host.id,
      row: (host) => createElement("th", { scope: "row" }, host.name),
      ...props,
    }),
  );
}

describe("TableOrCards", () => {
  it("renders cards for phones and a captioned table for wide screens", () => {
    const html = render({
      card: (host) => host.name,
      rowTestId: (host) => `host-row-${host.id}`,
      cardTestId: (host) => `host-card-${host.id}`,
    });
    expect(html).toContain(
      '<ul class="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900 sm:hidden" aria-label="Hosts">',
    );
    expect(html).toContain('<li class="px-4 py-3 text-sm" data-testid="host-card-2">beta</li>');
    expect(html).toContain('<div class="hidden sm:block overflow-x-auto');
    expect(html).toContain('<caption class="sr-only">Hosts</caption>');
    expect(html).toContain('<th scope="col" class="px-4 py-2 font-semibold text-right">NICs</th>');
    expect(html).toContain(
      '<tr data-testid="host-row-1" class="border-t border-slate-200 align-top dark:border-slate-800"><th scope="row">alpha</th></tr>',
    );
  });

  it("switches at md when asked", () => {
    const html = render({ card: (host) => host.name, breakpoint: "md" });
    expect(html).toContain("md:hidden");
    expect(html).toContain('<div class="hidden md:block');
    expect(html).not.toContain("sm:");
  });

  it("without cards keeps one table, and stacks its rows on phones when asked", () => {
    const scrolled = render({ look: "plain", testId: "audit-table" });
    expect(scrolled).not.toContain("<ul");
    expect(scrolled).toContain(
      '<div class="overflow-x-auto"><table class="w-full text-left text-sm" data-testid="audit-table">',
    );
    expect(scrolled).toContain('<tbody class="divide-y divide-slate-200 dark:divide-slate-800">');

    const stacked = render({ look: "plain", isStackedWhenNarrow: true });
    expect(stacked).toContain(
      '<thead class="hidden sm:table-header-group text-xs text-slate-600 uppercase dark:text-slate-400">',
    );
    expect(stacked).toContain('<tr class="block py-2 sm:table-row sm:py-0 align-top">');
  });

  it("renders an empty list without rows", () => {
    const html = render({ items: [], card: () => "x" });
    expect(html).toContain("<tbody></tbody>");
    expect(html).not.toContain("<li");
  });
});
