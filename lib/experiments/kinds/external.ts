// Links to an iperf3 server Wirespeed does not manage (PlanLink.externalServerEnd): their runs start
// only the client, on the managed end, against a server that may be busy with other people's tests.
import type { FieldError } from "@/lib/errors";
import type { ClientSide } from "@/lib/runs/contract";
import type { PlanLink } from "../contract";

/**
 * A kind that needs servers under its control refuses such links, naming `linkIds`: channels need one
 * server per channel at once. A sweep, a UDP ceiling, a matrix and concurrent runs take them, the
 * client on the managed end (a step may wait while the server is busy; its run says how many tries).
 */
export function refuseExternalServers(links: PlanLink[], why: string): FieldError[] {
  return links.flatMap((link) =>
    link.externalServerEnd
      ? [
          {
            field: "linkIds",
            message: `link ${link.name} goes to an iperf3 server Wirespeed does not manage (end ${link.externalServerEnd}): ${why}`,
          },
        ]
      : [],
  );
}

/** A client side on such a link's server end, named as `field` (a run's client cannot run there). */
export function refuseClientOnExternalServer(links: PlanLink[], sides: ClientSide[], field: string): FieldError[] {
  return links.flatMap((link) =>
    link.externalServerEnd && sides.includes(link.externalServerEnd)
      ? [
          {
            field,
            message: `cannot put the client on ${link.externalServerEnd} of link ${link.name}: that end is an iperf3 server Wirespeed does not manage; the client runs on the other end, and the directions give -R and --bidir`,
          },
        ]
      : [],
  );
}
