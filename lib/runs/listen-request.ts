import { z } from "zod";
import { parseInput } from "@/lib/errors";

// The body of POST /api/links/:id/listen and of the link page's "Listen for a device": how long
// the one-off server waits for the device. Pure: the route, the action and the form share it.

export const LISTEN_TIMEOUT_SECONDS = { min: 10, max: 3600, default: 300 } as const;

const TIMEOUT_MESSAGE = `timeoutSeconds must be a whole number of seconds from ${LISTEN_TIMEOUT_SECONDS.min} to ${LISTEN_TIMEOUT_SECONDS.max}`;

export const ListenRequestSchema = z.strictObject({
  timeoutSeconds: z
    .number({ error: TIMEOUT_MESSAGE })
    .int({ error: TIMEOUT_MESSAGE })
    .min(LISTEN_TIMEOUT_SECONDS.min, { error: TIMEOUT_MESSAGE })
    .max(LISTEN_TIMEOUT_SECONDS.max, { error: TIMEOUT_MESSAGE })
    .default(LISTEN_TIMEOUT_SECONDS.default),
});
export type ListenRequest = z.output<typeof ListenRequestSchema>;

/** The request, or a 400 naming each bad field (`timeoutSeconds`); no body at all is the default. */
export function parseListenRequest(body: unknown): ListenRequest {
  return parseInput(ListenRequestSchema, body ?? {});
}
