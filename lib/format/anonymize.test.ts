import { describe, expect, it } from "vitest";
import { createAnonymizer, maskAddress, showEverything } from "@/lib/format/anonymize";

describe("hiding host names and addresses", () => {
  it("keeps a private network and hides the host part; a public address loses everything", () => {
    expect(maskAddress("10.0.0.2")).toBe("10.0.0.x");
    expect(maskAddress("192.168.1.20")).toBe("192.168.1.x");
    expect(maskAddress("172.20.3.4")).toBe("172.20.3.x");
    expect(maskAddress("172.32.3.4")).toBe("x.x.x.x");
    expect(maskAddress("198.18.0.2")).toBe("198.18.0.x");
    expect(maskAddress("8.8.8.8")).toBe("x.x.x.x");
    expect(maskAddress("fd00:10::2")).toBe("fd00::x");
    expect(maskAddress("fe80::1%eth0")).toBe("fe80::x");
    expect(maskAddress("2001:db8::1")).toBe("x::x");
    expect(maskAddress("nas.lan")).toBe("nas.lan");
  });

  it("names hosts host A, host B … in the order given, the same name the same letter", () => {
    const hide = createAnonymizer(["alpha", "beta"]);
    expect(hide.host("beta")).toBe("host B");
    expect(hide.host("alpha")).toBe("host A");
    expect(hide.host("gamma")).toBe("host C");
    expect(hide.host("beta")).toBe("host B");
  });

  it("names links link 1, link 2 … in the order given, before their hosts' names, and a short one only as a word", () => {
    const hide = createAnonymizer(["alpha", "beta"], ["alpha-beta-10g", "uplink", "ab"]);
    expect([hide.link("uplink"), hide.link("alpha-beta-10g"), hide.link("other")]).toEqual([
      "link 2",
      "link 1",
      "link 4",
    ]);
    expect(hide.text("alpha-beta-10g and uplink share a bottleneck; alpha alone; ab is a tab")).toBe(
      "link 1 and link 2 share a bottleneck; host A alone; link 3 is a tab",
    );
  });

  it("hides every known name and every address in a text, and nothing else", () => {
    const hide = createAnonymizer(["nas", "nas-backup", "pve1.lan"]);
    expect(hide.text("iperf3 -c 10.0.0.2 -B 10.0.0.1 -P 4 -t 10 --json")).toBe(
      "iperf3 -c 10.0.0.x -B 10.0.0.x -P 4 -t 10 --json",
    );
    expect(hide.text("ssh to nas-backup failed; nas answered; pve1.lan is down")).toBe(
      "ssh to host B failed; host A answered; host C is down",
    );
    expect(hide.text("[fd00:10::2]:5201 and 2001:db8::1 at 12:34:56, mac aa:bb:cc:dd:ee:ff, v3.16")).toBe(
      "[fd00::x]:5201 and x::x at 12:34:56, mac aa:bb:cc:dd:ee:ff, v3.16",
    );
    // An address that ends a sentence (a finding's evidence) is hidden too; a version is no address.
    expect(hide.text("412 retransmits from 10.0.0.2. Reached 10.0.0.3, v1.2.3.4.5")).toBe(
      "412 retransmits from 10.0.0.x. Reached 10.0.0.x, v1.2.3.4.5",
    );
    // A name inside another word is left alone.
    expect(hide.text("canasta")).toBe("canasta");
  });

  it("hides nothing when asked not to", () => {
    expect(showEverything.text("nas 10.0.0.2")).toBe("nas 10.0.0.2");
    expect(showEverything.host("nas")).toBe("nas");
  });
});
