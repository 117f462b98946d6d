import { describe, expect, it } from "vitest";
import { apiResultOf, fieldErrorsByKey, formFailureMessage, NO_ANSWER, unplacedErrors } from "./use-action-form";

const errors = [
  { field: "name", message: "is required" },
  { field: "config.url", message: "must start with http" },
  { field: "name", message: "is too long" },
];

describe("fieldErrorsByKey", () => {
  it("keeps the first message of each field, by the name the server gave", () => {
    expect(fieldErrorsByKey(errors)).toEqual({ name: "is required", "config.url": "must start with http" });
  });

  it("places each error where the form shows it", () => {
    const byKey = fieldErrorsByKey(errors, ({ field, message }) => ({
      field: field.replace(/^config\./, ""),
      message,
    }));
    expect(byKey).toEqual({ name: "is required", url: "must start with http" });
  });
});

describe("unplacedErrors and formFailureMessage", () => {
  it("keep the errors no field shows", () => {
    expect(unplacedErrors(errors, ["name"])).toEqual([errors[1]]);
    const byKey = fieldErrorsByKey(errors);
    expect(formFailureMessage({ message: "Invalid", errors }, byKey, new Set(["name"]))).toBe(
      "Check the fields marked below. config.url: must start with http",
    );
    expect(formFailureMessage({ message: "Not allowed", errors: [] }, {}, new Set())).toBe("Not allowed");
  });
});

describe("apiResultOf", () => {
  it("answers the body of a successful request", async () => {
    expect(await apiResultOf(Response.json({ imported: [] }))).toEqual({ ok: true, value: { imported: [] } });
  });

  it("answers the API's error message and fields, or the status without a body", async () => {
    const refused = Response.json(
      { error: { code: "invalid_request", message: "Invalid import", fields: [errors[0]] } },
      { status: 400 },
    );
    expect(await apiResultOf(refused)).toEqual({ ok: false, message: "Invalid import", errors: [errors[0]] });
    expect(await apiResultOf(new Response("<html>", { status: 502 }))).toEqual({
      ok: false,
      message: "The server answered 502.",
      errors: [],
    });
    expect(NO_ANSWER.message).toMatch(/did not answer/);
  });
});
