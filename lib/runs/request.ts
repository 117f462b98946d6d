import { z } from "zod";
import { IperfOptionsSchema, type IperfOptions } from "@/lib/iperf";
import { CLIENT_SIDES, directionFlags, RUN_DIRECTIONS, type ClientSide, type RunDirection } from "./contract";
import { fieldErrorsFromZod, invalidInput, type FieldError } from "@/lib/errors";

// What a user asks of a run on a link: the iperf3 options, and `direction` and `clientSide`
// (lib/runs/contract.ts), which together give -R or --bidir.

const RunPlacementSchema = z.object({
  direction: z.enum(RUN_DIRECTIONS, { error: 'direction must be "a-to-b", "b-to-a" or "bidir"' }).default("a-to-b"),
  clientSide: z.enum(CLIENT_SIDES, { error: 'clientSide must be "a" or "b"' }).default("a"),
});

export type RunRequest = { options: IperfOptions; clientSide: ClientSide; direction: RunDirection };

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
  for (const [field, value] of [
    ["reverse", reverse],
    ["bidir", bidir],
  ] as const) {
    if (value !== undefined)
      errors.push({ field, message: 'is set through direction here: "a-to-b", "b-to-a" or "bidir"' });
  }
  const placement = RunPlacementSchema.safeParse({ direction, clientSide });
  if (!placement.success) errors.push(...withoutRepeatedField(fieldErrorsFromZod(placement.error)));
  const flags = placement.success ? directionFlags(placement.data.direction, placement.data.clientSide) : {};
  const options = IperfOptionsSchema.safeParse({ ...rest, ...flags });
  if (!options.success) errors.push(...withoutRepeatedField(fieldErrorsFromZod(options.error)));
  if (errors.length > 0 || !placement.success || !options.success) throw invalidInput(errors);
  return { options: options.data, clientSide: placement.data.clientSide, direction: placement.data.direction };
}
