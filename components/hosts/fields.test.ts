import { describe, expect, it } from "vitest";
import { placeTagError, tagsFromText } from "./fields";

// A host's tags as the settings form reads them, and where the server's refusal of one shows.

describe("tags on the host form", () => {
  it("splits what is typed at commas and spaces, dropping empty pieces", () => {
    expect(tagsFromText(" rack1, lab-vlan  10g,,")).toEqual(["rack1", "lab-vlan", "10g"]);
    expect(tagsFromText("")).toEqual([]);
  });

  it("shows a refused tag on the Tags field, naming it; other errors stay as they are", () => {
    const tags = ["wan", "Bad"];
    expect(placeTagError({ field: "tags.1", message: "must be 1-32 characters" }, tags)).toEqual({
      field: "tags",
      message: '"Bad" must be 1-32 characters',
    });
    expect(placeTagError({ field: "tags", message: "must be a list" }, tags)).toEqual({
      field: "tags",
      message: "must be a list",
    });
    expect(placeTagError({ field: "name", message: "is taken" }, tags)).toEqual({ field: "name", message: "is taken" });
  });
});
