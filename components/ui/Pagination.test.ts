import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { listPageHref, Pagination, pageOf } from "./Pagination";

describe("pageOf", () => {
  it("reads ?page= within the pages there are", () => {
    expect(pageOf("2", 120)).toEqual({ page: 2, start: 50 });
    expect(pageOf("9", 120)).toEqual({ page: 3, start: 100 });
    expect(pageOf("0", 120)).toEqual({ page: 1, start: 0 });
    expect(pageOf(undefined, 0)).toEqual({ page: 1, start: 0 });
    expect(pageOf(["2", "3"], 120)).toEqual({ page: 1, start: 0 });
    expect(pageOf("-1", 120)).toEqual({ page: 1, start: 0 });
    expect(pageOf("2", 250, 100)).toEqual({ page: 2, start: 100 });
  });
});

describe("listPageHref", () => {
  it("keeps page 1 at the list's own address", () => {
    const href = listPageHref("/hosts");
    expect(href(1)).toBe("/hosts");
    expect(href(3)).toBe("/hosts?page=3");
  });
});

/** Each link as text, address and the attributes that name it. */
function linksOf(html: string): Array<{ text: string; href?: string; rel?: string; label?: string }> {
  return [...html.matchAll(/<a ([^>]*)>([^<]*)<\/a>/g)].map(([, attributes, text]) => {
    const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(attributes!)?.[1];
    return { text: text!, href: attribute("href"), rel: attribute("rel"), label: attribute("aria-label") };
  });
}

describe("Pagination", () => {
  const render = (page: number, total: number) =>
    renderToStaticMarkup(createElement(Pagination, { page, pageSize: 50, total, hrefFor: listPageHref("/links") }));

  it("is absent when the list fits on one page", () => {
    expect(render(1, 50)).toBe("");
  });

  it("shows the range and links to the other pages", () => {
    const html = render(2, 120);
    expect(html).toContain('aria-label="Pages"');
    expect(html).toContain("51–100 of 120 · page 2 of 3");
    expect(linksOf(html)).toEqual([
      { text: "«", href: "/links", rel: undefined, label: "First page" },
      { text: "Previous", href: "/links", rel: "prev", label: undefined },
      { text: "Next", href: "/links?page=3", rel: "next", label: undefined },
      { text: "»", href: "/links?page=3", rel: undefined, label: "Last page" },
    ]);
  });

  it("shows what cannot be followed at either end, without a link", () => {
    const first = render(1, 120);
    expect(first).toContain("1–50 of 120 · page 1 of 3");
    expect(first).toMatch(/<span [^>]*>Previous<\/span>/);
    expect(linksOf(first).map((link) => link.text)).toEqual(["Next", "»"]);
    const last = render(3, 120);
    expect(last).toContain("101–120 of 120 · page 3 of 3");
    expect(last).toMatch(/<span [^>]*>Next<\/span>/);
    expect(linksOf(last).map((link) => link.text)).toEqual(["«", "Previous"]);
  });
});
