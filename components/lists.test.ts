import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuditList } from "@/components/auth/AuditList";
import { HostList } from "@/components/hosts/HostList";
import { NicTable } from "@/components/hosts/NicTable";
import { LinkList } from "@/components/links/LinkList";
import type { AuditEventView } from "@/lib/auth/audit";
import type { HostDetail } from "@/lib/inventory/host-reads";
import type { HostView } from "@/lib/inventory/hosts";
import type { LinkView } from "@/lib/inventory/links";

// The lists render through one TableOrCards: what the end-to-end specs select on them stays.

/** The element that carries `data-testid="<testId>"`, up to its closing tag (no nesting of the same tag inside). */
function elementWithTestId(html: string, testId: string, tag: string): string {
  const start = html.search(new RegExp(`<${tag} [^>]*data-testid="${testId}"`));
  expect(start, `${tag} with data-testid="${testId}"`).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf(`</${tag}>`, start));
}

const host = {
  id: 7,
  name: "ui-alpha",
  isLocal: false,
  username: "root",
  address: "198.18.0.2",
  port: 22,
  platform: "linux",
  iperf3Version: "3.12",
  hostKeyFingerprint: "SHA256:x",
  lastSeenAt: null,
  nicCount: 2,
  access: "ssh",
  jumpHostId: null,
  jumpChain: [],
  kind: null,
  tags: ["rack1"],
} as unknown as HostView;

describe("HostList", () => {
  it("has a row per host in a table named Hosts, the name linking to the host", () => {
    const html = renderToStaticMarkup(createElement(HostList, { hosts: [host] }));
    expect(html).toContain('<caption class="sr-only">Hosts</caption>');
    expect(html).toContain('aria-label="Hosts"');
    const row = elementWithTestId(html, "host-row-7", "tr");
    expect(row).toContain('href="/hosts/7"');
    expect(row).toContain(">ui-alpha</a>");
    expect(row).toContain('data-testid="host-status"');
    expect(row).toContain('href="/grid?tag=rack1"');
    for (const header of ["Name", "Address", "Platform", "iperf3", "Status", "Last seen", "NICs"])
      expect(html).toContain(`>${header}</th>`);
  });
});

describe("LinkList", () => {
  const end = (hostName: string, mtu: number) => ({
    host: { id: 1, name: hostName },
    nic: { id: 1, name: "eth1", address: "198.18.0.2", mtu },
  });
  const link = (id: number, bMtu: number) =>
    ({
      id,
      name: `link-${id}`,
      speedMbps: 1000,
      runCount: 3,
      mtuMismatch: bMtu !== 9000,
      a: end("ui-alpha", 9000),
      b: end("ui-beta", bMtu),
    }) as unknown as LinkView;

  it("marks a link whose ends differ in MTU, in its row", () => {
    const html = renderToStaticMarkup(createElement(LinkList, { links: [link(1, 9000), link(2, 1500)] }));
    expect(elementWithTestId(html, "link-row-1", "tr")).not.toContain("mtu-mismatch");
    const row = elementWithTestId(html, "link-row-2", "tr");
    expect(row).toContain('href="/links/2"');
    expect(row).toContain('ui-alpha</span> <span class="font-mono text-xs">eth1');
    expect(row).toContain('data-testid="mtu-mismatch"');
    expect(row).toContain("MTU mismatch 9000/1500");
    for (const header of ["Name", "A end", "B end", "Speed", "Runs"]) expect(html).toContain(`>${header}</th>`);
  });
});

describe("NicTable", () => {
  const nic = {
    id: 3,
    name: "eth1",
    model: "X710",
    driver: "i40e",
    speedMbps: 10000,
    mtu: 9000,
    addresses: ["198.18.0.2/30"],
    pcieLinkWidth: 8,
    pcieLinkSpeed: "8GT/s",
    linkCount: 1,
  } as unknown as HostDetail["nics"][number];

  it("has a row and a card per NIC, with its MTU and addresses", () => {
    const html = renderToStaticMarkup(createElement(NicTable, { nics: [nic] }));
    const row = elementWithTestId(html, "nic-row-eth1", "tr");
    expect(row).toMatch(/data-testid="nic-mtu">9000</);
    expect(row).toContain('data-testid="nic-addresses"><ul><li class="whitespace-nowrap">198.18.0.2/30</li></ul>');
    expect(elementWithTestId(html, "nic-card-eth1", "li")).toContain("eth1");
    for (const header of ["Name", "Model", "Speed", "MTU", "Addresses", "PCIe"])
      expect(html).toContain(`>${header}</th>`);
  });
});

describe("AuditList", () => {
  const event: AuditEventView = {
    id: 1,
    at: "2026-01-02T03:04:05.000Z",
    actorName: "WIRESPEED_API_TOKEN",
    action: "run.start",
    target: "run",
    targetId: 4,
    detail: "link 2",
  };

  it("keeps the table the audit spec reads", () => {
    const html = renderToStaticMarkup(createElement(AuditList, { events: [event] }));
    const table = elementWithTestId(html, "audit-table", "table");
    expect(table).toContain("run.start #4");
    expect(table).toContain("WIRESPEED_API_TOKEN");
    for (const header of ["When", "Who", "What", "Details"]) expect(table).toContain(`>${header}</th>`);
    expect(html).toContain('aria-label="Audit events"');
  });
});
