// A run, an experiment, a compare or a link's history as a post's document (lib/posts/document.ts):
// the hosts, NICs, link speed and MTU; the iperf3 versions and the commands of both ends; the result
// table with the share of the line rate; the environment lines that matter; the findings. With an
// anonymizer that hides (lib/format/anonymize.ts), every host name and address becomes "host A",
// "10.0.0.x". Figures through lib/format. Pure: no I/O, safe in the browser.
import { environmentRows } from "@/lib/diagnosis/format";
import type { EnvironmentSnapshot, Hint } from "@/lib/diagnosis/contract";
import type { ColumnFormat, ResultTable, TableCell, TableColumn } from "@/lib/experiments/contract";
import { formatCell } from "@/lib/experiments/cells";
import { isNumericColumn } from "@/lib/experiments/compare";
import { createAnonymizer, showEverything, type Anonymizer } from "@/lib/format/anonymize";
import { formatBitRate, formatBytes, formatLinkSpeed, formatNumber, formatPercent, formatRate } from "@/lib/format";
import { describeOptions } from "@/lib/runs/describe";
import type { RunDirection } from "@/lib/runs/contract";
import type { PostBlock, PostColumn, PostDocument, PostFact } from "./document";
import type {
  ExperimentComparePostSource,
  ExperimentPostSource,
  LinkHistoryPostSource,
  PostEnd,
  PostEnds,
  PostLink,
  PostSource,
  PostTest,
  RunComparePostSource,
  RunPostSource,
} from "./sources";

/**
 * The anonymizer for a post: hides nothing, or every host of the source (the A side of each link
 * first) and every link's name, which is often made of its hosts' ("alpha-beta-10g" → "link 1").
 */
export function anonymizerFor(source: PostSource, hide: boolean): Anonymizer {
  if (!hide) return showEverything;
  const links = "links" in source ? source.links : [source.link];
  return createAnonymizer(
    links.flatMap((link) => [link.a.hostName, link.b.hostName]),
    links.map((link) => link.name),
  );
}

/** The post of a source, with the lab's names hidden or not. */
export function buildPost(source: PostSource, hide: boolean): PostDocument {
  const hidden = anonymizerFor(source, hide);
  switch (source.kind) {
    case "run":
      return runPost(source, hidden);
    case "experiment":
      return experimentPost(source, hidden);
    case "experiment-compare":
      return experimentComparePost(source, hidden);
    case "run-compare":
      return runComparePost(source, hidden);
    case "link-history":
      return linkHistoryPost(source, hidden);
  }
}

// ---------------------------------------------------------------- shared pieces

const left = (label: string): PostColumn => ({ label, align: "left" });
const right = (label: string): PostColumn => ({ label, align: "right" });

