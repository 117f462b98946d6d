import { describe, expect, it } from "vitest";
import {
  channelAsSeenBy,
  deliveryErrorAsSeenBy,
  isLinkLocalAddress,
  isLinkLocalHost,
  secretsDroppedByMove,
  urlsToOrigins,
  type ChannelJson,
} from "@/lib/notify/contract";

// The pure rules of the channel contract: which addresses a channel may not reach, what a
// viewer sees of a URL, and which secrets a change of destination drops.

describe("isLinkLocalAddress and isLinkLocalHost", () => {
  it("refuses 169.254.0.0/16, fe80::/10, fd00:ec2::254 and their IPv4-mapped forms", () => {
    for (const address of [
      "169.254.169.254",
      "169.254.0.0",
      "169.254.255.255",
      "fe80::1",
      "FE80::abcd:1",
      "febf:ffff::1",
      "fe80::1%eth0",
      "[fe80::1]",
      "fd00:ec2::254",
      "fd00:0ec2:0000:0000:0000:0000:0000:0254",
      "::ffff:169.254.169.254",
      "::ffff:a9fe:a9fe",
      "0:0:0:0:0:ffff:a9fe:1",
    ]) {
      expect(isLinkLocalAddress(address), address).toBe(true);
    }
  });

  it("allows loopback, private, unique local and public addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.0.0.5",
      "172.16.0.1",
      "192.168.1.20",
      "169.253.255.255",
      "169.255.0.1",
      "::1",
      "fc00::1",
      "fd00::254",
      "fd00:ec2::253",
      "fec0::1",
      "::ffff:10.0.0.1",
      "2001:db8::1",
      "not an address",
    ]) {
      expect(isLinkLocalAddress(address), address).toBe(false);
    }
  });

  it("reads a host as a URL would: other IPv4 notations and IPv6 with or without brackets", () => {
    for (const host of [
      "0xa9fea9fe",
      "2852039166",
      "169.254.43518",
      "0251.0376.0251.0376",
      "fe80::1",
      "[fd00:ec2::254]",
    ])
      expect(isLinkLocalHost(host), host).toBe(true);
    for (const host of ["mail.lan", "localhost", "192.168.1.1", "::1"]) expect(isLinkLocalHost(host), host).toBe(false);
  });
});

describe("what a viewer sees", () => {
  const channel: ChannelJson = {
    id: 1,
    name: "ha",
    type: "webhook",
    config: { url: "https://ha.lan:8123/api/webhook/secret-id?token=x" },
    secretsSet: [],
    createdAt: "2025-01-02T03:04:05.000Z",
    updatedAt: "2025-01-02T03:04:05.000Z",
  };

  it("gives a viewer the origin of a channel's URL, operators and admins all of it", () => {
    expect(channelAsSeenBy(channel, "viewer").config).toEqual({ url: "https://ha.lan:8123" });
    expect(channelAsSeenBy(channel, "operator")).toBe(channel);
    expect(channelAsSeenBy(channel, "admin")).toBe(channel);
    const mail = { ...channel, type: "email" as const, config: { host: "mail.lan", port: 25 } };
    expect(channelAsSeenBy(mail, "viewer")).toBe(mail);
  });

  it("cuts every URL of a delivery error to its origin for a viewer, keeping the sentence around it", () => {
    expect(urlsToOrigins("could not reach http://10.0.0.5:8080/api/webhook/abc: the connection was refused")).toBe(
      "could not reach http://10.0.0.5:8080: the connection was refused",
    );
    expect(urlsToOrigins("HTTP 500 from https://ntfy.sh/secret-topic")).toBe("HTTP 500 from https://ntfy.sh");
    expect(urlsToOrigins("no answer from http://[fd00::5]/hook within 10 s")).toBe(
      "no answer from http://[fd00::5] within 10 s",
    );
    const error = "HTTP 404 from http://gotify.lan/secret-path/message";
    expect(deliveryErrorAsSeenBy(error, "viewer")).toBe("HTTP 404 from http://gotify.lan");
    expect(deliveryErrorAsSeenBy(error, "operator")).toBe(error);
    expect(deliveryErrorAsSeenBy(null, "viewer")).toBeNull();
  });
});

describe("secretsDroppedByMove", () => {
  it("drops the stored secrets the change does not send again, when a destination field changes", () => {
    const before = { url: "http://a.lan/t", token: "t1" };
    expect(
      secretsDroppedByMove("ntfy", before, { ...before, url: "http://b.lan/t" }, { url: "http://b.lan/t" }),
    ).toEqual(["token"]);
    expect(
      secretsDroppedByMove("ntfy", before, { url: "http://b.lan/t", token: "t2" }, { url: "x", token: "t2" }),
    ).toEqual([]);
    expect(secretsDroppedByMove("ntfy", before, before, { url: "http://a.lan/t" })).toEqual([]);
    const mail = { host: "m.lan", port: 587, security: "starttls", insecureTls: false, password: "p" };
    expect(secretsDroppedByMove("email", mail, { ...mail, to: "x@y.lan" }, { to: "x@y.lan" })).toEqual([]);
    expect(secretsDroppedByMove("email", mail, { ...mail, insecureTls: true }, { insecureTls: true })).toEqual([
      "password",
    ]);
  });
});
