import type { ChangeEvent } from "react";
import { describe, expect, it } from "vitest";
import { textBinder } from "./field-binding";

type Fields = { name: string; low: string; enabled: boolean; mode: "a" | "b" };

const typed = (value: string) => ({ target: { value } }) as ChangeEvent<HTMLInputElement>;

describe("textBinder", () => {
  it("gives a field's name, value and message, and changes that field only", () => {
    const changes: Array<Partial<Fields>> = [];
    const field = textBinder<Fields>({ name: "lab", low: "", enabled: true, mode: "a" }, (next) => changes.push(next), {
      name: "is taken",
    });
    const name = field("name");
    expect(name).toMatchObject({ name: "name", value: "lab", error: "is taken" });
    name.onChange(typed("nas"));
    expect(changes).toEqual([{ name: "nas" }]);
  });

  it("names the control as the request does where it differs, or not at all", () => {
    const fields: Fields = { name: "", low: "5", enabled: false, mode: "b" };
    expect(textBinder(fields, () => {}, {})("low", "lowMbps")).toMatchObject({ name: "lowMbps", value: "5" });
    expect(textBinder(fields, () => {}, {}, { isNamed: false })("low")).not.toHaveProperty("name");
  });
});
