import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { MAX_BODY_BYTES, idFromParams, parseId, readJsonBody } from "@/lib/api/request";

function post(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request("http://localhost/api/hosts", { method: "POST", body, headers });
}

async function thrown(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("readJsonBody", () => {
  it("parses JSON whatever the Content-Type says", async () => {
    expect(await readJsonBody(post('{"a":1}', { "content-type": "application/x-www-form-urlencoded" }))).toEqual({
      a: 1,
    });
    expect(await readJsonBody(post("[1,2]"))).toEqual([1, 2]);
  });

  it.each([
    ["an empty body", "", "is empty: send a JSON object"],
    ["whitespace", "  \n", "is empty: send a JSON object"],
    ["no body", null, "is empty: send a JSON object"],
    ["malformed JSON", '{"password": "hunter2"', "is not valid JSON: send a JSON object"],
  ])("answers 400 naming the body for %s, without quoting it", async (_what, body, message) => {
    const error = await thrown(readJsonBody(post(body)));
    expect(error).toMatchObject({ status: 400, kind: "invalid", fields: [{ field: "body", message }] });
    expect(error.message).toBe(`body ${message}`);
    expect(error.message).not.toContain("hunter2");
  });

  it("answers 413 for a body over the limit, declared or not", async () => {
    const big = `{"notes":"${"n".repeat(MAX_BODY_BYTES)}"}`;
    expect(await thrown(readJsonBody(post(big)))).toMatchObject({ status: 413, kind: "payload-too-large" });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 100; i += 1) controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
        controller.close();
      },
    });
    const undeclared = new Request("http://localhost/api/hosts", {
      method: "POST",
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(await thrown(readJsonBody(undeclared))).toMatchObject({ status: 413 });
  });
});

describe("parseId", () => {
  it.each([
    ["1", 1],
    ["42", 42],
    ["2147483647", 2147483647],
  ])("reads %s", (raw, id) => {
    expect(parseId(raw)).toBe(id);
  });

  it.each(["", "0", "-1", "01", "1.0", "1e3", "0x10", " 1", "abc", "2147483648", "99999999999", null, undefined])(
    "refuses %j naming the field",
    (raw) => {
      expect(() => parseId(raw, "hostId")).toThrowError(
        expect.objectContaining({
          status: 400,
          fields: [{ field: "hostId", message: expect.stringContaining("whole number") }],
        }),
      );
    },
  );

  it("reads the id of a route's params", async () => {
    expect(await idFromParams(Promise.resolve({ id: "7" }))).toBe(7);
    await expect(idFromParams(Promise.resolve({ id: "x" }))).rejects.toMatchObject({
      status: 400,
      fields: [{ field: "id" }],
    });
  });
});
