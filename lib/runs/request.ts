import { z } from "zod";
import { IperfOptionsSchema, type IperfOptions } from "@/lib/iperf";
import { fieldErrorsFromZod, invalidInput, type FieldError } from "@/lib/inventory/errors";

// What a user asks of a run on a link. Data flows from the iperf3 client to the
// server unless reversed, so `direction` (which way over the link) and
// `clientSide` (which end runs the client) together give -R or --bidir.

export const RUN_DIRECTIONS = ["a-to-b", "b-to-a", "bidir"] as const;
export type RunDirection = (typeof RUN_DIRECTIONS)[number];
export type ClientSide = "a" | "b";

const RunPlacementSchema = z.object({
  direction: z.enum(RUN_DIRECTIONS, { error: 'direction must be "a-to-b", "b-to-a" or "bidir"' }).default("a-to-b"),
  clientSide: z.enum(["a", "b"], { error: 'clientSide must be "a" or "b"' }).default("a"),
});

export type RunRequest = { options: IperfOptions; clientSide: ClientSide; direction: RunDirection };

/** -R and --bidir from the direction over the link and the side that runs the client. */
export function directionFlags(direction: RunDirection, clientSide: ClientSide): { reverse: boolean; bidir: boolean } {
  if (direction === "bidir") return { reverse: false, bidir: true };
  const clientSends = (direction === "a-to-b") === (clientSide === "a");
  return { reverse: !clientSends, bidir: false };
}

/** The direction over the link of a stored run, from its flags and client side. */
export function directionOf(options: { reverse?: boolean; bidir?: boolean }, clientSide: ClientSide): RunDirection {
  if (options.bidir) return "bidir";
  const clientSends = !options.reverse;
  return (clientSide === "a") === clientSends ? "a-to-b" : "b-to-a";
}

/** iperf3's own messages already start with the field's name: do not say it twice. */
function withoutRepeatedField(fields: FieldError[]): FieldError[] {
  return fields.map(({ field, message }) => ({
    field,
    message: message.startsWith(`${field} `) ? message.slice(field.length + 1) : message,
  }));
}

/**
 * Validates a run request body: the iperf3 options plus `direction` and `clientSide`.
 * `reverse` and `bidir` are not accepted here: `direction` says it once, without contradiction.
 */
export function parseRunRequest(body: unknown): RunRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidInput([{ field: "body", message: "must be a JSON object" }]);
  }
  const { direction, clientSide, reverse, bidir, ...rest } = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const [field, value] of [["reverse", reverse], ["bidir", bidir]] as const) {
    if (value !== undefined) errors.push({ field, message: 'is set through direction here: "a-to-b", "b-to-a" or "bidir"' });
  }
  const placement = RunPlacementSchema.safeParse({ direction, clientSide });
  if (!placement.success) errors.push(...withoutRepeatedField(fieldErrorsFromZod(placement.error)));
  const flags = placement.success ? directionFlags(placement.data.direction, placement.data.clientSide) : {};
  const options = IperfOptionsSchema.safeParse({ ...rest, ...flags });
  if (!options.success) errors.push(...withoutRepeatedField(fieldErrorsFromZod(options.error)));
  if (errors.length > 0 || !placement.success || !options.success) throw invalidInput(errors);
  return { options: options.data, clientSide: placement.data.clientSide, direction: placement.data.direction };
}
