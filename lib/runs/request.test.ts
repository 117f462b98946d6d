import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { parseRunRequest } from "./request";
import { directionFlags, directionOf } from "./contract";

function fieldsOf(body: unknown): Record<string, string> {
  try {
    parseRunRequest(body);
  } catch (error) {
    if (error instanceof AppError) return Object.fromEntries(error.fields.map((f) => [f.field, f.message]));
    throw error;
  }
  throw new Error("expected a validation error");
}

describe("directionFlags", () => {
  it("maps direction and client side onto -R and --bidir", () => {
    expect(directionFlags("a-to-b", "a")).toEqual({ reverse: false, bidir: false });
    expect(directionFlags("a-to-b", "b")).toEqual({ reverse: true, bidir: false });
    expect(directionFlags("b-to-a", "a")).toEqual({ reverse: true, bidir: false });
    expect(directionFlags("b-to-a", "b")).toEqual({ reverse: false, bidir: false });
    expect(directionFlags("bidir", "b")).toEqual({ reverse: false, bidir: true });
  });

  it("is undone by directionOf", () => {
    for (const direction of ["a-to-b", "b-to-a", "bidir"] as const) {
      for (const side of ["a", "b"] as const)
        expect(directionOf(directionFlags(direction, side), side)).toBe(direction);
    }
  });
});

describe("parseRunRequest", () => {
  it("applies defaults: TCP, 10 s, one stream, a to b from a", () => {
    const request = parseRunRequest({});
    expect(request).toMatchObject({ direction: "a-to-b", clientSide: "a" });
    expect(request.options).toMatchObject({ protocol: "tcp", duration: 10, parallel: 1, reverse: false, bidir: false });
  });

  it("turns b-to-a into a reverse run from side a", () => {
    expect(parseRunRequest({ direction: "b-to-a", parallel: 4 }).options).toMatchObject({ reverse: true, parallel: 4 });
  });

  it("names every bad field and what is allowed, once", () => {
    const fields = fieldsOf({ direction: "up", clientSide: "c", parallel: 500, protocol: "udp", reverse: true });
    expect(fields.direction).toBe('must be "a-to-b", "b-to-a" or "bidir"');
    expect(fields.clientSide).toBe('must be "a" or "b"');
    expect(fields.parallel).toBe("must be a whole number from 1 to 128 streams");
    expect(fields.bitrate).toMatch(/required for udp/);
    expect(fields.reverse).toMatch(/direction/);
  });

  it("refuses hostile text in option fields instead of passing it on", () => {
    const fields = fieldsOf({ congestion: "cubic; touch /tmp/x", bind: "$(touch /tmp/x)" });
    expect(Object.keys(fields).sort()).toEqual(["bind", "congestion"]);
  });
});
