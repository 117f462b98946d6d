import { describe, expect, it } from "vitest";
import { AppError, type FieldError } from "@/lib/errors";
import type { PlanLink } from "../contract";
import { checkPlan, parseExperimentRequest } from "../plan";
import { planLink } from "./outcome-builders";

// Links to an iperf3 server Wirespeed does not manage: the kinds that need the server under their
// control refuse them (channels); the others run with the client on the managed end.

const ISP: PlanLink = { ...planLink(1, 500, "isp"), externalServerEnd: "b" };
const LAN: PlanLink = planLink(2, 1000, "lan");

function fieldsOf(body: Record<string, unknown>, links: PlanLink[]): FieldError[] {
  try {
    checkPlan(parseExperimentRequest(body), links);
  } catch (error) {
    expect((error as AppError).status).toBe(400);
    return (error as AppError).fields;
  }
  return [];
}

describe("experiments on a link to an unmanaged iperf3 server", () => {
  it("channels refuse it, naming linkIds: they need one server per channel at once", () => {
    const errors = fieldsOf({ kind: "channels", linkIds: [1], channels: 2 }, [ISP]);
    expect(errors).toContainEqual({
      field: "linkIds",
      message: expect.stringMatching(/^link isp goes to an iperf3 server Wirespeed does not manage \(end b\)/),
    });
  });

  it.each([
    ["sweep", { factor: "parallel", values: [1, 2] }],
    ["udp-ceiling", {}],
  ])("a %s runs with the client on the managed end, and refuses clientSide on the server's end", (kind, fields) => {
    expect(fieldsOf({ kind, linkIds: [1], ...fields }, [ISP])).toEqual([]);
    expect(fieldsOf({ kind, linkIds: [1], ...fields, options: { clientSide: "b" } }, [ISP])).toEqual([
      { field: "clientSide", message: expect.stringMatching(/^cannot put the client on b of link isp/) },
    ]);
  });

  it("a matrix runs with the client on a, and refuses clientSides with b", () => {
    expect(fieldsOf({ kind: "matrix", linkIds: [1] }, [ISP])).toEqual([]);
    expect(fieldsOf({ kind: "matrix", linkIds: [1], clientSides: ["a", "b"] }, [ISP])).toEqual([
      { field: "clientSides", message: expect.stringMatching(/^cannot put the client on b of link isp/) },
    ]);
  });

  it("a concurrent experiment takes it with the client on its managed end, and refuses clientSide b", () => {
    expect(fieldsOf({ kind: "concurrent", linkIds: [1, 2] }, [ISP, LAN])).toEqual([]);
    expect(
      fieldsOf({ kind: "concurrent", linkIds: [1, 2], options: { clientSide: "b" } }, [ISP, LAN]).map(
        (error) => error.field,
      ),
    ).toEqual(["clientSide"]);
  });
});
