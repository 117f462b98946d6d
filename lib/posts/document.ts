// A result as a forum post: a small document (a title, lists of facts, tables, commands, hints)
// and its two renderings, Markdown (GitHub, Reddit, Discourse: GFM tables, fenced code) and BBCode
// (phpBB, vBulletin, XenForo and the forums of the write-ups: [b], [table], [code], [list]).
// Pure: no I/O, safe in the browser.

export const POST_FORMATS = ["markdown", "bbcode"] as const;
export type PostFormat = (typeof POST_FORMATS)[number];

export const POST_FORMAT_LABELS: Record<PostFormat, string> = { markdown: "Markdown", bbcode: "BBCode" };

/** A label and its value: "Link: ab-10g (10 Gbit/s)". */
export type PostFact = { label: string; value: string };

export type PostColumn = { label: string; align: "left" | "right" };

export type PostBlock =
  | { kind: "heading"; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "facts"; facts: PostFact[] }
  | { kind: "table"; columns: PostColumn[]; rows: string[][] }
  | { kind: "code"; label: string; code: string }
  | { kind: "list"; items: string[] };

export type PostDocument = { title: string; blocks: PostBlock[] };

// ---------------------------------------------------------------- Markdown

// Characters that would start emphasis, code, links, HTML or a table cell in a line of text.
const MARKDOWN_SPECIAL = /[\\`*_[\]<>|]/g;

function markdownText(value: string): string {
  return value.replace(MARKDOWN_SPECIAL, (found) => `\\${found}`);
}

/** A fence longer than any run of backticks in the code, so that none of them closes it. */
function fenceFor(code: string): string {
  const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((match) => match[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

function markdownTable(columns: PostColumn[], rows: string[][]): string[] {
  const cell = (value: string) => markdownText(value).replace(/\n/g, " ");
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [
    line(columns.map((column) => cell(column.label))),
    line(columns.map((column) => (column.align === "right" ? "---:" : "---"))),
    ...rows.map((row) => line(columns.map((_, index) => cell(row[index] ?? "")))),
  ];
}

function markdownBlock(block: PostBlock): string[] {
  switch (block.kind) {
    case "heading":
      return [`### ${markdownText(block.text)}`];
    case "paragraph":
      return [markdownText(block.text)];
    case "facts":
      return block.facts.map((fact) => `- **${markdownText(fact.label)}:** ${markdownText(fact.value)}`);
    case "table":
      return markdownTable(block.columns, block.rows);
    case "code": {
      const fence = fenceFor(block.code);
      return [`${markdownText(block.label)}:`, "", `${fence}sh`, block.code, fence];
    }
    case "list":
      return block.items.map((item) => `- ${markdownText(item)}`);
  }
}

/** The post in Markdown: a bold title, then each block, one blank line apart. */
export function renderMarkdown(document: PostDocument): string {
  const parts = [
    `**${markdownText(document.title)}**`,
    ...document.blocks.map((block) => markdownBlock(block).join("\n")),
  ];
  return `${parts.join("\n\n")}\n`;
}

// ---------------------------------------------------------------- BBCode

// BBCode has no escape: a bracket that would open a tag is written as a full-width one, which reads the same.
function bbText(value: string): string {
  return value.replace(/\[/g, "［").replace(/\]/g, "］");
}

function bbBlock(block: PostBlock): string[] {
  switch (block.kind) {
    case "heading":
      return [`[b]${bbText(block.text)}[/b]`];
    case "paragraph":
      return [bbText(block.text)];
    case "facts":
      return [
        "[list]",
        ...block.facts.map((fact) => `[*][b]${bbText(fact.label)}:[/b] ${bbText(fact.value)}`),
        "[/list]",
      ];
    case "table": {
      // [td] only: not every forum knows [th]; the header row is bold instead.
      const row = (cells: string[], isHeader: boolean) =>
        `[tr]${cells
          .map((value) => bbText(value).replace(/\n/g, " "))
          .map((value) => `[td]${isHeader && value ? `[b]${value}[/b]` : value}[/td]`)
          .join("")}[/tr]`;
      return [
        "[table]",
        row(
          block.columns.map((column) => column.label),
          true,
        ),
        ...block.rows.map((cells) =>
          row(
            block.columns.map((_, index) => cells[index] ?? ""),
            false,
          ),
        ),
        "[/table]",
      ];
    }
    case "code":
      // Inside [code] nothing is parsed but its own closing tag.
      return [`${bbText(block.label)}:`, `[code]${block.code.replace(/\[\/code\]/gi, "[/ code]")}[/code]`];
    case "list":
      return ["[list]", ...block.items.map((item) => `[*]${bbText(item)}`), "[/list]"];
  }
}

/** The post in BBCode: a bold title, then each block, one blank line apart. */
export function renderBBCode(document: PostDocument): string {
  const parts = [`[b]${bbText(document.title)}[/b]`, ...document.blocks.map((block) => bbBlock(block).join("\n"))];
  return `${parts.join("\n\n")}\n`;
}

export function renderPost(document: PostDocument, format: PostFormat): string {
  return format === "markdown" ? renderMarkdown(document) : renderBBCode(document);
}