/** "2026-01-05 10:00 UTC": a date as every reader reads it, whatever their zone. */
export function postDate(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

function endOf(link: PostLink, side: "a" | "b"): PostEnd {
  return side === "a" ? link.a : link.b;
}

function otherSide(side: "a" | "b"): "a" | "b" {
  return side === "a" ? "b" : "a";
}

/** "alpha → beta", with the names hidden or not. */
function directionWords(direction: RunDirection, link: PostLink, hidden: Anonymizer): string {
  const a = hidden.host(link.a.hostName);
  const b = hidden.host(link.b.hostName);
  if (direction === "bidir") return `${a} ⇄ ${b}`;
  return direction === "a-to-b" ? `${a} → ${b}` : `${b} → ${a}`;
}

/** "enp1s0 (10.0.0.1), 10 Gbit/s, MTU 9000": a NIC as a reader of the post needs it. */
function nicWords(end: PostEnd, hidden: Anonymizer): string {
  // text, not address: an inventory address may carry its prefix length ("10.0.0.1/24").
  const parts = [end.address ? `${end.nicName} (${hidden.text(end.address)})` : end.nicName];
  if (end.nicSpeedMbps !== null) parts.push(formatLinkSpeed(end.nicSpeedMbps));
  parts.push(end.mtu === null ? "MTU unknown" : `MTU ${end.mtu}`);
  return parts.join(", ");
}

/** "ab-10g, 10 Gbit/s; a: alpha enp1s0 (10.0.0.1), 10 Gbit/s, MTU 9000 ↔ b: beta …": one line per link. */
function linkWords(link: PostLink, hidden: Anonymizer): string {
  const end = (side: "a" | "b") => {
    const value = endOf(link, side);
    return `${side}: ${hidden.host(value.hostName)} ${nicWords(value, hidden)}`;
  };
  return `${hidden.text(link.name)}, ${formatLinkSpeed(link.speedMbps)}; ${end("a")} ↔ ${end("b")}`;
}

/** "TCP, 4 streams, 10 s" (or "1 GB", or "at 2 Gbit/s" for UDP). */
function testWords(test: PostTest): string {
  const parts = [test.protocol.toUpperCase(), test.parallel === 1 ? "1 stream" : `${test.parallel} streams`];
  if (test.bytes !== undefined) parts.push(formatBytes(test.bytes));
  else parts.push(`${test.duration ?? 10} s`);
  if (test.protocol === "udp" && test.bitrate !== undefined && test.bitrate > 0)
    parts.push(`at ${formatBitRate(test.bitrate)}`);
  return parts.join(", ");
}

/** A hint in one line: "PCIe slot narrower than the card. The card runs at … Move it to …". */
function hintWords(hint: Hint, hidden: Anonymizer): string {
  const title = /[.!?]$/.test(hint.title) ? hint.title : `${hint.title}.`;
  return hidden.text(`${title} ${hint.evidence} ${hint.suggestion}`.replace(/\s+/g, " ").trim());
}

function findingsBlocks(hints: readonly Hint[], hidden: Anonymizer): PostBlock[] {
  if (hints.length === 0) return [];
  return [
    { kind: "heading", text: "Findings" },
    { kind: "list", items: hints.map((hint) => hintWords(hint, hidden)) },
  ];
}

// The environment lines a forum reader asks for first: what the host is, its CPU, the NIC's driver,
// speed, MTU and PCIe link, the congestion control. The rest stays on the run page.
const ENVIRONMENT_KEYS = [
  "os",
  "kernel",
  "virtualization",
  "cpu.model",
  "cpu.cores",
  "nic.driver",
  "nic.speed",
  "nic.mtu",
  "nic.pcie",
  "tcp.congestion",
];

function environmentBlocks(ends: PostEnds, link: PostLink, hidden: Anonymizer): PostBlock[] {
  const environment = ends.environment;
  if (!environment || (!environment.client && !environment.server)) return [];
  const clientEnd = endOf(link, ends.clientSide);
  const serverEnd = endOf(link, otherSide(ends.clientSide));
  const rowsOf = (snapshot: EnvironmentSnapshot | null) =>
    new Map((snapshot ? environmentRows(snapshot) : []).map((row) => [row.key, row.value]));
  const client = rowsOf(environment.client);
  const server = rowsOf(environment.server);
  const labels = new Map(environmentRows(environment.client ?? environment.server!).map((row) => [row.key, row.label]));
  const rows = ENVIRONMENT_KEYS.map((key) => [
    labels.get(key) ?? key,
    hidden.text(client.get(key) ?? "unknown"),
    hidden.text(server.get(key) ?? "unknown"),
  ]).filter(([, clientValue, serverValue]) => clientValue !== "unknown" || serverValue !== "unknown");
  if (rows.length === 0) return [];
  return [
    { kind: "heading", text: "Environment" },
    {
      kind: "table",
      columns: [
        left(""),
        left(`${hidden.host(clientEnd.hostName)} (client)`),
        left(`${hidden.host(serverEnd.hostName)} (server)`),
      ],
      rows,
    },
  ];
}

function commandBlocks(ends: PostEnds, link: PostLink, hidden: Anonymizer, heading: string): PostBlock[] {
  const blocks: PostBlock[] = [];
  for (const role of ["server", "client"] as const) {
    const command = ends.commands[role];
    if (!command) continue;
    const side = role === "client" ? ends.clientSide : otherSide(ends.clientSide);
    const version = ends.versions[role];
    blocks.push({
      kind: "code",
      label: `${role === "server" ? "Server" : "Client"} on ${hidden.host(endOf(link, side).hostName)}${version ? ` (iperf3 ${version})` : ""}`,
      code: hidden.text(command),
    });
  }
  return blocks.length > 0 ? [{ kind: "heading", text: heading }, ...blocks] : [];
}

/** "3.16 on alpha (client), 3.12 on beta (server)"; null when neither end said. */
function versionWords(ends: PostEnds, link: PostLink, hidden: Anonymizer): string | null {
  const parts = (["client", "server"] as const).flatMap((role) => {
    const version = ends.versions[role] ?? ends.environment?.[role]?.iperf3Version ?? null;
    const side = role === "client" ? ends.clientSide : otherSide(ends.clientSide);
    return version ? [`${version} on ${hidden.host(endOf(link, side).hostName)} (${role})`] : [];
  });
  return parts.length > 0 ? parts.join(", ") : null;
}

// ---------------------------------------------------------------- a run

function runPost(source: RunPostSource, hidden: Anonymizer): PostDocument {
  const { link, test, summary, ends } = source;
  const clientEnd = endOf(link, ends.clientSide);
  const serverEnd = endOf(link, otherSide(ends.clientSide));
  const headline =
    summary?.receivedBitsPerSecond != null
      ? `${formatBitRate(summary.receivedBitsPerSecond)}` +
        (summary.lineRatePercent !== null
          ? ` (${formatPercent(summary.lineRatePercent)} of ${formatLinkSpeed(link.speedMbps)})`
          : "")
      : source.status;
  const title = `iperf3 ${test.protocol.toUpperCase()} ${directionWords(test.direction, link, hidden)}: ${headline}`;

  const facts: PostFact[] = [
    { label: "Link", value: `${hidden.text(link.name)}, ${formatLinkSpeed(link.speedMbps)}` },
    { label: "Client", value: `${hidden.host(clientEnd.hostName)}, NIC ${nicWords(clientEnd, hidden)}` },
    { label: "Server", value: `${hidden.host(serverEnd.hostName)}, NIC ${nicWords(serverEnd, hidden)}` },
    { label: "Test", value: `${testWords(test)}, ${directionWords(test.direction, link, hidden)}` },
  ];
  const versions = versionWords(ends, link, hidden);
  if (versions) facts.push({ label: "iperf3", value: versions });
  facts.push({ label: "Date", value: postDate(source.createdAt) });
  if (source.status !== "succeeded") facts.push({ label: "Status", value: source.status });

  const blocks: PostBlock[] = [{ kind: "facts", facts }];
  if (source.error) blocks.push({ kind: "paragraph", text: `Error: ${hidden.text(source.error)}` });
  if (summary) {
    const isUdp = test.protocol === "udp";
    const columns = [
      left("Direction"),
      right("Sent"),
      right("Received"),
      ...(isUdp ? [right("Jitter"), right("Loss")] : [right("Retransmits")]),
      right("Of line rate"),
    ];
    // A reverse or bidir test's "forward" figures are those of the client's own direction.
    const forward: RunDirection = ends.clientSide === "a" ? "a-to-b" : "b-to-a";
    const mainDirection = test.direction === "bidir" ? forward : test.direction;
    const rows = [
      [
        directionWords(mainDirection, link, hidden),
        formatRate(summary.sentBitsPerSecond),
        formatRate(summary.receivedBitsPerSecond),
        ...(isUdp
          ? [
              summary.jitterMs === null ? "–" : `${formatNumber(summary.jitterMs)} ms`,
              formatPercent(summary.lostPercent, 2),
            ]
          : [summary.retransmits === null ? "–" : String(summary.retransmits)]),
        formatPercent(summary.lineRatePercent),
      ],
    ];
    if (summary.reverse) {
      const back: RunDirection = mainDirection === "a-to-b" ? "b-to-a" : "a-to-b";
      rows.push([
        directionWords(back, link, hidden),
        formatRate(summary.reverse.sentBitsPerSecond),
        formatRate(summary.reverse.receivedBitsPerSecond),
        ...(isUdp ? ["–", "–"] : [summary.reverse.retransmits === null ? "–" : String(summary.reverse.retransmits)]),
        formatPercent(summary.reverse.lineRatePercent),
      ]);
    }
    blocks.push({ kind: "heading", text: "Result" }, { kind: "table", columns, rows });
    const cpu = [
      summary.clientCpuPercent !== null
        ? `${formatPercent(summary.clientCpuPercent)} on ${hidden.host(clientEnd.hostName)} (client)`
        : null,
      summary.serverCpuPercent !== null
        ? `${formatPercent(summary.serverCpuPercent)} on ${hidden.host(serverEnd.hostName)} (server)`
        : null,
    ].filter((part) => part !== null);
    const notes: PostFact[] = [];
    if (cpu.length > 0) notes.push({ label: "iperf3 CPU", value: cpu.join(", ") });
    if (source.againstBaseline) notes.push({ label: "Against the link's baseline", value: source.againstBaseline });
    if (notes.length > 0) blocks.push({ kind: "facts", facts: notes });
  }
  blocks.push(
    ...environmentBlocks(ends, link, hidden),
    ...commandBlocks(ends, link, hidden, "Commands"),
    ...findingsBlocks(source.hints, hidden),
  );
  return { title, blocks };
}

// ---------------------------------------------------------------- an experiment's table

/** A result table's cell as text, the way the experiment page reads it (rates in bits). */
export const cellText = (cell: TableCell | undefined, format: ColumnFormat): string => formatCell(cell, format);

const hasValue = (cell: TableCell | undefined) =>
  cell !== null && cell !== undefined && cell !== "" && !(Array.isArray(cell) && cell.length === 0);

/** The columns a post shows: not the run ids (they mean nothing outside the lab), not those empty in every row. */
function postColumns(columns: readonly TableColumn[], rows: ResultTable["rows"]): TableColumn[] {
  return columns.filter(
    (column, index) => column.format !== "runs" && (index === 0 || rows.some((row) => hasValue(row.cells[column.key]))),
  );
}

const alignOf = (column: TableColumn): PostColumn =>
  isNumericColumn(column) ? right(column.label) : left(column.label);

function resultTableBlock(table: ResultTable, hidden: Anonymizer): PostBlock | null {
  if (table.rows.length === 0) return null;
  const columns = postColumns(table.columns, table.rows);
  return {
    kind: "table",
    columns: columns.map(alignOf),
    rows: table.rows.map((row) =>
      columns.map((column) => {
        const text = hidden.text(cellText(row.cells[column.key], column.format));
        return row.isSum && column === columns[0] && text === "–" ? "Sum" : text;
      }),
    ),
  };
}

// ---------------------------------------------------------------- an experiment

function experimentPost(source: ExperimentPostSource, hidden: Anonymizer): PostDocument {
  const { experiment, firstRun } = source;
  const name = hidden.text(experiment.name);
  const title = name === source.kindTitle ? name : `${source.kindTitle}: ${name}`;
  const blocks: PostBlock[] = [];
  if (experiment.answer) blocks.push({ kind: "paragraph", text: hidden.text(experiment.answer) });
  const facts: PostFact[] = source.links.map((link) => ({
    label: "Link",
    value: linkWords(link, hidden),
  }));
  if (firstRun) {
    const versions = versionWords(firstRun, firstRun.link, hidden);
    if (versions) facts.push({ label: "iperf3", value: versions });
  }
  facts.push({ label: "Date", value: postDate(experiment.createdAt) });
  if (experiment.status !== "succeeded") facts.push({ label: "Status", value: experiment.status });
  blocks.push({ kind: "facts", facts });
  const table = experiment.table ? resultTableBlock(experiment.table, hidden) : null;
  if (table) blocks.push({ kind: "heading", text: "Results" }, table);
  if (firstRun) {
    blocks.push(
      ...environmentBlocks(firstRun, firstRun.link, hidden),
      ...commandBlocks(
        firstRun,
        firstRun.link,
        hidden,
        "Commands (the first run; the others change what the table says)",
      ),
    );
  }
  blocks.push(...findingsBlocks(source.hints, hidden));
  return { title, blocks };
}

// ---------------------------------------------------------------- two experiments compared

/** B against A in %, signed: "+12.5 %", "−3.0 %", "0.0 %"; "–" without one. */
export function differenceText(percent: number | null | undefined): string {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return "–";
  const rounded = Math.round(percent * 10) / 10;
  if (rounded === 0) return "0.0 %";
  return `${rounded > 0 ? "+" : "−"}${formatPercent(Math.abs(rounded))}`;
}

function experimentComparePost(source: ExperimentComparePostSource, hidden: Anonymizer): PostDocument {
  const { a, b, comparison } = source;
  const title = `${source.kindTitle}, before and after: ${hidden.text(a.name)} (A) against ${hidden.text(b.name)} (B)`;
  const side = (label: string, experiment: typeof a): PostFact => ({
    label,
    value: `${hidden.text(experiment.name)}, ${postDate(experiment.createdAt)}${experiment.answer ? `: ${hidden.text(experiment.answer)}` : ""}`,
  });
  const blocks: PostBlock[] = [
    {
      kind: "facts",
      facts: [
        side("A", a),
        side("B", b),
        ...source.links.map((link) => ({ label: "Link", value: linkWords(link, hidden) })),
      ],
    },
  ];
  if (!comparison.isComparable) {
    blocks.push({ kind: "paragraph", text: hidden.text(comparison.message) });
    return { title, blocks };
  }
  const { columns: all, rows } = comparison.comparison;
  const cells = rows.flatMap((row) => [row.a, row.b].filter((side) => side !== null));
  const columns = postColumns(all, cells);
  if (rows.length > 0) {
    blocks.push(
      { kind: "heading", text: "Row by row: A → B (B against A)" },
      {
        kind: "table",
        columns: columns.map(alignOf),
        rows: rows.map((row) =>
          columns.map((column, index) => {
            const aText = row.a ? cellText(row.a.cells[column.key], column.format) : "–";
            const bText = row.b ? cellText(row.b.cells[column.key], column.format) : "–";
            if (index === 0 && row.isSum && aText === "–" && bText === "–") return "Sum";
            // The same figure on both sides reads once.
            if (aText === bText || (!isNumericColumn(column) && bText === "–")) return hidden.text(aText);
            if (!isNumericColumn(column)) return hidden.text(`${aText} → ${bText}`);
            const difference = row.differences[column.key];
            return hidden.text(
              `${aText} → ${bText}${difference === null || difference === undefined ? "" : ` (${differenceText(difference)})`}`,
            );
          }),
        ),
      },
    );
  }
  return { title, blocks };
}

// ---------------------------------------------------------------- runs compared

/** What the arrows of a test ("TCP ×4 10s ←") mean on this link. */
function directionsNote(link: PostLink, hidden: Anonymizer): PostBlock {
  const [a, b] = [hidden.host(link.a.hostName), hidden.host(link.b.hostName)];
  return { kind: "paragraph", text: `→ is ${a} to ${b}, ← ${b} to ${a}, ⇄ both at once.` };
}

function runComparePost(source: RunComparePostSource, hidden: Anonymizer): PostDocument {
  const { link, runs } = source;
  const title = `${runs.length} runs of ${hidden.text(link.name)} compared`;
  const hasUdp = runs.some((run) => run.test.protocol === "udp");
  const hasTcp = runs.some((run) => run.test.protocol === "tcp");
  const columns = [
    left("Run"),
    left("Date"),
    left("Test"),
    right("Received"),
    right("Of line rate"),
    ...(hasTcp ? [right("Retransmits")] : []),
    ...(hasUdp ? [right("Jitter"), right("Loss")] : []),
  ];
  const rows = runs.map((run) => [
    `#${run.id}`,
    postDate(run.createdAt),
    `${describeOptions(run.test, run.test.direction)}${run.status === "succeeded" ? "" : ` (${run.status})`}`,
    formatRate(run.receivedBitsPerSecond),
    formatPercent(run.lineRatePercent),
    ...(hasTcp ? [run.retransmits === null ? "–" : String(run.retransmits)] : []),
    ...(hasUdp
      ? [run.jitterMs === null ? "–" : `${formatNumber(run.jitterMs)} ms`, formatPercent(run.lostPercent, 2)]
      : []),
  ]);
  const blocks: PostBlock[] = [
    { kind: "facts", facts: [{ label: "Link", value: linkWords(link, hidden) }] },
    directionsNote(link, hidden),
    { kind: "table", columns, rows },
  ];
  if (source.changes.length > 0)
    blocks.push(
      { kind: "heading", text: "What changed between them" },
      { kind: "list", items: source.changes.map((change) => hidden.text(change)) },
    );
  return { title, blocks };
}

// ---------------------------------------------------------------- a link's history

function linkHistoryPost(source: LinkHistoryPostSource, hidden: Anonymizer): PostDocument {
  const { link, points } = source;
  const title = `${hidden.text(link.name)}: ${points.length === source.total ? "every" : `the latest ${points.length} of ${source.total}`} ${source.total === 1 ? "result" : "results"}`;
  const blocks: PostBlock[] = [
    { kind: "facts", facts: [{ label: "Link", value: linkWords(link, hidden) }] },
    directionsNote(link, hidden),
  ];
  if (points.length > 0) {
    const lineRate = link.speedMbps * 1e6;
    const hasNotes = points.some((point) => point.imported || point.offLink);
    blocks.push({
      kind: "table",
      columns: [
        left("Date"),
        left("Test"),
        right("Received"),
        right("Of line rate"),
        ...(hasNotes ? [left("Note")] : []),
      ],
      rows: points.map((point) => [
        postDate(point.time),
        describeOptions(point.test, point.test.direction),
        formatRate(point.receivedBitsPerSecond),
        formatPercent(lineRate > 0 ? (point.receivedBitsPerSecond / lineRate) * 100 : null),
        ...(hasNotes
          ? [[point.imported ? "imported" : "", point.offLink ? "off the link" : ""].filter(Boolean).join(", ")]
          : []),
      ]),
    });
  }
  blocks.push(...findingsBlocks(source.hints, hidden));
  return { title, blocks };
}
